package io.github.trainingdata.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.trainingdata.cdk.Json;
import io.github.trainingdata.cdk.PythonTools;
import io.github.trainingdata.examples.docs.S3ExpressExample;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awscdk.App;
import software.amazon.awscdk.assertions.Template;

/**
 * cfn-lint (AWS's CloudFormation linter, with the registry schema of {@code AWS::S3Express::DirectoryBucket}) finds
 * nothing but the kept W3005 in the directory-bucket example: the bucket, its encryption, lifecycle and metrics, the
 * s3express gateway endpoint and the CreateSession grants.
 */
class S3ExpressLintTest {
    @Test
    void cfnLintFindsNoProblemInTheDirectoryBucketExample(@TempDir Path dir) throws IOException, InterruptedException {
        PythonTools.require("cfnlint", "linting the S3 Express example");
        Path template = dir.resolve("S3ExpressExample.template.json");
        Files.writeString(template, Json.MAPPER.writeValueAsString(
                Template.fromStack(new S3ExpressExample(new App(), "S3ExpressExample")).toJSON()));
        Process lint = new ProcessBuilder("cfn-lint", "-f", "json", template.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(lint.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        lint.waitFor();
        List<?> matches = Json.MAPPER.readValue(out, List.class);
        TreeSet<Object> rules = new TreeSet<>();
        matches.forEach(m -> rules.add(((Map<?, ?>) ((Map<?, ?>) m).get("Rule")).get("Id")));
        assertEquals(new TreeSet<>(List.of("W3005")), rules, out);
    }
}
