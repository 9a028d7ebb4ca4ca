"""Update rehearsal: what CloudFormation would do when a deployed app (BEFORE) is updated to a new one (AFTER).

Reads two CDK output directories (every stack in them, cross-stack references included) and computes, per
stack, what happens to each resource: added, updated in place, replaced, deleted, and which custom resources
receive an Update event. A resource is replaced when a changed property is one its CloudFormation registry
schema lists under createOnlyProperties or conditionalCreateOnlyProperties (the schemas cfn-lint ships), plus
the documented additions in the config. Changes propagate:

- a replaced resource's Ref and every Fn::GetAtt change; an updated custom resource's Ref and every Fn::GetAtt
  may change (its physical id and Data are the handler's answer); an attribute of a resource updated in place
  changes when it mirrors a property that changed, when the config lists it as changing on every update, or
  when the schema does not know it (neither a property nor read-only); read-only identity attributes (Arn, Id,
  names) do not change without replacement;
- any expression that contains such a value changes (Fn::Sub, Fn::Join, Fn::Select, Fn::If, every function),
  and so does the property holding it: an update, or a replacement when that property is create-only;
- a changed export changes every Fn::ImportValue of it; a changed output changes every Fn::GetStackOutput of
  it in a stack whose template changed otherwise (an unchanged template is not deployed again);
- Fn::If follows its condition's definition and Fn::FindInMap its mapping; a parameter changes when its
  definition does, when it has no default or when it is resolved from SSM at each deploy; pseudo parameters and
  imports or outputs of stacks outside the directories keep their values; Metadata, DependsOn and the policies
  alone are no update; a type without a schema (and not listed in the config) is replaced by any change;
- asset hashes compare as unchanged when one side is a snapshot (its hashes read <asset-hash>).

It fails on (unless acknowledged in the config, per change, stack, resource and finding, with a reason):
stateful-replaced / stateful-deleted, lustre-replaced, association-collision, association-limit, shrink (a
property that may only grow, e.g. a file system's capacity or its metadata IOPS), fixed-at-creation (a property
added or removed that only a new resource takes, e.g. a Lustre metadata configuration), notifications-rewritten (a bucket's
NotificationConfiguration changes), rollback-undeletable (a bucket the change creates that its rollback would delete:
S3 refuses while any object version is in it, so a failed deploy ends in ROLLBACK_FAILED; a failed first create is
the change from no stacks to the app), metadata-automatic (a Lustre metadata configuration switched from
USER_PROVISIONED to AUTOMATIC, which FSx rejects when the provisioned IOPS exceed AUTOMATIC's for the capacity),
export-changed, stale-stack-output, rewarm-missing, rewarm-unexpected, service-token-changed (a custom resource whose
ServiceToken changes: CloudFormation refuses the update), no-change (a catalogue change that changed no template). A catalogue change may list "expectedFindings": kinds it must report (a change the library cannot make
safe, rehearsed to prove the rehearsal catches it); they are shown as expected, and a missing one fails
(expected-missing).

A re-warm is a Custom::LustrePreload whose WarmKey changes (after propagation) or that is created. A change should
re-warm when it says so (--expect-rewarm, or "rewarm" in the catalogue) or, unsaid, when what the preload warms
changes (its FileSystemId or DataLocations); it should not when it says so.

Usage:
  python3 rehearse.py [--config FILE] [--json FILE] [--details] [--name NAME] [--expect-rewarm yes|no]
                      BEFORE_DIR AFTER_DIR
  python3 rehearse.py [--config FILE] [--json FILE] [--details] --catalogue DIR
DIR/catalogue.json: {"changes": [{"id", "before", "after" (directories under DIR), "rewarm": "yes"|"no"|null,
"mustChange": bool}]}. Prints one table row per change (--details: every resource that changes, and why), then
every failure; exits 1 if any.
"""
import argparse
import importlib.util
import json
import re
import sys
from pathlib import Path

CFN_LINT = importlib.util.find_spec("cfnlint")
if CFN_LINT is None:
    raise SystemExit("rehearse: needs Python 3 with cfn-lint 1.x (its CloudFormation registry schemas)")
CFN_LINT_DATA = Path(CFN_LINT.origin).parent / "data"
HASH = re.compile(r"[0-9a-f]{64}")
HASH_PLACEHOLDER = "<asset-hash>"
MISSING = object()
RANK = {"unchanged": 0, "updated": 1, "replaced": 2}
RETAINING = ("Retain", "RetainExceptOnCreate")
SUB_REFERENCE = re.compile(r"\$\{([^!}][^}]*)\}")


def is_custom(rtype):
    return rtype.startswith("Custom::") or rtype == "AWS::CloudFormation::CustomResource"


def intrinsic(node):
    """(name, argument) when node is an intrinsic function or condition reference, else None."""
    if isinstance(node, dict) and len(node) == 1:
        (key, arg), = node.items()
        if key in ("Ref", "Condition") or key.startswith("Fn::"):
            return key, arg
    return None


# ------------------------------------------------------------------------------------------------ schemas
class Schemas:
    """Create-only properties, attributes and property names per resource type, from cfn-lint's registry
    schemas for the stack's Region, with the config's additions."""

    def __init__(self, config):
        self.additions = config.get("createOnlyAdditions", {})
        self.schemaless = config.get("schemalessTypes", {})
        self.volatile = config.get("changingAttributes", {})
        self.cache = {}
        self.providers = {}
        self.schemas = CFN_LINT_DATA / "schemas"

    def _types(self, region):
        """Resource type -> schema file of a Region: cfn-lint's providers/<region>.py holds one dict, `types`,
        read here without importing cfn-lint (its import takes seconds)."""
        if region not in self.providers:
            path = self.schemas / "providers" / (region.replace("-", "_") + ".py")
            if not path.exists():
                path = self.schemas / "providers" / "us_east_1.py"
            namespace = {}
            exec(compile(path.read_text(), str(path), "exec"), namespace)  # noqa: S102 - cfn-lint's own data module
            self.providers[region] = namespace["types"]
        return self.providers[region]

    def schema(self, region, rtype):
        key = (region, rtype)
        if key not in self.cache:
            lookup = "AWS::CloudFormation::CustomResource" if is_custom(rtype) else rtype
            digest = self._types(region).get(lookup)
            path = self.schemas / "resources" / f"{digest}.json"
            self.cache[key] = json.loads(path.read_text()) if digest else None
        return self.cache[key]

    def create_only(self, region, rtype):
        """[(pointer segments, label)]; None when the type has no schema and the config does not know it."""
        schema = self.schema(region, rtype)
        if schema is None and rtype not in self.schemaless:
            return None
        pointers = [(p, "") for p in (schema or {}).get("createOnlyProperties", [])]
        pointers += [(p, " (conditional)") for p in (schema or {}).get("conditionalCreateOnlyProperties", [])]
        pointers += [(p, " (documented)") for p in self.additions.get(rtype, {}).get("paths", [])]
        pointers += [(p, "") for p in self.schemaless.get(rtype, [])]
        return [(p.split("/")[2:], p + label) for p, label in pointers if p.startswith("/properties/")]

    def attribute_kind(self, region, rtype, attribute):
        """'property' (mirrors a writable property), 'identity' (read-only), 'changing' or 'unknown'."""
        first = attribute.split(".")[0]
        if first in self.volatile.get(rtype, []):
            return "changing"
        schema = self.schema(region, rtype) or {}
        read_only = {p.split("/")[2] for p in schema.get("readOnlyProperties", []) if p.startswith("/properties/")}
        if first in read_only:
            return "identity"
        if first in schema.get("properties", {}):
            return "property"
        return "unknown"


# ------------------------------------------------------------------------------------------------ assemblies
class Stack:
    """One stack's template as deployed (before) or to be deployed (after)."""

    def __init__(self, name, text, region):
        self.name = name
        self.text = text
        self.doc = json.loads(text)
        self.region = region
        self.resources = self.doc.get("Resources", {})
        self.outputs = self.doc.get("Outputs", {})


def read_assembly(directory):
    """Stacks of a CDK output directory by stack name: the manifest's stack artifacts (nested assemblies
    included), or every *.template.json named after its stack when there is no manifest."""
    directory = Path(directory)
    found = {}
    manifest = directory / "manifest.json"
    if manifest.exists():
        for artifact_id, artifact in json.loads(manifest.read_text()).get("artifacts", {}).items():
            props = artifact.get("properties", {})
            if artifact.get("type") == "aws:cloudformation:stack":
                env = artifact.get("environment", "")
                region = env.rsplit("/", 1)[-1] if env.startswith("aws://") else ""
                name = props.get("stackName", artifact_id)
                text = (directory / props["templateFile"]).read_text()
                found[name] = (text, region if region and not region.startswith("unknown") else "us-east-1")
            elif artifact.get("type") == "cdk:cloud-assembly":
                for name, stack in read_assembly(directory / props["directoryName"]).items():
                    found[name] = (stack.text, stack.region)
    else:
        for path in sorted(directory.glob("*.template.json")):
            found[path.name[: -len(".template.json")]] = (path.read_text(), "us-east-1")
    return {name: Stack(name, text, region) for name, (text, region) in found.items()}


def normalized_pair(before, after):
    """Asset hashes compare as unchanged when either side is a snapshot (its hashes read <asset-hash>)."""
    if before is None or after is None or (HASH_PLACEHOLDER not in before.text and HASH_PLACEHOLDER not in after.text):
        return before, after
    return tuple(Stack(s.name, HASH.sub(HASH_PLACEHOLDER, s.text), s.region) for s in (before, after))


# ------------------------------------------------------------------------------------------------ one stack
class StackDiff:
    """What one stack's update does to each resource, given what changed in the stacks it reads from."""

    def __init__(self, name, before, after, schemas, world):
        self.name = name
        self.before = before
        self.after = after
        self.schemas = schemas
        self.world = world
        self.region = (after or before).region
        self.template_changed = before is None or after is None or \
            json.loads(before.text) != json.loads(after.text)
        self.states = {}
        self.changes = {}
        self.replacements = {}
        self.stale = []
        b = before.resources if before else {}
        a = after.resources if after else {}
        for logical in a:
            self.states[logical] = "added" if logical not in b else "unchanged"
        for logical in b:
            if logical not in a:
                self.states[logical] = "deleted"
        self._settle()

    # -- volatility: why a value whose text is unchanged still changes
    def reasons(self, node):
        found = []
        self._walk(node, found)
        return found

    def _walk(self, node, found):
        fn = intrinsic(node)
        if fn:
            key, arg = fn
            if key == "Ref" and isinstance(arg, str):
                why = self.ref_changes(arg)
                if why:
                    found.append(why)
                return
            if key == "Fn::GetAtt":
                logical, attribute = arg if isinstance(arg, list) else arg.split(".", 1)
                why = self.getatt_changes(logical, attribute if isinstance(attribute, str) else json.dumps(attribute))
                if why:
                    found.append(why)
                return
            if key == "Fn::Sub":
                text, variables = (arg, {}) if isinstance(arg, str) else (arg[0], arg[1])
                for name in SUB_REFERENCE.findall(text):
                    if name in variables:
                        continue
                    why = self.getatt_changes(*name.split(".", 1)) if "." in name and not name.startswith("AWS::") \
                        else self.ref_changes(name)
                    if why:
                        found.append(why)
                self._walk(variables, found)
                return
            if key == "Fn::ImportValue":
                why = self.world.import_changes(self.world.literal(arg, self.name))
                if why:
                    found.append(why)
                self._walk(arg, found)
                return
            if key == "Fn::GetStackOutput" and isinstance(arg, dict):
                wanted = (self.world.literal(arg.get("StackName"), self.name),
                          self.world.literal(arg.get("OutputName"), self.name))
                why = self.world.output_changes(*wanted)
                if why:
                    if self.template_changed:
                        found.append(why)
                    elif (wanted, why) not in self.stale:
                        self.stale.append((wanted, why))
                return
            if key in ("Fn::If", "Condition"):
                condition = arg[0] if key == "Fn::If" else arg
                why = self.condition_changes(condition)
                if why:
                    found.append(why)
                if key == "Fn::If":
                    self._walk(arg[1:], found)
                return
            if key == "Fn::FindInMap":
                mapping = arg[0] if isinstance(arg[0], str) else None
                b = (self.before.doc if self.before else {}).get("Mappings", {}).get(mapping)
                if mapping and b != self.after.doc.get("Mappings", {}).get(mapping):
                    found.append(f"mapping {mapping} changed")
            self._walk(arg, found)
            return
        if isinstance(node, dict):
            for value in node.values():
                self._walk(value, found)
        elif isinstance(node, list):
            for value in node:
                self._walk(value, found)

    def ref_changes(self, logical):
        if logical in self.after.doc.get("Parameters", {}):
            return self.parameter_changes(logical)
        state = self.states.get(logical)
        if state == "replaced":
            return f"Ref {logical} (replaced)"
        if state == "updated" and is_custom(self.after.resources[logical]["Type"]):
            return f"Ref {logical} (custom resource updated: its physical id may change)"
        return None

    def parameter_changes(self, name):
        """A parameter keeps its value unless its definition changed, it has no default (given at each deploy) or
        it is resolved from SSM at each deploy."""
        after = self.after.doc["Parameters"][name]
        before = (self.before.doc if self.before else {}).get("Parameters", {}).get(name)
        if before != after:
            return f"parameter {name} changed"
        if "Default" not in after or str(after.get("Type", "")).startswith("AWS::SSM::Parameter::Value"):
            return f"parameter {name} (its value is resolved at each deploy)"
        return None

    def getatt_changes(self, logical, attribute):
        state = self.states.get(logical)
        if state not in ("replaced", "updated"):
            return None
        rtype = self.after.resources[logical]["Type"]
        if state == "replaced" or is_custom(rtype):
            how = "replaced" if state == "replaced" else "custom resource updated: its Data may change"
            return f"GetAtt {logical}.{attribute} ({how})"
        kind = self.schemas.attribute_kind(self.region, rtype, attribute)
        first = attribute.split(".")[0]
        if kind in ("changing", "unknown") or (kind == "property" and any(
                path and path[0] == first for path, _ in self.changes.get(logical, []))):
            return f"GetAtt {logical}.{attribute} ({logical} updated)"
        return None

    def condition_changes(self, name):
        before = (self.before.doc if self.before else {}).get("Conditions", {}).get(name, MISSING)
        after = self.after.doc.get("Conditions", {}).get(name, MISSING)
        if before != after:
            return f"condition {name} changed"
        reasons = self.reasons(after) if after is not MISSING else []
        return f"condition {name}: {reasons[0]}" if reasons else None

    # -- differences of one value: [(path, why)]
    def diff(self, before, after, path=()):
        if before is MISSING or after is MISSING:
            return [] if before is after else [(list(path), "added" if before is MISSING else "removed")]
        if isinstance(before, dict) and isinstance(after, dict) and not intrinsic(before) and not intrinsic(after):
            out = []
            for key in list(before) + [k for k in after if k not in before]:
                out += self.diff(before.get(key, MISSING), after.get(key, MISSING), path + (key,))
            return out
        if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
            out = []
            for i, (b, a) in enumerate(zip(before, after)):
                out += self.diff(b, a, path + (i,))
            return out
        if before != after:
            return [(list(path), "value changed")]
        reasons = self.reasons(after)
        return [(list(path), reasons[0])] if reasons else []

    def _settle(self):
        """Iterates until no state rises: states only rise (unchanged, updated, replaced), so this ends."""
        common = [l for l, s in self.states.items() if s not in ("added", "deleted")]
        while True:
            risen = False
            for logical in common:
                b, a = self.before.resources[logical], self.after.resources[logical]
                changes = self.diff(b.get("Properties", {}), a.get("Properties", {}))
                for attribute in ("Condition",):
                    if b.get(attribute) != a.get(attribute):
                        changes.append(([attribute], f"{attribute} changed"))
                replaced = self._replacement(b, a, changes)
                state = "replaced" if replaced else "updated" if changes else "unchanged"
                grown = len(changes) > len(self.changes.get(logical, []))
                self.changes[logical] = changes
                if replaced:
                    self.replacements[logical] = replaced
                if RANK[state] > RANK[self.states[logical]] or grown:
                    self.states[logical] = max(state, self.states[logical], key=RANK.get)
                    risen = True
            if not risen:
                return

    def _replacement(self, before, after, changes):
        """[(create-only property, why)] behind a replacement, or []."""
        if before["Type"] != after["Type"]:
            return [("Type", f"type {before['Type']} -> {after['Type']}")]
        pointers = self.schemas.create_only(self.region, after["Type"])
        if pointers is None:
            return [(f"{'/'.join(map(str, p)) or '(properties)'} (no schema: every property counted create-only)", why)
                    for p, why in changes]
        hits = []
        for path, why in changes:
            if path[:1] == ["Condition"]:
                continue
            for segments, label in pointers:
                if covers(segments, path, before.get("Properties", {}), after.get("Properties", {})):
                    hits.append((label, why))
        return hits

    def output_changes(self):
        """Output name -> why its value changes (a removed output counts)."""
        out = {}
        b = self.before.outputs if self.before else {}
        a = self.after.outputs if self.after else {}
        for name, output in b.items():
            if name not in a:
                out[name] = "output removed"
                continue
            found = self.diff(output.get("Value"), a[name].get("Value"))
            if found:
                out[name] = found[0][1]
        return out


def covers(segments, path, before, after):
    """Whether a change at `path` (property path) touches the create-only pointer `segments`."""
    for i, segment in enumerate(segments):
        if i == len(path):
            # The change is at a container of the pointer: it touches it unless neither side holds a value there.
            return value_at(before, segments) is not MISSING or value_at(after, segments) is not MISSING
        if segment != "*" and str(path[i]) != segment:
            return False
        if segment == "*" and not isinstance(path[i], int):
            return False
    return True


def value_at(node, segments):
    for segment in segments:
        if intrinsic(node):
            return None  # an expression: what it holds there is unknown
        if isinstance(node, dict) and segment in node:
            node = node[segment]
        elif isinstance(node, list) and segment == "*":
            return node if node else MISSING
        else:
            return MISSING
    return node


# ------------------------------------------------------------------------------------------------ one change
class World:
    """Every stack of one change, with what crosses stacks: exports and outputs that change."""

    def __init__(self, before, after, schemas):
        self.before = before
        self.after = after
        self.changed_exports = {}
        self.changed_outputs = {}
        names = list(dict.fromkeys(list(after) + list(before)))
        self.diffs = {}
        for name in self._order(names):
            b, a = normalized_pair(before.get(name), after.get(name))
            diff = StackDiff(name, b, a, schemas, self)
            self.diffs[name] = diff
            for output, why in diff.output_changes().items():
                self.changed_outputs[(name, output)] = f"output {name}.{output}: {why}"
                export = (b.outputs.get(output, {}) if b else {}).get("Export")
                if export:
                    self.changed_exports[self.literal(export.get("Name"), name)] = \
                        f"export {self.literal(export.get('Name'), name)} ({name}.{output}): {why}"

    def _order(self, names):
        """Producers before consumers (imports and stack outputs read), else by name."""
        exporters = {}
        for stacks in (self.before, self.after):
            for stack in stacks.values():
                for output in stack.outputs.values():
                    if "Export" in output:
                        exporters[self.literal(output["Export"].get("Name"), stack.name)] = stack.name
        needs = {n: set() for n in names}
        for n in names:
            stack = self.after.get(n) or self.before.get(n)
            text = json.dumps(stack.doc)
            for export, producer in exporters.items():
                if producer != n and json.dumps(export) in text and "Fn::ImportValue" in text:
                    needs[n].add(producer)
            for producer in names:
                if producer != n and f'"StackName": "{producer}"' in text:
                    needs[n].add(producer)
        ordered, seen = [], set()

        def visit(n, path=()):
            if n in seen or n in path:
                return
            for m in sorted(needs[n]):
                visit(m, path + (n,))
            seen.add(n)
            ordered.append(n)
        for n in sorted(names):
            visit(n)
        return ordered

    @staticmethod
    def literal(node, stack_name):
        """A name given as a literal or a simple Fn::Sub/Fn::Join of literals and the stack name."""
        fn = intrinsic(node)
        if fn and fn[0] == "Fn::Sub" and isinstance(fn[1], str):
            return fn[1].replace("${AWS::StackName}", stack_name)
        if fn and fn[0] == "Fn::Join":
            parts = [World.literal(p, stack_name) for p in fn[1][1]]
            return fn[1][0].join(p if isinstance(p, str) else json.dumps(p) for p in parts)
        if fn and fn[0] == "Ref" and fn[1] == "AWS::StackName":
            return stack_name
        return node if isinstance(node, str) else json.dumps(node, sort_keys=True)

    def import_changes(self, name):
        return self.changed_exports.get(name)

    def output_changes(self, stack, output):
        return self.changed_outputs.get((stack, output))

    def importers(self, export, stacks):
        """Stacks (of `stacks`) whose templates import the export."""
        found = []
        for stack in stacks.values():
            hits = []
            collect_imports(stack.doc, stack.name, hits)
            if export in hits:
                found.append(stack.name)
        return found


def collect_imports(node, stack_name, out):
    fn = intrinsic(node)
    if fn and fn[0] == "Fn::ImportValue":
        out.append(World.literal(fn[1], stack_name))
        return
    if isinstance(node, dict):
        for value in node.values():
            collect_imports(value, stack_name, out)
    elif isinstance(node, list):
        for value in node:
            collect_imports(value, stack_name, out)


# ------------------------------------------------------------------------------------------------ findings
class Finding:
    def __init__(self, kind, stack, resource, message):
        self.kind, self.stack, self.resource, self.message = kind, stack, resource, message

    def as_json(self):
        return {"finding": self.kind, "stack": self.stack, "resource": self.resource, "message": self.message}


def dependencies(template):
    """Logical id -> every resource it depends on (DependsOn, Ref, GetAtt, Sub), transitively."""
    direct = {}
    for logical, resource in template.resources.items():
        deps = set()
        depends = resource.get("DependsOn", [])
        deps.update([depends] if isinstance(depends, str) else depends)
        text = json.dumps(resource.get("Properties", {}))
        for other in template.resources:
            if other != logical and (f'"Ref": "{other}"' in text or f'["{other}", ' in text
                                     or f"${{{other}}}" in text or f"${{{other}." in text):
                deps.add(other)
        direct[logical] = deps
    closure = {}

    def close(logical, path=()):
        if logical not in closure:
            out = set()
            for dep in direct.get(logical, ()):
                if dep not in path:
                    out |= {dep} | close(dep, path + (logical,))
            closure[logical] = out
        return closure[logical]
    for logical in direct:
        close(logical)
    return closure


def render(node, diff, new):
    """A value as comparable text: literals as they are, references as {Logical} or {Logical.Attr}, marked #new
    in the after state when the referenced value changes."""
    fn = intrinsic(node)
    if fn:
        key, arg = fn
        if key == "Fn::Join":
            return arg[0].join(render(p, diff, new) for p in arg[1])
        mark = "#new" if new and diff.reasons(node) else ""
        if key == "Ref":
            return "{" + str(arg) + mark + "}"
        if key == "Fn::GetAtt":
            return "{" + (".".join(arg) if isinstance(arg, list) else arg) + mark + "}"
        return "{" + json.dumps(node, sort_keys=True) + mark + "}"
    return node if isinstance(node, str) else json.dumps(node)


def nests(a, b):
    """Equal, or one directory contains the other (paths compared with a trailing slash)."""
    a, b = a.rstrip("/") + "/", b.rstrip("/") + "/"
    return a.startswith(b) or b.startswith(a)


def association_findings(diff, kinds, limit):
    """Two associations of one file system that exist at the same moment of the update with the same or nested
    file-system path or S3 location; more than `limit` at one moment; an association removed from the template but
    retained (its DeletionPolicy), which stays on the file system and counts toward the limit for good."""
    if diff.after is None:
        return []
    deps = dependencies(diff.after)
    states = []  # (logical, generation, file system, path, location, in-place)
    retained = []
    for logical, state in diff.states.items():
        resource = (diff.after.resources.get(logical) or diff.before.resources[logical])
        kind = kinds.get(resource["Type"])
        if not kind:
            continue
        if state in ("deleted", "replaced"):
            policy = diff.before.resources[logical].get(
                "DeletionPolicy" if state == "deleted" else "UpdateReplacePolicy", "Delete")
            if policy in RETAINING:
                retained.append(Finding("association-retained", diff.name, logical,
                                        f"{logical} leaves the template but is retained ({policy}): its association "
                                        "stays on the file system, linked and counting toward FSx's "
                                        f"{limit} per file system, and no later deploy deletes it"))
        in_place = False
        if state in ("unchanged", "updated"):
            paths = (kind["fileSystemPath"], kind["dataRepositoryPath"])
            moved = [p for p, _ in diff.changes.get(logical, []) if p and p[0] in paths]
            in_place = bool(moved) and kind.get("pathUpdate") == "delete-then-create"
        elif state == "replaced":
            # The schema may declare that the old resource goes first (default: the replacement is created first).
            schema = diff.schemas.schema(diff.region, resource["Type"]) or {}
            in_place = schema.get("replacementStrategy") == "delete_then_create"
        sides = []
        if state in ("deleted", "replaced") or in_place:
            sides.append(("old", diff.before.resources[logical]))
        if state in ("added", "replaced") or in_place:
            sides.append(("new", diff.after.resources[logical]))
        if state in ("unchanged", "updated") and not in_place:
            sides.append(("both", diff.after.resources[logical]))
        for generation, res in sides:
            props = res.get("Properties", {})
            new = generation != "old"
            states.append((logical, generation,
                           render(props.get(kind["fileSystemId"]), diff, new),
                           render(props.get(kind["fileSystemPath"], "/"), diff, new),
                           render(props.get(kind["dataRepositoryPath"], ""), diff, new), in_place))
    findings, seen = [], set()
    for i, s in enumerate(states):
        for t in states[i + 1:]:
            # Pairs of deployed states existed before the update; an association moved in place never meets
            # its own old state.
            if s[2] != t[2] or "new" not in (s[1], t[1]) or (s[0] == t[0] and s[5]):
                continue
            if s[0] != t[0] and not coexist(s, t, deps):
                continue
            clash = [what for what, x, y in (("file-system path", s[3], t[3]), ("S3 location", s[4], t[4]))
                     if nests(x, y)]
            key = tuple(sorted((s[0], t[0]))) + tuple(clash)
            if clash and key not in seen:
                seen.add(key)
                findings.append(Finding("association-collision", diff.name, s[0] if s[1] != "old" else t[0],
                                        f"{describe(s)} and {describe(t)} exist at the same moment of the update on "
                                        f"file system {s[2]} with the same or nested {' and '.join(clash)}: FSx "
                                        "refuses the second (a unique, non-overlapping file-system path and a unique "
                                        "S3 location per association)"))
    findings += retained
    by_fs = {}
    for s in states:
        by_fs.setdefault(s[2], []).append(s)
    for fs, group in by_fs.items():
        at_once = [s for s in group if not (s[1] == "old" and s[5])]
        if len(at_once) > limit:
            findings.append(Finding("association-limit", diff.name, group[0][0],
                                    f"{len(at_once)} associations of file system {fs} exist at one moment of the "
                                    f"update (replaced and deleted ones are removed last); FSx allows {limit}"))
    return findings


def coexist(s, t, deps):
    """Whether two states of different associations can exist at one moment. The old state of an association
    updated in place (delete, then create) ends when its update runs, which is before the creation or update of
    anything that depends on it."""
    for x, y in ((s, t), (t, s)):
        if x[5] and x[1] == "old" and y[1] != "old" and x[0] in deps.get(y[0], ()):
            return False
    return True


def describe(state):
    logical, generation, _, path, location, _ = state
    label = {"old": "the deployed", "new": "the new", "both": "the unchanged"}[generation]
    return f"{label} {logical} ({path} <- {location})"


def rewarm_findings(diff, expect):
    """Re-warm: a Custom::LustrePreload whose WarmKey changes (after propagation), or that is created anew."""
    rewarmed, findings = [], []
    for logical, state in diff.states.items():
        resource = (diff.after.resources.get(logical) if diff.after else None)
        if not resource or resource["Type"] != "Custom::LustrePreload":
            continue
        changes = diff.changes.get(logical, [])
        warm = state in ("added", "replaced") or any(p[:1] == ["WarmKey"] for p, _ in changes)
        data_changed = state in ("added", "replaced") or any(
            p[:1] in (["FileSystemId"], ["DataLocations"]) for p, _ in changes)
        rewarmed.append(warm)
        wanted = expect if expect in ("yes", "no") else ("yes" if data_changed else None)
        why = next((w for p, w in changes if p[:1] == ["WarmKey"]), state)
        if wanted == "yes" and not warm:
            findings.append(Finding("rewarm-missing", diff.name, logical, "the change should re-warm the cache "
                                    + ("(declared)" if expect == "yes" else "(what is warmed changed)")
                                    + " but WarmKey does not change: training reads a cold or stale cache"))
        if wanted == "no" and warm:
            findings.append(Finding("rewarm-unexpected", diff.name, logical, "the change should not re-warm the "
                                    f"cache (declared) but WarmKey changes ({why}): a billed worker and a wait "
                                    "for every held-back training execution"))
    return rewarmed, findings


def property_at(resource, path):
    """The value at a '/'-separated property path (e.g. LustreConfiguration/PerUnitStorageThroughput), or MISSING."""
    value = resource.get("Properties", {})
    for part in path.split("/"):
        if not isinstance(value, dict) or part not in value:
            return MISSING
        value = value[part]
    return value


def emptied_buckets(resources):
    """Buckets that aws-cdk-lib's autoDeleteObjects empties before CloudFormation deletes them."""
    return {r.get("Properties", {}).get("BucketName", {}).get("Ref") for r in resources.values()
            if r["Type"] == "Custom::S3AutoDeleteObjects" and isinstance(r.get("Properties", {}).get("BucketName"), dict)}


def stack_findings(diff, schemas, stateful_types, grow_only, fixed_at_creation):
    findings = []
    emptied = emptied_buckets(diff.after.resources) if diff.after else set()
    for logical, state in diff.states.items():
        if state == "added" and diff.after.resources[logical]["Type"] == "AWS::S3::Bucket":
            policy = diff.after.resources[logical].get("DeletionPolicy", "Delete")
            if policy != "Retain" and logical not in emptied:
                findings.append(Finding("rollback-undeletable", diff.name, logical, f"a bucket created with "
                                        f"DeletionPolicy {policy}: if the deploy fails and rolls back, CloudFormation "
                                        "deletes it ('If the stack operation that created the resource is rolled "
                                        "back, CloudFormation deletes the resource', DeletionPolicy "
                                        "RetainExceptOnCreate), and S3 deletes a bucket only after 'All objects "
                                        "(including all object versions and delete markers)' are deleted (S3 API, "
                                        "DeleteBucket): once an object arrived (an upload, an access log), the "
                                        "rollback ends in ROLLBACK_FAILED. Retain it, or empty it first "
                                        "(autoDeleteObjects)"))
        if state == "updated":
            before, after = diff.before.resources[logical], diff.after.resources[logical]
            for prop in grow_only.get(after["Type"], {}).get("properties", []):
                old, new = property_at(before, prop), property_at(after, prop)
                if isinstance(old, (int, float)) and isinstance(new, (int, float)) and new < old:
                    findings.append(Finding("shrink", diff.name, logical, f"{prop} shrinks from {old} to {new}: "
                                            f"{after['Type']} only grows it, so the update fails"))
            for prop in fixed_at_creation.get(after["Type"], {}).get("paths", []):
                old, new = property_at(before, prop), property_at(after, prop)
                if (old is MISSING) != (new is MISSING):
                    findings.append(Finding("fixed-at-creation", diff.name, logical, f"{prop} is "
                                            f"{'added' if old is MISSING else 'removed'}: {after['Type']} takes or "
                                            "drops it only when the resource is created, so the update fails"))
            mode = "LustreConfiguration/MetadataConfiguration/Mode"
            if after["Type"] == "AWS::FSx::FileSystem" and property_at(before, mode) == "USER_PROVISIONED" \
                    and property_at(after, mode) == "AUTOMATIC":
                iops = property_at(before, "LustreConfiguration/MetadataConfiguration/Iops")
                capacity = property_at(after, "StorageCapacity")
                findings.append(Finding("metadata-automatic", diff.name, logical, "MetadataConfiguration switches "
                                        f"from USER_PROVISIONED ({iops} IOPS) to AUTOMATIC at {capacity} GiB: 'If "
                                        "you request to switch from USER_PROVISIONED to AUTOMATIC mode and the "
                                        "current Metadata IOPS value is greater than the automated default, FSx for "
                                        "Lustre rejects the request' (FSx API, UpdateFileSystemLustreMetadata"
                                        "Configuration.Mode): grow the capacity first, or keep the IOPS"))
            if after["Type"] == "AWS::S3::Bucket" and any(path[:1] == ["NotificationConfiguration"]
                                                          for path, _ in diff.changes.get(logical, [])):
                findings.append(Finding("notifications-rewritten", diff.name, logical, "the bucket's "
                                        "NotificationConfiguration changes: CloudFormation writes the whole "
                                        "configuration (aws-cdk#29653), which removes the notification FSx adds "
                                        "for a data repository association's auto-import (FSx guide: a deleted "
                                        "or changed notification makes the association MISCONFIGURED)"))
        if state in ("updated", "replaced") and is_custom(diff.after.resources[logical]["Type"]) and any(
                path[:1] == ["ServiceToken"] for path, _ in diff.changes.get(logical, [])):
            why = next(w for path, w in diff.changes[logical] if path[:1] == ["ServiceToken"])
            findings.append(Finding("service-token-changed", diff.name, logical, f"its ServiceToken changes ({why}): "
                                    "CloudFormation does not update a custom resource's ServiceToken ('Updates aren't "
                                    "supported', AWS::CloudFormation::CustomResource; create-only in its registry "
                                    "schema) and fails the update with 'Modifying service token is not allowed': "
                                    "keep the function the token names (its logical id), updated in place"))
            continue
        if state not in ("replaced", "deleted"):
            continue
        resource = diff.before.resources[logical]
        rtype = resource["Type"]
        why = "; ".join(f"{p} <- {w}" for p, w in diff.replacements.get(logical, [])[:3])
        if rtype == "AWS::FSx::FileSystem" and state == "replaced" and \
                resource.get("Properties", {}).get("FileSystemType") == "LUSTRE":
            findings.append(Finding("lustre-replaced", diff.name, logical, "the Lustre file system is replaced "
                                    f"({why}): a new, cold file system, new associations, a new mount name; only "
                                    "a change that needs a new file system may do that (acknowledge it, with why)"))
            continue
        policy = resource.get("DeletionPolicy") if state == "deleted" else resource.get("UpdateReplacePolicy",
                                                                                         resource.get("DeletionPolicy"))
        if rtype in stateful_types or policy in RETAINING:
            attribute = "DeletionPolicy" if state == "deleted" else "UpdateReplacePolicy"
            reason = f"a stateful {rtype}" + (f" with {attribute} {policy}" if policy in RETAINING else "")
            findings.append(Finding(f"stateful-{state}", diff.name, logical, f"{reason} is {state}"
                                    + (f" ({why})" if why else "") + ": its data is lost or left behind"))
    return findings


def cross_stack_findings(world):
    findings = []
    for export, why in world.changed_exports.items():
        users = [s for s in world.importers(export, world.before)]
        producer = next(n for n, d in world.diffs.items() if d.before and any(
            World.literal(o.get("Export", {}).get("Name"), n) == export for o in d.before.outputs.values()))
        users = [u for u in users if u != producer]
        if users:
            findings.append(Finding("export-changed", producer, export, f"{why}; imported by {', '.join(users)}: "
                                    "CloudFormation refuses to change or remove an export another stack imports, "
                                    f"so the update of {producer} fails"))
    for name, diff in world.diffs.items():
        for (stack, output), why in diff.stale:
            findings.append(Finding("stale-stack-output", name, f"{stack}.{output}", f"{why}; {name} reads it with "
                                    "Fn::GetStackOutput but its template is unchanged, so it is not deployed again "
                                    "and keeps the old value (a weak reference is not updated or notified)"))
    return findings


# ------------------------------------------------------------------------------------------------ report
def rehearse(change, before_dir, after_dir, config, schemas, expect=None, must_change=False):
    world = World(read_assembly(before_dir), read_assembly(after_dir), schemas)
    stateful = set(config.get("statefulTypes", [])) | set(json.loads(
        (CFN_LINT_DATA / "AdditionalSpecs" / "StatefulResources.json").read_text())["ResourceTypes"])
    kinds = config.get("associationTypes", {})
    counts = {"added": 0, "updated": 0, "replaced": 0, "deleted": 0, "custom": 0}
    replacements, findings, rewarmed, details = [], [], [], []
    for name, diff in world.diffs.items():
        for logical, state in diff.states.items():
            if state in counts:
                counts[state] += 1
            resource = (diff.after.resources if diff.after and logical in diff.after.resources
                        else diff.before.resources)[logical]
            if state == "updated" and is_custom(resource["Type"]):
                counts["custom"] += 1
            if state == "replaced":
                props = sorted({p.replace("/properties/", "") for p, _ in diff.replacements.get(logical, [])})
                replacements.append(f"{name}/{logical} <- {', '.join(props)}")
            if state != "unchanged":
                changes = diff.changes.get(logical, [])
                where = "/".join(map(str, changes[0][0])) if changes else ""
                details.append(f"{name}/{logical} ({resource['Type']}): {state}"
                               + (f": {where or '(properties)'} <- {changes[0][1]}" if changes else ""))
        findings += stack_findings(diff, schemas, stateful, config.get("growOnly", {}),
                                   config.get("fixedAtCreation", {}))
        findings += association_findings(diff, kinds, config.get("associationLimit", {}).get("perFileSystem", 8))
        warm, found = rewarm_findings(diff, expect)
        rewarmed += warm
        findings += found
    findings += cross_stack_findings(world)
    if must_change and not any(d.template_changed for d in world.diffs.values()):
        findings.append(Finding("no-change", "-", "-", "the change changed no template: the setting it changes "
                                "is not wired into the app"))
    states = {f"{n}/{l}": s for n, d in world.diffs.items() for l, s in d.states.items() if s != "unchanged"}
    return {"change": change, **counts, "rewarm": any(rewarmed), "replacements": replacements, "states": states,
            "resources": details, "findings": [f.as_json() for f in findings]}


def acknowledge(report, config):
    acks = config.get("acknowledged", [])
    used = set()
    for finding in report["findings"]:
        for i, ack in enumerate(acks):
            if (ack.get("change"), ack.get("stack"), ack.get("resource"), ack.get("finding")) == \
                    (report["change"], finding["stack"], finding["resource"], finding["finding"]):
                finding["acknowledged"] = ack["reason"]
                used.add(i)
    return used


def expect_findings(report, expected):
    """Marks the findings of the kinds a change must report as expected; a kind it did not report is a failure."""
    for finding in report["findings"]:
        if finding["finding"] in expected:
            finding["expected"] = True
    for kind in expected:
        if not any(f["finding"] == kind for f in report["findings"]):
            report["findings"].append(Finding("expected-missing", "-", "-", f"the change must report {kind}, which "
                                              "the rehearsal did not find").as_json())


def print_table(reports, out=sys.stdout):
    header = ("change", "added", "updated", "replaced", "deleted", "custom upd.", "re-warm",
              "replaced resources (create-only property)")
    width = max([len(header[0])] + [len(r["change"]) for r in reports])
    line = f"{{:<{width}}} {{:>5}} {{:>7}} {{:>8}} {{:>7}} {{:>11}} {{:>7}}  {{}}"
    print(line.format(*header), file=out)
    for r in reports:
        print(line.format(r["change"], r["added"], r["updated"], r["replaced"], r["deleted"], r["custom"],
                          "yes" if r["rewarm"] else "no", "; ".join(r["replacements"]) or "-"), file=out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", default=str(Path(__file__).resolve().parent / "rehearse.json"))
    parser.add_argument("--json", help="also write the report as JSON to this file")
    parser.add_argument("--catalogue", help="a directory with catalogue.json (changes with before/after directories)")
    parser.add_argument("--name", help="the change's name in the table (default: AFTER_DIR)")
    parser.add_argument("--expect-rewarm", choices=("yes", "no"), help="whether the change should re-warm")
    parser.add_argument("--details", action="store_true", help="also list every resource that changes, and why")
    parser.add_argument("dirs", nargs="*", metavar="DIR")
    args = parser.parse_args()
    config = json.loads(Path(args.config).read_text())
    schemas = Schemas(config)
    if args.catalogue:
        root = Path(args.catalogue)
        changes = json.loads((root / "catalogue.json").read_text())["changes"]
        jobs = [(c["id"], root / c["before"], root / c["after"], c.get("rewarm"), c.get("mustChange", True),
                 c.get("expectedFindings", [])) for c in changes]
    elif len(args.dirs) == 2:
        jobs = [(args.name or args.dirs[1], Path(args.dirs[0]), Path(args.dirs[1]), args.expect_rewarm, False, [])]
    else:
        parser.error("give BEFORE_DIR AFTER_DIR, or --catalogue DIR")
    reports, used = [], set()
    for change, before, after, expect, must_change, expected in jobs:
        report = rehearse(change, before, after, config, schemas, expect, must_change)
        used |= acknowledge(report, config)
        expect_findings(report, expected)
        reports.append(report)
    print_table(reports)
    if args.details:
        for r in reports:
            print(f"\n{r['change']}:")
            for line in r["resources"]:
                print(f"  {line}")
    failures = [(r["change"], f) for r in reports for f in r["findings"]
                if "acknowledged" not in f and "expected" not in f]
    kept = [(r["change"], f) for r in reports for f in r["findings"] if "acknowledged" in f]
    for change, f in kept:
        print(f"acknowledged: {change}: {f['stack']}/{f['resource']}: {f['finding']}: {f['acknowledged']}")
    for change, f in [(r["change"], f) for r in reports for f in r["findings"] if "expected" in f]:
        print(f"expected: {change}: {f['stack']}/{f['resource']}: {f['finding']}: {f['message']}")
    for i, ack in enumerate(config.get("acknowledged", [])):
        if i not in used and (not args.catalogue or ack.get("change") in {j[0] for j in jobs}):
            print(f"note: acknowledgement not needed any more: {ack}")
    print(f"\n{len(failures)} failure(s)" + (":" if failures else ""))
    for change, f in failures:
        print(f"FAIL {change}: {f['stack']}/{f['resource']}: {f['finding']}: {f['message']}")
    if args.json:
        Path(args.json).write_text(json.dumps({"changes": reports}, indent=1))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
