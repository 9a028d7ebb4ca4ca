package io.github.trainingdata.cdk;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import software.amazon.awscdk.assertions.Template;

/**
 * Snapshot testing of whole templates. Asset hashes (64 hex digits) are normalized so snapshots do not
 * change when only the bytes of an asset do. Regenerate with {@code -Dsnapshot.update=true}.
 */
public final class Snapshots {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);
    private static final Path DIR = Path.of("test", "resources", "snapshots");

    private Snapshots() {
    }

    /** Fails unless the normalized template equals {@code test/resources/snapshots/<name>.json}. */
    public static void assertMatches(String name, Template template) throws IOException {
        String actual = normalize(template.toJSON());
        Path expected = DIR.resolve(name + ".json");
        if (Boolean.getBoolean("snapshot.update")) {
            Files.createDirectories(DIR);
            Files.writeString(expected, actual);
            return;
        }
        if (!Files.exists(expected)) {
            fail("no snapshot " + expected + "; create it with -Dsnapshot.update=true");
        }
        if (!JSON.readTree(Files.readString(expected)).equals(JSON.readTree(actual))) {
            Path out = Path.of("target", "snapshots", name + ".json");
            Files.createDirectories(out.getParent());
            Files.writeString(out, actual);
            fail("template differs from snapshot " + expected + "; actual written to " + out
                    + " (diff them; if the change is intended, rerun with -Dsnapshot.update=true)");
        }
    }

    /**
     * @return the template as snapshots store it: keys sorted, indented, asset hashes replaced by
     *     {@code <asset-hash>}
     */
    public static String normalize(Map<String, Object> template) throws IOException {
        String text = JSON.writeValueAsString(JSON.valueToTree(template));
        JsonNode normalized = JSON.readTree(text.replaceAll("[0-9a-f]{64}", "<asset-hash>"));
        return JSON.writeValueAsString(JSON.treeToValue(normalized, Object.class)) + "\n";
    }
}
