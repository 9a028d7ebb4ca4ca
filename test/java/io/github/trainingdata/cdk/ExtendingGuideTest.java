package io.github.trainingdata.cdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The files {@code docs/extending.md} names are the files there are: every path it gives (in backticks, under
 * {@code src/} or {@code test/}) exists, except the ones with a {@code <Name>} placeholder a new kind adds.
 */
class ExtendingGuideTest {
    private static final Path GUIDE = Path.of("docs/extending.md");
    private static final Pattern PATH = Pattern.compile("`((?:src|test)/[^`\\s]+)`");

    @Test
    void everyFileTheGuideNamesExists() throws IOException {
        Matcher m = PATH.matcher(Files.readString(GUIDE));
        List<String> named = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        while (m.find()) {
            String path = m.group(1);
            if (path.contains("<Name>")) {
                continue;
            }
            named.add(path);
            if (!Files.exists(Path.of(path))) {
                missing.add(path);
            }
        }
        assertTrue(named.size() >= 8, "the guide names the stores, their rows and the layers' files: " + named);
        assertEquals(List.of(), missing, GUIDE + " names files that do not exist");
    }

    @Test
    void theNewKindsGoWhereTheGuideSays() throws IOException {
        String guide = Files.readString(GUIDE);
        for (String placeholder : List.of("src/main/java/io/github/trainingdata/cdk/storage/<Name>.java",
                "src/main/java/io/github/trainingdata/cdk/training/<Name>Channel.java")) {
            assertTrue(guide.contains("`" + placeholder + "`"), placeholder);
            assertTrue(Files.isDirectory(Path.of(placeholder).getParent()), placeholder);
        }
    }
}
