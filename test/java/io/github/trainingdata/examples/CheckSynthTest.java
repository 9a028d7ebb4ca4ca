package io.github.trainingdata.examples;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.trainingdata.cdk.Json;
import io.github.trainingdata.cdk.TestApps;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;

/**
 * CI's {@code .ci/check-synth.js} on the quickstart's cloud assembly: it passes on the template as synthesized, and
 * its check that every library custom resource is on the stack provider's token cannot pass without checking one (a
 * type missing from the template, or one it does not know).
 */
class CheckSynthTest {
    private static final String STACK = "TrainingDataQuickstart";
    @TempDir
    static Path outdir;
    private static ObjectNode template;

    @BeforeAll
    static void synthesizeTheQuickstart() throws IOException {
        Map<String, Object> context = TestApps.context();
        // As the CDK CLI does: assets are named in the template's metadata (the check opens the dispatcher's).
        context.put("aws:cdk:enable-asset-metadata", true);
        App app = new App(AppProps.builder().outdir(outdir.toString()).context(context).build());
        new QuickstartStack(app, STACK);
        app.synth();
        template = (ObjectNode) Json.MAPPER.readTree(outdir.resolve(STACK + ".template.json").toFile());
    }

    @Test
    void passesOnTheQuickstartAsSynthesized() throws Exception {
        String out = check("as-synthesized", t -> { });
        assertTrue(out.startsWith("0 check-synth: "), out);
        assertTrue(out.contains("every custom resource on the stack's one provider"), out);
    }

    @Test
    void failsWhenALibraryTypeIsMissing() throws Exception {
        for (String type : new String[] {"Custom::EfsDirectories", "Custom::LustreTaskGuard",
                "Custom::TrainingTeardown"}) {
            String out = check("without-" + type.substring("Custom::".length()), t -> remove(t, type));
            assertTrue(out.startsWith("1 "), type + ": " + out);
            assertTrue(out.contains("no " + type + " in the template"), out);
        }
    }

    @Test
    void failsOnACustomResourceTypeItDoesNotKnow() throws Exception {
        String out = check("unknown-type", t -> {
            ObjectNode other = ((ObjectNode) t.get("Resources").get(id(t, "Custom::EfsDirectories"))).deepCopy();
            other.put("Type", "Custom::SomethingElse");
            ((ObjectNode) t.get("Resources")).set("SomethingElse", other);
        });
        assertTrue(out.startsWith("1 "), out);
        assertTrue(out.contains("SomethingElse: Custom::SomethingElse is neither a library type"), out);
    }

    @Test
    void failsOnALibraryResourceOnAnotherToken() throws Exception {
        String out = check("another-token", t -> ((ObjectNode) t.get("Resources").get(id(t, "Custom::EfsDirectories"))
                .get("Properties")).put("ServiceToken", "arn:aws:lambda:us-east-1:123456789012:function:other"));
        assertTrue(out.startsWith("1 "), out);
        assertTrue(out.contains("(Custom::EfsDirectories) is not served by the stack's provider"), out);
    }

    @Test
    void failsOnAFourthFunction() throws Exception {
        String out = check("four-functions", t -> {
            ObjectNode resources = (ObjectNode) t.get("Resources");
            String function = id(t, "AWS::Lambda::Function");
            ObjectNode copy = ((ObjectNode) resources.get(function)).deepCopy();
            copy.remove("Metadata");
            ((ObjectNode) copy.get("Properties")).put("Handler", "index.handler");
            resources.set("AnotherFunction", copy);
        });
        assertTrue(out.startsWith("1 "), out);
        assertTrue(out.contains("4 Lambda functions, expected at most 3"), out);
    }

    /** Runs the check on a changed copy of the template beside it: "exit-code output". */
    private static String check(String name, Consumer<ObjectNode> change) throws IOException, InterruptedException {
        ObjectNode copy = template.deepCopy();
        change.accept(copy);
        Path file = outdir.resolve(name + ".template.json");
        Files.writeString(file, Json.MAPPER.writeValueAsString(copy));
        Process node = new ProcessBuilder("node", ".ci/check-synth.js", file.toString()).redirectErrorStream(true)
                .start();
        String out = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(node.waitFor(60, TimeUnit.SECONDS), "the check ends");
        return node.exitValue() + " " + out;
    }

    private static void remove(ObjectNode t, String type) {
        ObjectNode resources = (ObjectNode) t.get("Resources");
        List<String> ids = new ArrayList<>();
        resources.fieldNames().forEachRemaining(ids::add);
        ids.stream().filter(id -> type.equals(resources.get(id).get("Type").asText())).forEach(resources::remove);
        assertNull(id(t, type));
    }

    private static String id(ObjectNode t, String type) {
        var ids = t.get("Resources").fieldNames();
        while (ids.hasNext()) {
            String id = ids.next();
            if (type.equals(t.get("Resources").get(id).get("Type").asText())) {
                return id;
            }
        }
        return null;
    }
}
