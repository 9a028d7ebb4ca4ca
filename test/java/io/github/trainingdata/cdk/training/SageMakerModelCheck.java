package io.github.trainingdata.cdk.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.Json;
import io.github.trainingdata.cdk.PythonTools;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Template;

/**
 * Checks the CreateTrainingJob requests of a synthesized stack against botocore's SageMaker model, as
 * {@code .ci/validate.py} does: {@code .ci/cfn_resolve.py} gives each deploy-time value a realistic value and
 * {@code .ci/sagemaker_model.py} validates the SSM request document (named as the launcher names a job) and any
 * extra requests the test renders. Skipped without Python's botocore and regex, except under {@code CI=true}.
 */
final class SageMakerModelCheck {
    private static final String CHECKER = String.join("\n",
            "import json, sys",
            "sys.path.insert(0, '.ci')",
            "import cfn_resolve, sagemaker_model",
            "template = cfn_resolve.load([sys.argv[1]])[0]",
            "resources = cfn_resolve.resolved(template)['Resources']",
            "extra = template.resolve(json.load(open(sys.argv[2])))",
            "problems, documents = [], 0",
            "for logical, resource in resources.items():",
            "    if resource['Type'] == 'AWS::SSM::Parameter':",
            "        try:",
            "            document = json.loads(resource['Properties'].get('Value', ''))",
            "        except ValueError:",
            "            continue",
            "        if isinstance(document, dict) and 'AlgorithmSpecification' in document:",
            "            documents += 1",
            "            request = {'TrainingJobName': 'launch-20261122-041503-a1b2', **document}",
            "            problems += [logical + ': ' + p for p in sagemaker_model.validate('CreateTrainingJob', request)]",
            "for i, request in enumerate(extra):",
            "    problems += ['request ' + str(i) + ': ' + p",
            "                 for p in sagemaker_model.validate('CreateTrainingJob', request)]",
            "print(json.dumps({'documents': documents, 'problems': problems}))");

    /**
     * Renders the request of each attempt of the training state machine: the Train task's parameters with the
     * variables that the naming state and each capacity attempt assign (instance type, channels, subnets).
     */
    private static final String ATTEMPTS = String.join("\n",
            "import json, sys",
            "sys.path.insert(0, '.ci')",
            "import cfn_resolve, sagemaker_model",
            "template = cfn_resolve.load([sys.argv[1]])[0]",
            "resources = cfn_resolve.resolved(template)['Resources']",
            "problems, requests = [], 0",
            "for logical, resource in resources.items():",
            "    if resource['Type'] != 'AWS::StepFunctions::StateMachine':",
            "        continue",
            "    states = json.loads(resource['Properties']['DefinitionString'])['States']",
            "    if 'Train' not in states:",
            "        continue",
            "    def fill(node, variables):",
            "        if isinstance(node, list):",
            "            return [fill(v, variables) for v in node]",
            "        if not isinstance(node, dict):",
            "            return node",
            "        out = {}",
            "        for k, v in node.items():",
            "            if k.endswith('.$'):",
            "                out[k[:-2]] = variables[v[1:]] if v.startswith('$') and v[1:] in variables else v",
            "            else:",
            "                out[k] = fill(v, variables)",
            "        return out",
            "    for name, state in states.items():",
            "        assign = state.get('Assign', {})",
            "        if state['Type'] == 'Pass' and 'trainingJobName.$' in assign:",
            "            variables = dict(assign, trainingJobName='resnet-a1b2c3d4-e5f6-4789-8abc-def012345678')",
            "            request = fill(states['Train']['Parameters'], variables)",
            "            requests += 1",
            "            problems += [name + ': ' + p for p in sagemaker_model.validate('CreateTrainingJob', request)]",
            "print(json.dumps({'requests': requests, 'problems': problems}))");

    /** Prints the value of each SSM parameter, deploy-time values resolved as {@code .ci/cfn_resolve.py} does. */
    private static final String PARAMETER_VALUES = String.join("\n",
            "import json, sys",
            "sys.path.insert(0, '.ci')",
            "import cfn_resolve",
            "template = cfn_resolve.load([sys.argv[1]])[0]",
            "resources = cfn_resolve.resolved(template)['Resources']",
            "print(json.dumps({logical: resource['Properties']['Value'] for logical, resource in resources.items()",
            "                  if resource['Type'] == 'AWS::SSM::Parameter'}))");

    private SageMakerModelCheck() {
    }

    /**
     * The values the stack's SSM parameters would have once deployed, each deploy-time value given a realistic value
     * as {@code .ci/cfn_resolve.py} does (the same values {@link #assertValid} checks with).
     *
     * @return the values by logical id
     */
    static Map<String, String> deployedParameterValues(Stack stack) {
        PythonTools.require("botocore, regex", "resolving deploy-time values");
        return (Map<String, String>) runPython(PARAMETER_VALUES, stack, List.of());
    }

    /**
     * Asserts that every attempt of the stack's training state machine ({@code expected} of them: the first and the
     * capacity policy's) sends a request the model accepts.
     */
    static void assertAttemptsValid(Stack stack, int expected) {
        PythonTools.require("botocore, regex", "checking requests against the SageMaker API model");
        Map<?, ?> result = runPython(ATTEMPTS, stack, List.of());
        assertEquals(List.of(), result.get("problems"));
        assertEquals(expected, ((Number) result.get("requests")).intValue(), result.toString());
    }

    /**
     * Asserts that the stack's SSM request documents (at least one) and {@code requests} (complete requests,
     * TrainingJobName included, resolved by the stack and possibly holding intrinsics) break no rule of the model.
     */
    static void assertValid(Stack stack, List<Map<String, Object>> requests) {
        PythonTools.require("botocore, regex", "checking requests against the SageMaker API model");
        Map<?, ?> result = runPython(CHECKER, stack, requests);
        assertEquals(List.of(), result.get("problems"));
        assertTrue(((Number) result.get("documents")).intValue() > 0, "no SSM request document: " + result);
    }

    /**
     * Asserts that {@code request}, as a state machine's AWS SDK task sends it, breaks no rule of botocore's model of
     * {@code service}'s {@code operation} ({@code .ci/sagemaker_model.py --service}).
     */
    static void assertCallValid(String service, String operation, Object request) {
        PythonTools.require("botocore, regex", "checking requests against the " + service + " API model");
        try {
            Process run = new ProcessBuilder("python3", ".ci/sagemaker_model.py", "--service", service, operation)
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            try (var in = run.getOutputStream()) {
                in.write(Json.MAPPER.writeValueAsBytes(request));
            }
            String out = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!run.waitFor(120, TimeUnit.SECONDS)) {
                throw new AssertionError("the model check did not end");
            }
            assertEquals("", out.strip(), service + " " + operation + " request " + request);
        } catch (IOException e) {
            throw new AssertionError(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static Map<?, ?> runPython(String script, Stack stack, List<Map<String, Object>> requests) {
        try {
            Path dir = Files.createTempDirectory("sagemaker-model");
            Path template = dir.resolve("stack.template.json");
            Path extra = dir.resolve("requests.json");
            Files.writeString(template, Json.MAPPER.writeValueAsString(Template.fromStack(stack).toJSON()));
            Files.writeString(extra, Json.MAPPER.writeValueAsString(stack.resolve(requests)));
            Process run = new ProcessBuilder("python3", "-c", script, template.toString(), extra.toString())
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            String out = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!run.waitFor(120, TimeUnit.SECONDS) || run.exitValue() != 0) {
                throw new AssertionError("the model check failed: " + out);
            }
            return (Map<?, ?>) Json.tree(out);
        } catch (IOException e) {
            throw new AssertionError(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
