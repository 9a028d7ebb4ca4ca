package io.github.trainingdata.cdk;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.Stack;

/** Apps and stacks for tests, with the same feature flags as {@code cdk.json}, so tests see what synth sees. */
public final class TestApps {
    private static final Map<String, Object> CONTEXT = readContext();

    private TestApps() {
    }

    /** @return a new app carrying cdk.json's context */
    public static App app() {
        return new App(AppProps.builder().context(CONTEXT).build());
    }

    /** @return a copy of cdk.json's context, e.g. to build an app with an output directory or another value */
    public static Map<String, Object> context() {
        return new LinkedHashMap<>(CONTEXT);
    }

    /** @return a new environment-agnostic stack in a new app */
    public static Stack stack() {
        return new Stack(app(), "Test");
    }

    private static Map<String, Object> readContext() {
        try {
            JsonNode context = Json.MAPPER.readTree(Path.of("cdk.json").toFile()).get("context");
            Map<String, Object> values = new LinkedHashMap<>();
            context.fields().forEachRemaining(e -> values.put(e.getKey(),
                    Json.MAPPER.convertValue(e.getValue(), Object.class)));
            return values;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read cdk.json from the project root", e);
        }
    }
}
