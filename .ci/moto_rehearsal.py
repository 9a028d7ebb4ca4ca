"""The AWS emulator of the rehearsal tests: moto's server in this process, and a control channel on stdin.

Started by the Java tests (MotoServer). Prints ``{"port": N}`` once moto listens on 127.0.0.1:N, with Step
Functions executing state machines (moto forwards their service tasks to this same server). Then reads one JSON
command per line and answers one JSON line:

- ``{"cmd": "resolve", "templates": [PATH, ...]}``: the templates with intrinsics resolved (cfn_resolve.py).
- ``{"cmd": "script-status", "job": NAME, "statuses": [S, ...]}``: the next DescribeTrainingJob calls of job NAME
  report these statuses in turn, then the last one (moto's jobs are Completed at once and cannot be stopped).
- ``{"cmd": "script-jobs", "jobs": [{"statuses": [S, ...], "reason": R}, ...]}``: the next jobs created, in order,
  report these statuses to DescribeTrainingJob as ``script-status`` does, and FailureReason R (optional).
- ``{"cmd": "script-create", "answers": [{"error": CODE, "message": M, "status": N, "created": B}, ...]}``: the next
  CreateTrainingJob calls, in order, are answered with error CODE (HTTP status N, default 400); with ``created``
  true the job is created first ("created but answered with an error"). ``{}`` answers normally. A second create
  of an existing name is refused with ResourceInUse, as SageMaker does.
- ``{"cmd": "record-only", "stateMachineArn": ARN}``: executions of this state machine are recorded, RUNNING,
  but not interpreted (for the JSONata preload state machine: moto 5.2.1 cannot evaluate JSONata). StopExecution
  aborts them; ``script-execution`` gives them any other status; their history is their start (no state ran).
- ``{"cmd": "script-execution", "arn": ARN, "statuses": [S, ...], "output": JSON}``: the next DescribeExecution
  calls of execution ARN (also those a state machine makes) report these statuses in turn, then the last one;
  a SUCCEEDED one has ``output`` (optional).
- ``{"cmd": "execution-describes", "arn": ARN}``: ``count``, the DescribeExecution calls of ARN since it was
  scripted.
- ``{"cmd": "forget-execution", "arn": ARN}``: the execution's record is gone, as Step Functions removes it 90 days
  after it ended (DescribeExecution then raises ExecutionDoesNotExist).
- ``{"cmd": "await-execution", "arn": ARN, "timeout": SECONDS}``: waits until the execution ends; its status,
  ``failure`` (the execution's error) and cause.
- ``{"cmd": "training-requests"}``: every CreateTrainingJob request body the server received, in order, and the
  problems botocore's SageMaker model finds in them (sagemaker_model.py); ``created``, the names of the jobs created.

A command that fails answers ``{"commandError": MESSAGE}``. End of input stops the server.

moto 5.2.1's Step Functions interpreter has gaps that the training state machines meet; each is closed here,
narrowly, with the behaviour the Step Functions documentation describes (see the functions below): workflow
variables and JSONata (it evaluates them through a JSONata engine it does not ship: plain ``$name`` references are
evaluated here, any other expression by jsonata, the reference implementation, from .ci/node_modules), the Assign
of a Choice rule (it evaluates it against the rule's boolean instead of the state input), AWS SDK integrations of
APIs whose members are camelCase (it sends PascalCase parameters unchanged and returns camelCase results) and
their error names (``sagemaker.sagemakerException`` instead of ``SageMaker.<code>Exception``, ``ssm.`` instead of
``Ssm.``), and the optimised
SageMaker integration (it forwards createTrainingJob but names every error States.Runtime).

The tests run ``createTrainingJob.sync`` as ``createTrainingJob`` (moto has no .sync); the rehearsal makes that task
end as .sync does: it follows the job with DescribeTrainingJob until it ends, succeeds with the description when it
completed, and fails with States.TaskFailed (the description as cause) when it failed or was stopped. AWS's .sync
cause is not documented; the state machines read the job's FailureReason with DescribeTrainingJob themselves.
"""
import datetime
import json
import logging
import os
import re
import socket
import subprocess
import threading
import sys
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cfn_resolve  # noqa: E402
import sagemaker_model  # noqa: E402

import boto3  # noqa: E402
import botocore.session  # noqa: E402
from botocore.exceptions import ClientError  # noqa: E402
from moto.core.exceptions import JsonRESTError  # noqa: E402
from moto.sagemaker.models import SageMakerModelBackend, sagemaker_backends  # noqa: E402
from moto.sagemaker.responses import SageMakerResponse  # noqa: E402
from moto.server import ThreadedMotoServer  # noqa: E402
from moto.stepfunctions.models import StepFunctionBackend  # noqa: E402
from moto.stepfunctions.parser.api import HistoryEventType, TaskFailedEventDetails  # noqa: E402
from moto.stepfunctions.parser.asl.component.common.error_name.custom_error_name import CustomErrorName  # noqa: E402
from moto.stepfunctions.parser.asl.component.common.error_name.failure_event import FailureEvent  # noqa: E402
from moto.stepfunctions.parser.asl.component.common.error_name.states_error_name import StatesErrorName  # noqa: E402
from moto.stepfunctions.parser.asl.component.common.error_name.states_error_name_type import (  # noqa: E402
    StatesErrorNameType,
)
from moto.stepfunctions.parser.asl.component.state.choice.choice_rule import ChoiceRule  # noqa: E402
from moto.stepfunctions.parser.asl.component.state.exec.state_task.service import (  # noqa: E402
    state_task_service_aws_sdk,
)
from moto.stepfunctions.parser.asl.component.state.exec.state_task.service.state_task_service_aws_sdk import (  # noqa: E402,E501
    StateTaskServiceAwsSdk,
)
from moto.stepfunctions.parser.asl.component.state.exec.state_task.service.state_task_service_unsupported import (  # noqa: E402,E501
    StateTaskServiceUnsupported,
)
from moto.stepfunctions.parser.asl.eval.event.event_detail import EventDetails  # noqa: E402
from moto.stepfunctions.parser.asl.jsonata import jsonata as moto_jsonata  # noqa: E402
from moto.stepfunctions.parser.models import StepFunctionsParserBackend, stepfunctions_parser_backends  # noqa: E402

received = []
created = []
scripted_jobs = {}
next_jobs = []
create_answers = []
failure_reasons = {}
JSONATA = Path(__file__).resolve().parent / "jsonata-eval.js"
jsonata_process = None
jsonata_lock = threading.Lock()
scripted_executions = {}
record_only = set()

VARIABLE_DECLARATION = re.compile(r"\s*(\$[A-Za-z_][A-Za-z0-9_]*)\s*:=\s*")
VARIABLE_REFERENCE = re.compile(r"\$[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")


def record_create_training_job(original):
    """Records the request; answers as scripted (script-create); refuses a name in use as SageMaker does; gives the
    job created the next script of script-jobs."""
    def create_training_job(self):
        request = json.loads(self.body)
        received.append(request)
        name = request.get("TrainingJobName")
        answer = create_answers.pop(0) if create_answers else {}
        if name in self.sagemaker_backend.training_jobs:
            raise JsonRESTError("ResourceInUse", f"Training job names must be unique within an AWS account and "
                                f"region, and a training job with this name already exists ({name})")
        if answer.get("error") and not answer.get("created"):
            raise scripted_error(answer)
        response = original(self)
        created.append(name)
        if next_jobs:
            script = next_jobs.pop(0)
            scripted_jobs[name] = list(script.get("statuses") or ["Completed"])
            if script.get("reason") is not None:
                failure_reasons[name] = script["reason"]
        if answer.get("error"):
            raise scripted_error(answer)
        return response
    return create_training_job


def scripted_error(answer):
    error = JsonRESTError(answer["error"], answer.get("message", answer["error"]))
    error.code = answer.get("status", 400)
    return error


def scripted_describe_training_job(original):
    def describe_training_job(self, training_job_name):
        statuses = scripted_jobs.get(training_job_name)
        if statuses and training_job_name in self.training_jobs:
            status = statuses.pop(0) if len(statuses) > 1 else statuses[0]
            self.training_jobs[training_job_name].training_job_status = status
            if status in ("Failed", "Stopped") and training_job_name in failure_reasons:
                self.training_jobs[training_job_name].failure_reason = failure_reasons[training_job_name]
        return original(self, training_job_name)
    return describe_training_job


def evaluate_jsonata(expression):
    """Any JSONata expression but a plain variable reference: evaluated by jsonata (node, .ci/jsonata-eval.js)."""
    global jsonata_process
    with jsonata_lock:
        if jsonata_process is None:
            if not (JSONATA.parent / "node_modules" / "jsonata").is_dir():
                raise RuntimeError("JSONata needs .ci/node_modules: npm ci --prefix .ci")
            jsonata_process = subprocess.Popen(["node", str(JSONATA)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                               text=True, cwd=str(JSONATA.parent))
        jsonata_process.stdin.write(json.dumps({"expression": expression}) + "\n")
        jsonata_process.stdin.flush()
        answer = json.loads(jsonata_process.stdout.readline())
    if "error" in answer:
        raise moto_jsonata.JSONataException("UNKNOWN", answer["error"])
    return answer["value"]


class SyncJobEnded(Exception):
    """The job a rewritten createTrainingJob.sync task follows ended Failed or Stopped."""
    def __init__(self, description):
        super().__init__(json.dumps(description))
        self.description = description


def sagemaker_task_as_sync(original):
    """The optimised createTrainingJob (the tests' stand-in for .sync) follows the job until it ends: Completed
    succeeds with DescribeTrainingJob's answer, Failed or Stopped fails the task (SyncJobEnded)."""
    def eval_service_task(self, env, resource_runtime_part, normalised_parameters, state_credentials):
        original(self, env, resource_runtime_part, normalised_parameters, state_credentials)
        if self._get_boto_service_name() != "sagemaker" or self._get_boto_service_action() != "create_training_job":
            return
        env.stack.pop()
        backend = sagemaker_backends[cfn_resolve.DEFAULT_ACCOUNT][cfn_resolve.DEFAULT_REGION]
        while True:
            description = json.loads(json.dumps(backend.describe_training_job(normalised_parameters["TrainingJobName"]),
                                                default=str))
            if description["TrainingJobStatus"] == "Completed":
                env.stack.append(description)
                return
            if description["TrainingJobStatus"] in ("Failed", "Stopped"):
                raise SyncJobEnded(description)
    return eval_service_task


def sagemaker_error_names(original):
    """Errors of the optimised SageMaker integration as the Step Functions guide's SageMaker example names them: an
    error CreateTrainingJob models is SageMaker.<Code>Exception, any other SageMaker.AmazonSageMakerException, with
    the SDK's message ``... (Service: AmazonSageMaker; Status Code: N; Error Code: C; Request ID: R)``; a job that
    ended Failed or Stopped is States.TaskFailed."""
    modelled = {shape.name for shape in SDK_MODELS.get_service_model("sagemaker").operation_model(
        "CreateTrainingJob").error_shapes}

    def from_error(self, env, ex):
        if isinstance(ex, SyncJobEnded):
            return task_failed(self, env, "States.TaskFailed", json.dumps(ex.description))
        if isinstance(ex, ClientError) and self._get_boto_service_name() == "sagemaker":
            code = ex.response["Error"]["Code"]
            error = f"SageMaker.{code}Exception" if code in modelled else "SageMaker.AmazonSageMakerException"
            metadata = ex.response["ResponseMetadata"]
            cause = (f"{ex.response['Error'].get('Message', '')} (Service: AmazonSageMaker; Status Code: "
                     f"{metadata['HTTPStatusCode']}; Error Code: {code}; Request ID: {metadata.get('RequestId')})")
            return task_failed(self, env, error, cause)
        return original(self, env, ex)
    return from_error


def sdk_error_named_by_its_code(original):
    """AWS SDK integrations name an error ``ServiceName.ErrorName``, both PascalCase, with the suffix Exception
    (Step Functions guide, "AWS SDK service integrations"); moto names a service error by the client's exception
    class (``sagemaker.sagemakerException``): here by the error's code."""
    def normalise_exception_name(norm_service_name, ex):
        if isinstance(ex, ClientError):
            code = ex.response["Error"]["Code"]
            return f"{norm_service_name}.{code}" + ("" if code.endswith("Exception") else "Exception")
        return original(norm_service_name, ex)
    return staticmethod(normalise_exception_name)


def task_failed(task, env, error, cause):
    name = (StatesErrorName(typ=StatesErrorNameType.StatesTaskFailed) if error == "States.TaskFailed"
            else CustomErrorName(error))
    return FailureEvent(env=env, error_name=name, event_type=HistoryEventType.TaskFailed,
                        event_details=EventDetails(taskFailedEventDetails=TaskFailedEventDetails(
                            resource=task._get_sfn_resource(), resourceType=task._get_sfn_resource_type(),
                            error=error, cause=cause)))


def start_execution_without_copying_history(original):
    """moto 5.2.1 deep-copies the state machine, which reaches (through its backend) every machine's earlier
    executions, whose worker threads hold locks that cannot be copied: any execution after the first fails. The
    earlier executions are set aside during the call. Executions of a record-only state machine are recorded as
    moto does without its interpreter (RUNNING until stopped or scripted)."""
    def start_execution(self, state_machine_arn, name=None, execution_input=None, trace_header=None):
        if state_machine_arn in record_only:
            return StepFunctionBackend.start_execution(self, state_machine_arn, name, execution_input or "{}")
        earlier = {machine.arn: machine.executions for machine in self.state_machines}
        for machine in self.state_machines:
            machine.executions = []
        try:
            return original(self, state_machine_arn, name, execution_input, trace_header)
        finally:
            for machine in self.state_machines:
                machine.executions = earlier.get(machine.arn, []) + machine.executions
    return start_execution


def history_of_a_recorded_execution(original):
    """An execution of a record-only state machine was never interpreted: moto 5.2.1's interpreting backend has no
    history for it and fails (a 500). It answers what Step Functions records for an execution no state has run in:
    its start."""
    def get_execution_history(self, execution_arn):
        execution = self.describe_execution(execution_arn=execution_arn)
        if hasattr(execution, "to_history_output"):
            return original(self, execution_arn)
        return {"events": [{"timestamp": execution.start_date, "type": "ExecutionStarted", "id": 1,
                            "previousEventId": 0}]}
    return get_execution_history


def scripted_describe_execution(original):
    def describe_execution(self, execution_arn):
        execution = original(self, execution_arn)
        script = scripted_executions.get(execution_arn)
        if script:
            script["describes"] += 1
        if script and script["statuses"]:
            statuses = script["statuses"]
            execution.status = statuses.pop(0) if len(statuses) > 1 else statuses[0]
            ended = execution.status not in ("RUNNING", "PENDING_REDRIVE")
            execution.stop_date = datetime.datetime.now(datetime.timezone.utc) if ended else None
            execution.output = script.get("output") if execution.status == "SUCCEEDED" else None
        return execution
    return describe_execution


def evaluate_variable_reference(expression):
    """moto evaluates every ``$variable`` reference, also in JSONPath states, as the JSONata expression
    ``($a := <json>; $b := <json>; <reference>)`` with an engine it does not ship. This evaluates exactly that
    form: the declarations, then one reference ``$name`` or ``$name.field...``; anything else goes to jsonata, so no
    real JSONata is ever evaluated by a stand-in."""
    text = expression.strip()
    if not (text.startswith("(") and text.endswith(")")):
        return evaluate_jsonata(expression)
    body, bound, decoder = text[1:-1], {}, json.JSONDecoder()
    while True:
        declaration = VARIABLE_DECLARATION.match(body)
        if not declaration:
            break
        value, end = decoder.raw_decode(body, declaration.end())
        if body[end:end + 1] != ";":
            raise ValueError(f"malformed variable declaration in {expression}")
        bound[declaration.group(1)] = value
        body = body[end + 1:]
    reference = body.strip()
    if not VARIABLE_REFERENCE.fullmatch(reference) or reference.split(".")[0] not in bound:
        return evaluate_jsonata(expression)
    name, *fields = reference.split(".")
    value = bound[name]
    for field in fields:
        if not isinstance(value, dict) or field not in value:
            return evaluate_jsonata(expression)
        value = value[field]
    return value


def choice_rule_assigning_from_the_state_input(self, env):
    """A Choice rule that matches assigns its variables from the state's input (Step Functions guide, "Passing
    data between states with variables"); moto evaluates them against the rule's boolean result."""
    self.comparison.eval(env)
    if env.stack[-1] is not True:
        return
    matched = env.stack.pop()
    if self.assign:
        self.assign.eval(env=env)
    env.stack.append(matched)
    if self.output:
        self.output.eval(env=env)


SDK_MODELS = botocore.session.get_session()


def sdk_operation(task):
    action = task.resource.api_action
    return SDK_MODELS.get_service_model(task._get_boto_service_name()).operation_model(action[0].upper() + action[1:])


def sdk_parameters_as_the_api_names_them(self, parameters, boto_service_name=None, service_action_name=None):
    """AWS SDK integrations take parameters in PascalCase even where the API is camelCase (Step Functions guide,
    "AWS SDK service integrations"): mapped to the API's member names, as moto's optimised integrations do."""
    shape = sdk_operation(self).input_shape
    if shape is not None:
        self._to_boto_request(parameters, shape)


def sdk_result_in_pascal_case(self, response, boto_service_name=None, service_action_name=None):
    """...and return results with PascalCase member names; timestamps as ISO 8601 strings (JSON has no dates)."""
    shape = sdk_operation(self).output_shape
    if shape is not None:
        self._from_boto_response(response, shape)
    timestamps_as_text(response)


def timestamps_as_text(node):
    entries = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else []
    for key, value in list(entries):
        if isinstance(value, datetime.datetime):
            node[key] = value.isoformat()
        else:
            timestamps_as_text(value)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def await_execution(sfn, arn, timeout):
    deadline = time.monotonic() + timeout
    while True:
        execution = sfn.describe_execution(executionArn=arn)
        if execution["status"] != "RUNNING" or time.monotonic() > deadline:
            return {"status": execution["status"], "failure": execution.get("error"), "cause": execution.get("cause")}
        time.sleep(0.05)


def patch_moto():
    SageMakerResponse.create_training_job = record_create_training_job(SageMakerResponse.create_training_job)
    SageMakerModelBackend.describe_training_job = scripted_describe_training_job(
        SageMakerModelBackend.describe_training_job)
    StepFunctionsParserBackend.start_execution = start_execution_without_copying_history(
        StepFunctionsParserBackend.start_execution)
    StepFunctionBackend.describe_execution = scripted_describe_execution(StepFunctionBackend.describe_execution)
    StepFunctionsParserBackend.get_execution_history = history_of_a_recorded_execution(
        StepFunctionsParserBackend.get_execution_history)
    moto_jsonata._eval_jsonata = evaluate_variable_reference
    ChoiceRule._eval_body = choice_rule_assigning_from_the_state_input
    StateTaskServiceAwsSdk._normalise_parameters = sdk_parameters_as_the_api_names_them
    StateTaskServiceAwsSdk._normalise_response = sdk_result_in_pascal_case
    state_task_service_aws_sdk._SERVICE_ERROR_NAMES["sagemaker"] = "SageMaker"
    # "Both the service name and error name are in PascalCase" (Step Functions guide, AWS SDK integrations): Ssm.
    state_task_service_aws_sdk._SERVICE_ERROR_NAMES["ssm"] = "Ssm"
    StateTaskServiceAwsSdk._normalise_exception_name = sdk_error_named_by_its_code(
        StateTaskServiceAwsSdk._normalise_exception_name)
    StateTaskServiceUnsupported._eval_service_task = sagemaker_task_as_sync(StateTaskServiceUnsupported._eval_service_task)
    StateTaskServiceUnsupported._from_error = sagemaker_error_names(StateTaskServiceUnsupported._from_error)


def answer(command, sfn):
    if command["cmd"] == "resolve":
        return {"templates": [cfn_resolve.resolved(t) for t in cfn_resolve.load(command["templates"])]}
    if command["cmd"] == "script-status":
        scripted_jobs[command["job"]] = list(command["statuses"])
        return {}
    if command["cmd"] == "script-jobs":
        next_jobs.extend(command["jobs"])
        return {}
    if command["cmd"] == "script-create":
        create_answers.extend(command["answers"])
        return {}
    if command["cmd"] == "record-only":
        record_only.add(command["stateMachineArn"])
        return {}
    if command["cmd"] == "script-execution":
        output = command.get("output")
        scripted_executions[command["arn"]] = {"statuses": list(command["statuses"]), "describes": 0,
                                               "output": None if output is None else json.dumps(output)}
        return {}
    if command["cmd"] == "execution-describes":
        return {"count": scripted_executions[command["arn"]]["describes"]}
    if command["cmd"] == "forget-execution":
        backend = stepfunctions_parser_backends[cfn_resolve.DEFAULT_ACCOUNT][cfn_resolve.DEFAULT_REGION]
        for machine in backend.state_machines:
            machine.executions = [e for e in machine.executions if e.execution_arn != command["arn"]]
        scripted_executions.pop(command["arn"], None)
        return {}
    if command["cmd"] == "await-execution":
        return await_execution(sfn, command["arn"], command.get("timeout", 60))
    if command["cmd"] == "training-requests":
        return {"requests": received, "created": created, "problems": [
            f"{r.get('TrainingJobName')}: {p}" for r in received
            for p in sagemaker_model.validate("CreateTrainingJob", r)]}
    return {"commandError": f"unknown command {command['cmd']}"}


def main():
    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # no line per request
    patch_moto()
    port = free_port()
    os.environ["MOTO_PORT"] = str(port)  # where moto's Step Functions sends service tasks
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    endpoint = f"http://127.0.0.1:{port}"
    urllib.request.urlopen(urllib.request.Request(f"{endpoint}/moto-api/config", method="POST",
                                                  data=b'{"stepfunctions": {"execute_state_machine": true}}'))
    sfn = boto3.client("stepfunctions", endpoint_url=endpoint, region_name="us-east-1",
                       aws_access_key_id="test", aws_secret_access_key="test")
    print(json.dumps({"port": port}), flush=True)
    for line in sys.stdin:
        try:
            reply = answer(json.loads(line), sfn)
        except Exception as e:  # noqa: BLE001 - the test reads the error and fails with it
            reply = {"commandError": f"{type(e).__name__}: {e}"}
        print(json.dumps(reply), flush=True)
    server.stop()


if __name__ == "__main__":
    main()
