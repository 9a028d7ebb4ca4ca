"""The AWS emulator of the rehearsal tests: moto's server in this process, and a control channel on stdin.

Started by the Java tests (MotoServer). Prints ``{"port": N}`` once moto listens on 127.0.0.1:N, with Step
Functions executing state machines (moto forwards their service tasks to this same server). Then reads one JSON
command per line and answers one JSON line:

- ``{"cmd": "resolve", "templates": [PATH, ...]}``: the templates with intrinsics resolved (cfn_resolve.py).
- ``{"cmd": "script-status", "job": NAME, "statuses": [S, ...]}``: the next DescribeTrainingJob calls of job NAME
  report these statuses in turn, then the last one (moto's jobs are Completed at once and cannot be stopped).
- ``{"cmd": "await-execution", "arn": ARN, "timeout": SECONDS}``: waits until the execution ends; its status,
  ``failure`` (the execution's error) and cause.
- ``{"cmd": "training-requests"}``: every CreateTrainingJob request body the server received, in order, and the
  problems botocore's SageMaker model finds in them (sagemaker_model.py).

A command that fails answers ``{"commandError": MESSAGE}``. End of input stops the server.
"""
import json
import logging
import os
import socket
import sys
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cfn_resolve  # noqa: E402
import sagemaker_model  # noqa: E402

import boto3  # noqa: E402
from moto.sagemaker.models import SageMakerModelBackend  # noqa: E402
from moto.sagemaker.responses import SageMakerResponse  # noqa: E402
from moto.server import ThreadedMotoServer  # noqa: E402
from moto.stepfunctions.parser.models import StepFunctionsParserBackend  # noqa: E402

received = []
scripted = {}


def record_create_training_job(original):
    def create_training_job(self):
        received.append(json.loads(self.body))
        return original(self)
    return create_training_job


def scripted_describe_training_job(original):
    def describe_training_job(self, training_job_name):
        statuses = scripted.get(training_job_name)
        if statuses and training_job_name in self.training_jobs:
            status = statuses.pop(0) if len(statuses) > 1 else statuses[0]
            self.training_jobs[training_job_name].training_job_status = status
        return original(self, training_job_name)
    return describe_training_job


def start_execution_without_copying_history(original):
    """moto 5.2.1 deep-copies the state machine, which reaches (through its backend) every machine's earlier
    executions, whose worker threads hold locks that cannot be copied: any execution after the first fails. The
    earlier executions are set aside during the call."""
    def start_execution(self, *args, **kwargs):
        earlier = {machine.arn: machine.executions for machine in self.state_machines}
        for machine in self.state_machines:
            machine.executions = []
        try:
            return original(self, *args, **kwargs)
        finally:
            for machine in self.state_machines:
                machine.executions = earlier.get(machine.arn, []) + machine.executions
    return start_execution


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


def main():
    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # no line per request
    SageMakerResponse.create_training_job = record_create_training_job(SageMakerResponse.create_training_job)
    SageMakerModelBackend.describe_training_job = scripted_describe_training_job(
        SageMakerModelBackend.describe_training_job)
    StepFunctionsParserBackend.start_execution = start_execution_without_copying_history(
        StepFunctionsParserBackend.start_execution)
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
        command = json.loads(line)
        try:
            if command["cmd"] == "resolve":
                answer = {"templates": [cfn_resolve.resolved(t) for t in cfn_resolve.load(command["templates"])]}
            elif command["cmd"] == "script-status":
                scripted[command["job"]] = list(command["statuses"])
                answer = {}
            elif command["cmd"] == "await-execution":
                answer = await_execution(sfn, command["arn"], command.get("timeout", 60))
            elif command["cmd"] == "training-requests":
                answer = {"requests": received, "problems": [
                    f"{r.get('TrainingJobName')}: {p}" for r in received
                    for p in sagemaker_model.validate("CreateTrainingJob", r)]}
            else:
                answer = {"commandError": f"unknown command {command['cmd']}"}
        except Exception as e:  # noqa: BLE001 - the test reads the error and fails with it
            answer = {"commandError": f"{type(e).__name__}: {e}"}
        print(json.dumps(answer), flush=True)
    server.stop()


if __name__ == "__main__":
    main()
