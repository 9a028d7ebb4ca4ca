"""Resolves the intrinsic functions of synthesized CloudFormation templates to realistic deploy-time values.

Validators that check what a deployed stack would send (Amazon States Language, SageMaker API requests) need
the values CloudFormation fills in at deploy: bucket names, role ARNs, file-system ids, the Lustre mount name.
This module stands in for CloudFormation with values that have the real shape (a 12-digit account,
``fs-0123456789abcdef0``-style ids, mount name ``abcdefgh``, ``sg-``/``subnet-`` ids, ARNs), so that pattern
and length checks judge our rendering rather than a placeholder. Values are deterministic: the same template
always resolves the same way.

Supported: Ref (resources, parameters, pseudo parameters), Fn::GetAtt, Fn::Join, Fn::Sub, Fn::Select,
Fn::Split, Fn::GetAZs, Fn::If with Conditions (Fn::Equals/Not/And/Or/Condition), Fn::FindInMap, Fn::Base64,
and the cross-stack Fn::ImportValue and Fn::GetStackOutput (from the other templates given). Anything else
raises ``Unresolvable``.

Command line: ``python3 cfn_resolve.py TEMPLATE.json [OTHER.template.json ...]`` prints the resolved template.
"""
import base64
import hashlib
import json
import sys
import uuid
from pathlib import Path

DEFAULT_ACCOUNT = "123456789012"
DEFAULT_REGION = "us-east-1"
MOUNT_NAME = "abcdefgh"
NO_VALUE = object()


class Unresolvable(Exception):
    """An intrinsic or attribute this resolver has no realistic value for."""


def _hex(seed, digits):
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()[:digits]


class Template:
    """One template plus what it needs from its siblings (exports) to resolve."""

    def __init__(self, path, exports=None, outputs=None):
        self.path = Path(path)
        self.doc = json.loads(self.path.read_text())
        self.stack = self.path.name[: -len(".template.json")] if self.path.name.endswith(".template.json") \
            else self.path.stem
        self.resources = self.doc.get("Resources", {})
        self.parameters = self.doc.get("Parameters", {})
        self.conditions = self.doc.get("Conditions", {})
        self.mappings = self.doc.get("Mappings", {})
        self.exports = exports if exports is not None else {}
        self.outputs = outputs if outputs is not None else {}
        self.account, self.region = self._environment()

    def _environment(self):
        """The stack's account and Region from the cloud assembly's manifest (``aws://ACCOUNT/REGION``) when
        the stack is bound to one, else a realistic default."""
        manifest = self.path.parent / "manifest.json"
        account, region = DEFAULT_ACCOUNT, DEFAULT_REGION
        if manifest.exists():
            artifact = json.loads(manifest.read_text()).get("artifacts", {}).get(self.stack, {})
            env = artifact.get("environment", "")
            if env.startswith("aws://"):
                env_account, env_region = env[len("aws://"):].split("/", 1)
                account = env_account if env_account.isdigit() else account
                region = env_region if not env_region.startswith("unknown") else region
        return account, region

    # ---------------------------------------------------------------- physical names and attributes
    def _seed(self, logical):
        return f"{self.stack}/{logical}"

    def _name(self, logical, limit=64, lower=False):
        suffix = _hex(self._seed(logical), 12).upper()
        name = f"{self.stack}-{logical}"[: limit - 13] + "-" + suffix
        return name.lower() if lower else name

    def physical_id(self, logical):
        """What ``Ref`` returns for a resource of this template."""
        resource = self.resources[logical]
        rtype = resource["Type"]
        props = resource.get("Properties", {})
        h17 = _hex(self._seed(logical), 17)
        explicit = {
            "AWS::S3::Bucket": "BucketName", "AWS::IAM::Role": "RoleName", "AWS::Logs::LogGroup": "LogGroupName",
            "AWS::Lambda::Function": "FunctionName", "AWS::SSM::Parameter": "Name",
            "AWS::StepFunctions::StateMachine": "StateMachineName", "AWS::S3Express::DirectoryBucket": "BucketName",
        }
        if rtype in explicit and explicit[rtype] in props:
            name = self.resolve(props[explicit[rtype]])
            if rtype == "AWS::StepFunctions::StateMachine":
                return f"arn:aws:states:{self.region}:{self.account}:stateMachine:{name}"
            return name
        if rtype == "AWS::S3::Bucket":
            return self._name(logical, 63, lower=True)
        if rtype in ("AWS::IAM::Role", "AWS::IAM::Policy", "AWS::Lambda::Function", "AWS::IAM::ManagedPolicy"):
            return self._name(logical, 64)
        if rtype == "AWS::Logs::LogGroup":
            return f"{self.stack}-{logical}-{_hex(self._seed(logical), 12).upper()}"
        if rtype == "AWS::SSM::Parameter":
            return f"CFN-{logical}-{_hex(self._seed(logical), 12).upper()}"
        if rtype == "AWS::StepFunctions::StateMachine":
            return f"arn:aws:states:{self.region}:{self.account}:stateMachine:{logical}-{_hex(self._seed(logical), 12).upper()}"
        if rtype == "AWS::KMS::Key":
            return str(uuid.UUID(_hex(self._seed(logical), 32)))
        prefixed = {
            "AWS::EC2::VPC": "vpc-", "AWS::EC2::Subnet": "subnet-", "AWS::EC2::SecurityGroup": "sg-",
            "AWS::EC2::RouteTable": "rtb-", "AWS::EC2::VPCEndpoint": "vpce-", "AWS::EC2::FlowLog": "fl-",
            "AWS::EC2::InternetGateway": "igw-", "AWS::EC2::NatGateway": "nat-", "AWS::FSx::FileSystem": "fs-",
            "AWS::EFS::FileSystem": "fs-", "AWS::EFS::MountTarget": "fsmt-", "AWS::EC2::SecurityGroupIngress": "sgr-",
            "AWS::EC2::SecurityGroupEgress": "sgr-",
        }
        if rtype in prefixed:
            return prefixed[rtype] + h17
        if rtype == "Custom::LustrePreload":
            return self.preload_execution_name(logical)
        return f"{logical.lower()}-{_hex(self._seed(logical), 8)}"

    def preload_execution_name(self, logical):
        """The preload's execution, its physical id and its first worker's name: the handler's rule,
        ``<WorkerJobNamePrefix>-<8 hex of sha256(WarmKey)>-<12 hex of sha256(request)>``."""
        props = self.resources[logical]["Properties"]
        warm_key = self.resolve(props["WarmKey"])
        return f"{self.resolve(props['WorkerJobNamePrefix'])}-{hashlib.sha256(warm_key.encode()).hexdigest()[:8]}-" \
            f"{_hex(self._seed(logical) + '|request', 12)}"

    def preload_execution_arn(self, logical):
        """The preload's execution, on the preload's state machine (the handler's rule)."""
        state_machine = self.resolve(self.resources[logical]["Properties"]["StateMachineArn"])
        return state_machine.replace(":stateMachine:", ":execution:") + ":" + self.preload_execution_name(logical)

    def attribute(self, logical, attr):
        """What ``Fn::GetAtt [logical, attr]`` returns."""
        if logical not in self.resources:
            raise Unresolvable(f"Fn::GetAtt of unknown resource {logical}")
        resource = self.resources[logical]
        rtype = resource["Type"]
        props = resource.get("Properties", {})
        ref = self.physical_id(logical)
        a, r = self.account, self.region
        table = {
            ("AWS::S3::Bucket", "Arn"): lambda: f"arn:aws:s3:::{ref}",
            ("AWS::S3::Bucket", "DomainName"): lambda: f"{ref}.s3.amazonaws.com",
            ("AWS::S3::Bucket", "RegionalDomainName"): lambda: f"{ref}.s3.{r}.amazonaws.com",
            ("AWS::IAM::Role", "Arn"): lambda: f"arn:aws:iam::{a}:role/{ref}",
            ("AWS::IAM::Role", "RoleId"): lambda: "AROA" + _hex(self._seed(logical), 17).upper(),
            ("AWS::KMS::Key", "Arn"): lambda: f"arn:aws:kms:{r}:{a}:key/{ref}",
            ("AWS::KMS::Key", "KeyId"): lambda: ref,
            ("AWS::Logs::LogGroup", "Arn"): lambda: f"arn:aws:logs:{r}:{a}:log-group:{ref}:*",
            ("AWS::Lambda::Function", "Arn"): lambda: f"arn:aws:lambda:{r}:{a}:function:{ref}",
            ("AWS::StepFunctions::StateMachine", "Arn"): lambda: ref,
            ("AWS::StepFunctions::StateMachine", "Name"): lambda: ref.rsplit(":", 1)[1],
            ("AWS::SSM::Parameter", "Value"): lambda: self.resolve(props["Value"]),
            ("AWS::SSM::Parameter", "Type"): lambda: self.resolve(props.get("Type", "String")),
            ("AWS::EC2::VPC", "CidrBlock"): lambda: self.resolve(props.get("CidrBlock", "10.0.0.0/16")),
            ("AWS::EC2::VPC", "DefaultSecurityGroup"): lambda: "sg-" + _hex(self._seed(logical) + "/default", 17),
            ("AWS::EC2::VPC", "VpcId"): lambda: ref,
            ("AWS::EC2::Subnet", "SubnetId"): lambda: ref,
            ("AWS::EC2::Subnet", "AvailabilityZone"): lambda: self.resolve(props["AvailabilityZone"]),
            ("AWS::EC2::Subnet", "AvailabilityZoneId"): lambda: self.resolve(props["AvailabilityZoneId"])
                if "AvailabilityZoneId" in props else self.zone_id(self.resolve(props["AvailabilityZone"])),
            ("AWS::S3Express::DirectoryBucket", "Arn"): lambda: f"arn:aws:s3express:{r}:{a}:bucket/{ref}",
            ("AWS::EC2::SecurityGroup", "GroupId"): lambda: ref,
            ("AWS::FSx::FileSystem", "LustreMountName"): lambda: MOUNT_NAME,
            ("AWS::FSx::FileSystem", "DNSName"): lambda: f"{ref}.fsx.{r}.amazonaws.com",
            ("AWS::FSx::FileSystem", "ResourceARN"): lambda: f"arn:aws:fsx:{r}:{a}:file-system/{ref}",
            ("AWS::EFS::FileSystem", "FileSystemId"): lambda: ref,
            ("AWS::EFS::FileSystem", "Arn"): lambda: f"arn:aws:elasticfilesystem:{r}:{a}:file-system/{ref}",
            ("Custom::LustrePreload", "WorkerJobName"): lambda: ref,
            ("Custom::LustrePreload", "ExecutionArn"): lambda: self.preload_execution_arn(logical),
            ("Custom::LustrePreload", "Status"): lambda: "WARMED",
            ("Custom::LustrePreload", "EmptyLocations"): lambda: "",
            ("Custom::LustrePreload", "FilesWarmed"): lambda: "1500000",
            ("Custom::LustrePreload", "BytesWarmed"): lambda: "150000000000",
            ("Custom::LustrePreload", "Seconds"): lambda: "1800",
        }
        value = table.get((rtype, attr))
        if value is None:
            raise Unresolvable(f"no realistic value for Fn::GetAtt {logical}.{attr} ({rtype})")
        return value()

    @staticmethod
    def zone_id(zone_name):
        """A realistic zone ID for a zone name (us-east-1a -> use1-az1); the real mapping differs per account."""
        region, letter = zone_name[:-1], zone_name[-1]
        area, direction, number = region.split("-", 2)
        return f"{area}{direction[0]}{number}-az{ord(letter) - ord('a') + 1}"

    def pseudo(self, name):
        values = {
            "AWS::AccountId": self.account, "AWS::Region": self.region, "AWS::Partition": "aws",
            "AWS::URLSuffix": "amazonaws.com", "AWS::StackName": self.stack,
            "AWS::StackId": f"arn:aws:cloudformation:{self.region}:{self.account}:stack/{self.stack}/"
                            + str(uuid.UUID(_hex(self.stack, 32))),
            "AWS::NotificationARNs": [],
        }
        if name == "AWS::NoValue":
            return NO_VALUE
        if name not in values:
            raise Unresolvable(f"no value for pseudo parameter {name}")
        return values[name]

    def ref(self, name):
        if name.startswith("AWS::"):
            return self.pseudo(name)
        if name in self.parameters:
            if "Default" not in self.parameters[name]:
                raise Unresolvable(f"parameter {name} has no default")
            return self.parameters[name]["Default"]
        if name in self.resources:
            return self.physical_id(name)
        raise Unresolvable(f"Ref to unknown {name}")

    # ---------------------------------------------------------------- intrinsics
    def condition(self, name):
        return bool(self.resolve(self.conditions[name]))

    def resolve(self, node):
        """Returns ``node`` with every intrinsic function evaluated."""
        if isinstance(node, list):
            values = [self.resolve(v) for v in node]
            return [v for v in values if v is not NO_VALUE]
        if not isinstance(node, dict):
            return node
        if len(node) == 1:
            (key, arg), = node.items()
            if key == "Ref":
                return self.ref(arg)
            if key == "Condition" and isinstance(arg, str):
                return self.condition(arg)
            if key.startswith("Fn::"):
                return self._function(key, arg)
        values = {k: self.resolve(v) for k, v in node.items()}
        return {k: v for k, v in values.items() if v is not NO_VALUE}

    def _function(self, key, arg):
        if key == "Fn::GetAtt":
            logical, attr = arg if isinstance(arg, list) else arg.split(".", 1)
            return self.attribute(logical, self.resolve(attr))
        if key == "Fn::Join":
            separator, values = arg
            return separator.join(str(self._scalar(v)) for v in self.resolve(values))
        if key == "Fn::Sub":
            text, variables = (arg, {}) if isinstance(arg, str) else (arg[0], self.resolve(arg[1]))
            return self._sub(text, variables)
        if key == "Fn::Select":
            index, values = self.resolve(arg[0]), self.resolve(arg[1])
            return values[int(index)]
        if key == "Fn::Split":
            separator, text = arg
            return self.resolve(text).split(separator)
        if key == "Fn::GetAZs":
            region = self.resolve(arg) or self.region
            return [f"{region}a", f"{region}b", f"{region}c"]
        if key == "Fn::If":
            name, when_true, when_false = arg
            return self.resolve(when_true if self.condition(name) else when_false)
        if key == "Fn::Equals":
            left, right = self.resolve(arg[0]), self.resolve(arg[1])
            return left == right
        if key == "Fn::Not":
            return not self.resolve(arg[0])
        if key == "Fn::And":
            return all(self.resolve(v) for v in arg)
        if key == "Fn::Or":
            return any(self.resolve(v) for v in arg)
        if key == "Fn::FindInMap":
            name, top, second = (self.resolve(v) for v in arg[:3])
            return self.mappings[name][top][second]
        if key == "Fn::Base64":
            return base64.b64encode(str(self.resolve(arg)).encode()).decode()
        if key == "Fn::ImportValue":
            name = self.resolve(arg)
            if name not in self.exports:
                raise Unresolvable(f"Fn::ImportValue {name}: no template given exports it")
            return self.exports[name]()
        if key == "Fn::GetStackOutput":
            wanted = (self.resolve(arg["StackName"]), self.resolve(arg["OutputName"]))
            if wanted not in self.outputs:
                raise Unresolvable(f"Fn::GetStackOutput {wanted}: no template given has that output")
            return self.outputs[wanted]()
        raise Unresolvable(f"cannot evaluate {key}")

    def _scalar(self, value):
        if isinstance(value, (dict, list)):
            raise Unresolvable(f"not a scalar: {value}")
        return json.dumps(value) if isinstance(value, bool) else value

    def _sub(self, text, variables):
        out, i = [], 0
        while i < len(text):
            start = text.find("${", i)
            if start < 0:
                out.append(text[i:])
                break
            out.append(text[i:start])
            end = text.index("}", start)
            name = text[start + 2:end]
            if name.startswith("!"):
                out.append("${" + name[1:] + "}")
            elif name in variables:
                out.append(str(variables[name]))
            elif "." in name and not name.startswith("AWS::"):
                logical, attr = name.split(".", 1)
                out.append(str(self.attribute(logical, attr)))
            else:
                out.append(str(self.ref(name)))
            i = end + 1
        return "".join(out)


def load(paths):
    """Loads templates that may reference each other's outputs; returns them in the order given."""
    exports, outputs = {}, {}
    templates = [Template(p, exports, outputs) for p in paths]
    for template in templates:
        for name, output in template.doc.get("Outputs", {}).items():
            value = (lambda t, v: lambda: t.resolve(v))(template, output["Value"])
            outputs[(template.stack, name)] = value
            if "Export" in output:
                exports[template.resolve(output["Export"]["Name"])] = value
    return templates


def resolved(template):
    """The template's Resources and Outputs with every intrinsic evaluated (Rules and Conditions are not)."""
    doc = dict(template.doc)
    for section in ("Resources", "Outputs"):
        if section in doc:
            doc[section] = template.resolve(doc[section])
    return doc


if __name__ == "__main__":
    print(json.dumps(resolved(load(sys.argv[1:])[0]), indent=1))
