"""Runs four independent validators on every template of one or more CDK output directories.

1. cfn-lint (AWS's CloudFormation linter): no errors; warnings only those kept in the config, with a reason.
2. AWS Control Tower proactive controls (cfn-guard rules from @cdklabs/cdk-validator-cfnguard): no failure
   outside the config's reasoned exceptions, each limited to the resources it names.
3. Amazon States Language: every state machine definition, resolved to JSON, passes asl-validator and
   @wmfs/statelint, each given the definition as the config's "asl" section says (statelint predates JSONata
   and workflow variables).
4. The API models: every CreateTrainingJob request the templates define (each JSONPath state machine's task,
   evaluated for one realistic execution, once per capacity attempt when a policy sets the instance type; the SSM request document; what a
   definition reads of a store of another stack at run time, from the store's publication as the templates deploy it) and every request of a preload's JSONata state
   machine (run by jsonata-run.js with the input its custom resource starts it with, every location holding data,
   and the first one holding none: the worker in the Warm state, FSx's import task, the S3 listings) validates against
   botocore's model, with realistic values in place of deploy-time tokens (cfn_resolve.py).

Usage: python3 validate.py --tools NODE_MODULES [--config FILE] CDK_OUT_DIR [CDK_OUT_DIR ...]
Prints a table per template and every problem; exits 1 if any validator fails.
"""
import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cfn_resolve  # noqa: E402
import sagemaker_model  # noqa: E402

CREATE_TRAINING_JOB = re.compile(r"^arn:aws[a-z-]*:states:::sagemaker:createTrainingJob(\.sync)?$")
CONTROL = re.compile(r"\[(CT\.[A-Z0-9]+\.PR\.\d+)\]")
EXECUTION_NAME = "a1b2c3d4-e5f6-4789-8abc-def012345678"
LAUNCH_NAME_SUFFIX = "-20261122-041503-a1b2"
# A store's publication (StorePublication) and the request document's placeholders for its members (DataStoreBindings).
PUBLICATION_PREFIXES = ("/training-data/stores/", "/training-data/networks/")
PLACEHOLDER = re.compile(r"\{\{DataStore:([A-Za-z0-9_./-]+):([A-Za-z]+)}}")


class Report:
    """Problems and counts per template."""

    def __init__(self, templates):
        self.rows = {t.path: {"lint": "", "guard": "", "asl": "", "sagemaker": ""} for t in templates}
        self.problems = []
        self.notes = []

    def fail(self, template, validator, message):
        self.problems.append(f"{template.path}: {validator}: {message}")


# ------------------------------------------------------------------------------------------------ cfn-lint
def run_cfn_lint(templates, config, report):
    kept = config.get("cfnLint", {}).get("keptWarnings", {})
    runner = "import sys; from cfnlint.runner import main; sys.exit(main())"  # the cfn-lint command's entry point
    out = subprocess.run([sys.executable, "-c", runner, "--format", "json", *[str(t.path) for t in templates]],
                         capture_output=True, text=True)
    if out.returncode not in (0, 2, 4, 6, 8, 10, 12, 14):
        raise SystemExit(f"cfn-lint did not run: {out.stderr.strip()}")
    findings = json.loads(out.stdout or "[]")
    for template in templates:
        mine = [f for f in findings if Path(f["Filename"]).resolve() == template.path.resolve()]
        errors = [f for f in mine if f["Level"] == "Error"]
        warnings = [f for f in mine if f["Level"] == "Warning"]
        kept_here = [f for f in warnings if f["Rule"]["Id"] in kept]
        for f in errors + [w for w in warnings if w not in kept_here]:
            where = "/".join(str(p) for p in f["Location"]["Path"])
            report.fail(template, "cfn-lint", f"{f['Rule']['Id']} {where}: {f['Message']}")
        kept_ids = sorted({f["Rule"]["Id"] for f in kept_here})
        report.rows[template.path]["lint"] = (f"{len(errors)} E, {len(warnings) - len(kept_here)} W"
                                              + (f" (+{len(kept_here)} kept {','.join(kept_ids)})" if kept_here else ""))


# ------------------------------------------------------------------------------------------------ Control Tower
def guard_failures(result):
    """(control, logical id) pairs of one cfn-guard file result."""
    pairs = set()
    for entry in result.get("not_compliant", []):
        controls, resources = set(), set()
        stack = [entry]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                for key, value in node.items():
                    if key == "custom_message" and isinstance(value, str):
                        controls.update(CONTROL.findall(value))
                    elif key == "path" and isinstance(value, str):
                        match = re.match(r"^/Resources/([^/]+)", value)
                        if match:
                            resources.add(match.group(1))
                    else:
                        stack.append(value)
            elif isinstance(node, list):
                stack.extend(node)
        for control in controls or {entry["Rule"]["name"]}:
            pairs.update((control, resource) for resource in resources or {"(template)"})
    return pairs


def log_destinations(template):
    """Buckets of this template that another bucket's server access logs go to."""
    targets = set()
    for resource in template.resources.values():
        if resource["Type"] == "AWS::S3::Bucket":
            target = resource.get("Properties", {}).get("LoggingConfiguration", {}).get("DestinationBucketName")
            if isinstance(target, dict) and "Ref" in target:
                targets.add(target["Ref"])
    return targets


def matches(template, logical, selector):
    """Whether a resource is one an exception names (see validate.json)."""
    resource = template.resources.get(logical, {})
    if selector == "log-destination-buckets":
        return logical in log_destinations(template)
    if resource.get("Type") != selector.get("type"):
        return False
    path = resource.get("Metadata", {}).get("aws:cdk:path", "")
    props = resource.get("Properties", {})
    for option in selector["anyOf"]:
        if "path" in option and re.search(option["path"], path):
            return True
        if "property" in option and isinstance(props.get(option["property"]), str) \
                and re.search(option["matches"], props[option["property"]]):
            return True
    return False


def run_control_tower(templates, config, tools, report):
    package = Path(tools) / "@cdklabs" / "cdk-validator-cfnguard"
    guard = package / "bin" / ("macos" if sys.platform == "darwin" else "ubuntu") / \
        ("aarch64" if os.uname().machine in ("arm64", "aarch64") else "x86_64") / "cfn-guard"
    args = [str(guard), "validate", "-r", str(package / "rules" / "control-tower" / "cfn-guard"),
            "-o", "json", "-S", "none", "-z"]
    for template in templates:
        args += ["-d", str(template.path)]
    out = subprocess.run(args, capture_output=True, text=True)
    if out.returncode not in (0, 19):
        raise SystemExit(f"cfn-guard did not run (exit {out.returncode}): {out.stderr.strip()}")
    results = {Path(r["name"]).resolve(): r for r in json.loads(out.stdout)}
    exceptions = config.get("controlTower", {}).get("exceptions", [])
    for template in templates:
        failures = sorted(guard_failures(results[template.path.resolve()]))
        excepted = [(c, r) for c, r in failures
                    if any(e["control"] == c and matches(template, r, e["resources"]) for e in exceptions)]
        for control, logical in failures:
            if (control, logical) not in excepted:
                path = template.resources.get(logical, {}).get("Metadata", {}).get("aws:cdk:path", logical)
                report.fail(template, "Control Tower", f"{control} fails on {path}")
        controls = sorted({c for c, _ in excepted})
        report.rows[template.path]["guard"] = (f"{len(failures) - len(excepted)} failed"
                                               + (f" (+{len(excepted)} excepted: {','.join(controls)})"
                                                  if excepted else ""))


# ------------------------------------------------------------------------------------------------ ASL
def state_machines(template, resolved):
    """(logical id, definition object) of every state machine."""
    for logical, resource in resolved["Resources"].items():
        if resource["Type"] != "AWS::StepFunctions::StateMachine":
            continue
        props = resource["Properties"]
        definition = props.get("Definition") or json.loads(props["DefinitionString"])
        yield logical, definition


def run_asl(templates, resolved, config, tools, report):
    definitions = {}
    for template in templates:
        for logical, definition in state_machines(template, resolved[template.path]):
            definitions[f"{template.path}#{logical}"] = definition
    counts = {t.path: {"machines": set(), "asl-validator": 0, "statelint": 0, "skipped": 0, "errors": 0}
              for t in templates}
    if definitions:
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump({"asl": config.get("asl", {}), "definitions": definitions}, f)
        env = dict(os.environ, NODE_PATH=str(tools))
        out = subprocess.run(["node", str(Path(__file__).with_name("asl-check.js")), f.name],
                             capture_output=True, text=True, env=env)
        os.unlink(f.name)
        if out.returncode != 0:
            raise SystemExit(f"asl-check.js did not run: {out.stderr.strip()}")
        for line in out.stdout.splitlines():
            result = json.loads(line)
            path, logical = result["name"].split("#")
            template = next(t for t in templates if str(t.path) == path)
            count = counts[template.path]
            count["machines"].add(logical)
            validator = result["validator"].split("@")[-2].split("/")[-1]
            if "skipped" in result:
                count["skipped"] += 1
                continue
            count[validator] += 1
            count["errors"] += len(result["errors"])
            for error in result["errors"]:
                report.fail(template, result["validator"], f"{logical}: {error}")
    for template in templates:
        count = counts[template.path]
        skipped = f" ({count['skipped']} JSONata not)" if count["skipped"] else ""
        report.rows[template.path]["asl"] = (f"{len(count['machines'])} machines: asl-validator "
                                             f"{count['asl-validator']}, statelint {count['statelint']}{skipped}; "
                                             f"{count['errors']} errors")


# ------------------------------------------------------------------------------------------------ SageMaker
class Evaluator:
    """Evaluates a JSONPath state's parameters whose names end in '.$' for one realistic execution (the context's
    execution name, States.UUID/Format, and workflow variables as a fresh execution assigns them). Anything else
    cannot be known without running the state machine and is reported. (JSONata state machines are run instead:
    jsonata-run.js.)"""

    VARIABLE = re.compile(r"^\$([A-Za-z_][A-Za-z0-9_]*)$")

    def __init__(self, definition, publications=None):
        self.uuids = (str(uuid.UUID(hashlib.sha256(f"uuid-{i}".encode()).hexdigest()[:32], version=4))
                      for i in range(1000))
        self.variables = {}
        self.data = {}
        self.read_stores(definition, publications or {})
        for name, expression in assignments(definition):
            if name not in self.variables:
                try:
                    self.variables[name] = self.value(expression)
                except ValueError:
                    pass  # assigned from the input (e.g. resumeFrom): another assignment gives the fresh run's

    def read_stores(self, definition, publications):
        """The state input after a bound definition read its stores (ReadDataStore<n>, each publication as deployed)
        and rendered its channels and subnets from them (BindDataStores)."""
        states = definition.get("States", {})
        for name, state in states.items():
            if name.startswith("ReadDataStore"):
                parameter = state["Parameters"]["Name"]
                if parameter not in publications:
                    raise ValueError(f"state {name} reads {parameter}, which no template of the run publishes")
                self.data[state["ResultPath"][2:]] = {"Document": publications[parameter]}
        if "BindDataStores" in states:
            self.data[states["BindDataStores"]["ResultPath"][2:]] = self.parameters(
                states["BindDataStores"]["Parameters"])

    def value(self, expression):
        expression = expression.strip()
        if expression == "$$.Execution.Name":
            return EXECUTION_NAME
        if expression.startswith("$.") and expression[2:].split(".")[0] in self.data:
            node = self.data
            for field in expression[2:].split("."):
                node = node[field]
            return node
        match = re.fullmatch(r"States\.Array\((.*)\)", expression, re.S)
        if match:
            return self.arguments(match.group(1))
        if expression == "States.UUID()":
            return next(self.uuids)
        variable = self.VARIABLE.fullmatch(expression)
        if variable and variable.group(1) in self.variables:
            return self.variables[variable.group(1)]
        match = re.fullmatch(r"States\.Format\((.*)\)", expression, re.S)
        if match:
            args = self.arguments(match.group(1))
            template, values = args[0], [str(v) for v in args[1:]]
            for v in values:
                template = template.replace("{}", v, 1)
            return template
        raise ValueError(f"cannot evaluate {expression!r} without running the state machine")

    def arguments(self, text):
        args, depth, quoted, current = [], 0, False, ""
        for ch in text:
            if ch == "'" and depth == 0:
                quoted = not quoted
            if ch in "(" and not quoted:
                depth += 1
            if ch in ")" and not quoted:
                depth -= 1
            if ch == "," and depth == 0 and not quoted:
                args.append(current)
                current = ""
            else:
                current += ch
        args.append(current)
        return [a.strip()[1:-1].replace("\\'", "'") if a.strip().startswith("'") else self.value(a) for a in args]

    def parameters(self, node):
        if isinstance(node, list):
            return [self.parameters(v) for v in node]
        if not isinstance(node, dict):
            return node
        out = {}
        for key, value in node.items():
            if key.endswith(".$"):
                out[key[:-2]] = self.value(value)
            else:
                out[key] = self.parameters(value)
        return out


def assignments(node):
    """(variable, expression) of every JSONPath Assign in a definition, in document order."""
    if isinstance(node, list):
        for value in node:
            yield from assignments(value)
    elif isinstance(node, dict):
        for key, value in node.items():
            if key == "Assign" and isinstance(value, dict):
                for name, expression in value.items():
                    if name.endswith(".$") and isinstance(expression, str):
                        yield name[:-2], expression
            else:
                yield from assignments(value)


def attempt_assignments(definition, parameters):
    """(state, values) for each state whose Assign sets, as a literal, a variable the task's parameters read (a capacity
    policy's NameTrainingJob and CapacityAttempt<n>: instance type, channels, subnets), so that each attempt's request
    is checked; [(None, {})] when no state does."""
    read = json.dumps(parameters)
    found = []
    for name, state in definition["States"].items():
        values = {k: v for k, v in state.get("Assign", {}).items() if not k.endswith(".$")}
        if any(f'"${k}"' in read for k in values):
            found.append((name, values))
    return found or [(None, {})]


def training_tasks(states):
    for name, state in states.items():
        if state.get("Type") == "Task" and CREATE_TRAINING_JOB.match(str(state.get("Resource", ""))):
            yield name, state
        for branch in state.get("Branches", []):
            yield from training_tasks(branch["States"])
        processor = state.get("ItemProcessor") or state.get("Iterator")
        if processor:
            yield from training_tasks(processor["States"])


def preload_executions(template, resolved):
    """State machine ARN to (name, input) of the executions its preload custom resource starts (PreloadExecution):
    the handler's name rule, the file system and the data locations, each with its S3 URI and ListObjectsV2 request."""
    executions = {}
    for logical, resource in resolved["Resources"].items():
        if resource["Type"] == "Custom::LustrePreload":
            props = resource["Properties"]
            locations = []
            for uri in props["DataLocations"]:
                bucket, _, prefix = uri[len("s3://"):].partition("/")
                locations.append({"Uri": uri, "Bucket": bucket, **({"Prefix": prefix, "StartAfter": prefix} if prefix
                                                                    else {})})
            executions[props["StateMachineArn"]] = (template.preload_execution_name(logical),
                                                    {"FileSystemId": props["FileSystemId"], "DataLocations": locations})
    return executions


def preload_scenarios(execution_input):
    """Task results of the runs checked: every location holds data, and (with several locations) the first holds
    none, so the worker gets fewer channels. FSx's import task succeeds, the worker completes."""
    found, none = {"KeyCount": 1, "Contents": [{"Key": "k"}]}, {"KeyCount": 0}
    common = {"fsx:createDataRepositoryTask": {"DataRepositoryTask": {"TaskId": "task-0123456789abcdef0",
                                                                        "Lifecycle": "PENDING"}},
              "fsx:describeDataRepositoryTasks": {"DataRepositoryTasks": [{"TaskId": "task-0123456789abcdef0",
                                                                           "Lifecycle": "SUCCEEDED"}]},
              "sagemaker:createTrainingJob.sync": {"TrainingJobStatus": "Completed"}}
    yield "every location holds data", {"s3:listObjectsV2": found, **common}
    count = len(execution_input["DataLocations"])
    if count > 1:
        yield "the first location holds no object", {"s3:listObjectsV2": {"sequence": [none] + [found] * (count - 1)},
                                                     **common}


def run_jsonata(definition, name, execution_input, results, tools):
    """The tasks one run of a JSONata state machine calls (jsonata-run.js), or a string saying why it did not run."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump({"definition": definition, "name": name, "input": execution_input, "results": results}, f)
    env = dict(os.environ, NODE_PATH=str(tools))
    out = subprocess.run(["node", str(Path(__file__).with_name("jsonata-run.js")), f.name], capture_output=True,
                         text=True, env=env)
    os.unlink(f.name)
    if out.returncode != 0:
        raise SystemExit(f"jsonata-run.js did not run: {out.stderr.strip()}")
    run = json.loads(out.stdout)
    if run["status"] != "SUCCEEDED":
        return f"the run ended {run['status']}: {run.get('error')}"
    return run["calls"]


AWS_SDK = re.compile(r"^arn:aws[a-z-]*:states:::aws-sdk:([a-z0-9]+):([A-Za-z0-9]+)$")
BOTOCORE_SERVICES = {"sfn": "stepfunctions"}


def api_request(resource, arguments):
    """(service, operation) of a task whose request botocore's model checks, or None."""
    if CREATE_TRAINING_JOB.match(resource):
        return "sagemaker", "CreateTrainingJob"
    sdk = AWS_SDK.match(resource)
    if sdk:
        action = sdk.group(2)
        return BOTOCORE_SERVICES.get(sdk.group(1), sdk.group(1)), action[0].upper() + action[1:]
    return None


def publications_of(resolved):
    """Every store and network publication the run's templates deploy: parameter name to its document."""
    found = {}
    for template in resolved.values():
        for resource in template.get("Resources", {}).values():
            props = resource.get("Properties", {})
            if resource["Type"] == "AWS::SSM::Parameter" and str(props.get("Name", "")).startswith(PUBLICATION_PREFIXES):
                found[props["Name"]] = json.loads(props["Value"])
    return found


def bound(document_text, publications):
    """The request document with each store placeholder replaced by the publication's member, as the launcher does."""
    def member(match):
        value = publications.get(match.group(1), {}).get(match.group(2))
        if value is None:
            raise ValueError(f"no template of the run publishes {match.group(2)} in {match.group(1)}")
        return value
    text = re.sub('"' + PLACEHOLDER.pattern + '"', lambda m: json.dumps(member(m)), document_text)
    return PLACEHOLDER.sub(lambda m: json.dumps(member(m))[1:-1], text)


def training_requests(template, resolved, tools, publications=None):
    """(description, service, operation, request) of every API request the template defines: each JSONPath state
    machine's CreateTrainingJob tasks, evaluated; every task request of a preload's JSONata state machine, run for each
    scenario; the SSM request document. What a definition reads of a store of another stack comes from the run's
    publications."""
    publications = publications or {}
    executions = preload_executions(template, resolved)
    for logical, definition in state_machines(template, resolved):
        if definition.get("QueryLanguage") == "JSONata":
            execution = executions.get(template.physical_id(logical))
            if execution is None:
                yield f"{logical}", "sagemaker", "CreateTrainingJob", \
                    "no preload custom resource starts this JSONata state machine: its input is unknown"
                continue
            for scenario, results in preload_scenarios(execution[1]):
                calls = run_jsonata(definition, execution[0], execution[1], results, tools)
                if isinstance(calls, str):
                    yield f"{logical} ({scenario})", "sagemaker", "CreateTrainingJob", calls
                    continue
                for call in calls:
                    api = api_request(call["resource"], call["arguments"])
                    if api:
                        yield f"{logical} state {call['state']} ({scenario})", api[0], api[1], call["arguments"]
            continue
        for state, task in training_tasks(definition["States"]):
            for attempt, values in attempt_assignments(definition, task.get("Parameters", {})):
                what = f"{logical} state {state}" + (f" as {attempt} sets it" if attempt else "")
                try:
                    evaluator = Evaluator(definition, publications)
                    evaluator.variables.update(values)
                    yield what, "sagemaker", "CreateTrainingJob", evaluator.parameters(task.get("Parameters", {}))
                except ValueError as e:
                    yield what, "sagemaker", "CreateTrainingJob", str(e)
    for logical, resource in resolved["Resources"].items():
        props = resource.get("Properties", {})
        if resource["Type"] == "AWS::SSM::Parameter":
            try:
                document = json.loads(bound(props.get("Value", ""), publications))
            except ValueError as e:
                if PLACEHOLDER.search(str(props.get("Value", ""))):
                    yield f"{logical} (SSM request document)", "sagemaker", "CreateTrainingJob", str(e)
                continue
            if isinstance(document, dict) and "AlgorithmSpecification" in document:
                # The launcher's rule: <prefix>-<yyyyMMdd-HHmmss>-<4 hex> (TrainingJobNames.timestamped).
                yield f"{logical} (SSM request document)", "sagemaker", "CreateTrainingJob", \
                    {"TrainingJobName": "launch" + LAUNCH_NAME_SUFFIX, **document}


def run_sagemaker(templates, resolved, tools, report):
    for template in templates:
        checked = problems = 0
        publications = publications_of(resolved)
        for what, service, operation, request in training_requests(template, resolved[template.path], tools,
                                                                   publications):
            checked += 1
            found = [request] if isinstance(request, str) else sagemaker_model.validate(operation, request, service)
            problems += len(found)
            for problem in found:
                report.fail(template, "API model", f"{what}: {problem}")
        report.rows[template.path]["sagemaker"] = f"{checked} requests, {problems} problems"


# ------------------------------------------------------------------------------------------------ main
def templates_of(directory):
    found = sorted(p for p in Path(directory).rglob("*.template.json")
                   if not any(part.startswith("asset.") for part in p.relative_to(directory).parts))
    if not found:
        raise SystemExit(f"{directory}: no *.template.json (is it a cdk.out directory?)")
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tools", required=True, help="node_modules with the pinned npm validators")
    parser.add_argument("--config", default=str(Path(__file__).with_name("validate.json")))
    parser.add_argument("dirs", nargs="+")
    args = parser.parse_args()
    config = json.loads(Path(args.config).read_text())

    templates, resolved = [], {}
    for directory in args.dirs:
        loaded = cfn_resolve.load(templates_of(directory))
        templates += loaded
        for template in loaded:
            resolved[template.path] = cfn_resolve.resolved(template)
    report = Report(templates)
    run_cfn_lint(templates, config, report)
    run_control_tower(templates, config, args.tools, report)
    run_asl(templates, resolved, config, args.tools, report)
    run_sagemaker(templates, resolved, args.tools, report)

    header = ("template", "cfn-lint", "Control Tower", "ASL (2 validators)", "API requests (botocore)")
    rows = [header] + [(str(p), r["lint"], r["guard"], r["asl"], r["sagemaker"]) for p, r in report.rows.items()]
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
    for problem in report.problems:
        print("FAIL " + problem)
    print(f"validate: {len(templates)} templates, " + (f"{len(report.problems)} problems" if report.problems
                                                         else "all validators pass"))
    return 1 if report.problems else 0


if __name__ == "__main__":
    sys.exit(main())
