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

    private SageMakerModelCheck() {
    }

    /**
     * Asserts that the stack's SSM request documents (at least one) and {@code requests} (complete requests,
     * TrainingJobName included, resolved by the stack and possibly holding intrinsics) break no rule of the model.
     */
    static void assertValid(Stack stack, List<Map<String, Object>> requests) {
        PythonTools.require("botocore, regex", "checking requests against the SageMaker API model");
        try {
            Path dir = Files.createTempDirectory("sagemaker-model");
            Path template = dir.resolve("stack.template.json");
            Path extra = dir.resolve("requests.json");
            Files.writeString(template, Json.MAPPER.writeValueAsString(Template.fromStack(stack).toJSON()));
            Files.writeString(extra, Json.MAPPER.writeValueAsString(stack.resolve(requests)));
            Process run = new ProcessBuilder("python3", "-c", CHECKER, template.toString(), extra.toString())
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            String out = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!run.waitFor(120, TimeUnit.SECONDS) || run.exitValue() != 0) {
                throw new AssertionError("the model check failed: " + out);
            }
            Map<?, ?> result = (Map<?, ?>) Json.tree(out);
            assertEquals(List.of(), result.get("problems"));
            assertTrue(((Number) result.get("documents")).intValue() > 0, "no SSM request document: " + out);
        } catch (IOException e) {
            throw new AssertionError(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
