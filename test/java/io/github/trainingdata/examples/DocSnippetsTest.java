package io.github.trainingdata.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.github.trainingdata.examples.docs.CapacityPolicyExample;
import io.github.trainingdata.examples.docs.CompositionExample;
import io.github.trainingdata.examples.docs.ConstructsExample;
import io.github.trainingdata.examples.docs.DataInS3Example;
import io.github.trainingdata.examples.docs.LfsWorkerExample;
import io.github.trainingdata.examples.docs.PersistentCacheExample;
import io.github.trainingdata.examples.docs.PlatformExample;
import io.github.trainingdata.examples.docs.RetryExample;
import io.github.trainingdata.examples.docs.S3ExpressExample;
import io.github.trainingdata.examples.docs.SharedBucketExample;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Template;
import software.constructs.Construct;

/**
 * Every Java block of README.md and {@code docs/*.md} is compiled code: the line before it names a snippet,
 * {@code <!-- snippet: <file under examples/java>#<name> -->}, and the block is that snippet's text, the lines between
 * {@code // snippet:<name>} and {@code // end-snippet} with their common indentation removed. The snippets' stacks
 * synthesize in a bare {@code new App()}. After editing a snippet, rewrite the documents' blocks with
 * {@code mvn test -Dtest=DocSnippetsTest -Dsnippets.update=true}.
 */
class DocSnippetsTest {
    private static final Path SOURCES = Path.of("examples/java");
    private static final Pattern BLOCK = Pattern.compile(
            "(?:<!-- snippet: (\\S+)#(\\S+) -->\\n)?```java\\n(.*?)```", Pattern.DOTALL);
    private static final boolean UPDATE = Boolean.getBoolean("snippets.update");
    private static final String DIFFERS = " differs from the document's block";

    /** The documents: the README and the guide. */
    static List<Path> documents() throws IOException {
        List<Path> documents = new ArrayList<>(List.of(Path.of("README.md")));
        if (Files.isDirectory(Path.of("docs"))) {
            try (Stream<Path> guide = Files.list(Path.of("docs"))) {
                guide.filter(p -> p.toString().endsWith(".md")).sorted().forEach(documents::add);
            }
        }
        return documents;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("documents")
    void everyJavaBlockIsACompiledSnippet(Path document) throws IOException {
        String text = Files.readString(document);
        List<String> problems = new ArrayList<>();
        String updated = replaceBlocks(text, (source, name) -> {
            if (source == null) {
                problems.add("a ```java block without a <!-- snippet: FILE#NAME --> line before it");
                return null;
            }
            return snippet(source, name);
        }, problems);
        if (UPDATE && problems.stream().allMatch(p -> p.endsWith(DIFFERS))) {
            Files.writeString(document, updated);
            return;
        }
        assertEquals(List.of(), problems, document + ": rerun with -Dsnippets.update=true after editing a snippet");
    }

    /** The stacks the documents' snippets come from. */
    static Stream<Arguments> exampleStacks() {
        Map<String, BiFunction<Construct, String, Stack>> stacks = new LinkedHashMap<>();
        stacks.put("ConstructsExample", ConstructsExample::new);
        stacks.put("PlatformExample", PlatformExample::new);
        stacks.put("LfsWorkerExample", LfsWorkerExample::new);
        stacks.put("PersistentCacheExample", PersistentCacheExample::new);
        stacks.put("CompositionExample", CompositionExample::new);
        stacks.put("DataInS3Example", DataInS3Example::new);
        stacks.put("SharedBucketExample", SharedBucketExample::new);
        stacks.put("S3ExpressExample", S3ExpressExample::new);
        stacks.put("RetryExample", RetryExample::new);
        stacks.put("CapacityPolicyExample", CapacityPolicyExample::new);
        return stacks.entrySet().stream().map(e -> Arguments.of(e.getKey(), e.getValue()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("exampleStacks")
    void theSnippetsStacksSynthesizeInABareApp(String name, BiFunction<Construct, String, Stack> build) {
        App app = new App();
        Stack stack = build.apply(app, name);
        assertFalse(Template.fromStack(stack).toJSON().isEmpty(), name);
    }

    @Test
    void aBlockThatDriftedFromItsSnippetIsReported() {
        List<String> problems = new ArrayList<>();
        replaceBlocks("<!-- snippet: io/github/trainingdata/examples/docs/PlatformExample.java#platform -->\n"
                + "```java\nnew TrainingDataPlatform(this, \"Old\");\n```\n", DocSnippetsTest::snippet, problems);
        assertEquals(1, problems.size(), problems.toString());
    }

    /**
     * Replaces every Java block by what {@code expected} gives for its snippet reference, noting in {@code problems}
     * each block that differs (or has none).
     */
    private static String replaceBlocks(String text, BiFunction<String, String, String> expected,
            List<String> problems) {
        Matcher m = BLOCK.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String want = expected.apply(m.group(1), m.group(2));
            if (want == null) {
                m.appendReplacement(out, Matcher.quoteReplacement(m.group()));
                continue;
            }
            if (!want.equals(m.group(3))) {
                problems.add(m.group(1) + "#" + m.group(2) + DIFFERS);
            }
            m.appendReplacement(out, Matcher.quoteReplacement(
                    "<!-- snippet: " + m.group(1) + "#" + m.group(2) + " -->\n```java\n" + want + "```"));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** The snippet {@code name} of {@code source} (a path under examples/java), de-indented, ending in a newline. */
    private static String snippet(String source, String name) {
        List<String> lines;
        try {
            lines = Files.readAllLines(SOURCES.resolve(source));
        } catch (IOException e) {
            throw new UncheckedIOException("no snippet source " + source, e);
        }
        int start = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).strip().equals("// snippet:" + name)) {
                start = i + 1;
            }
        }
        if (start < 0) {
            throw new AssertionError(source + " has no '// snippet:" + name + "' line");
        }
        List<String> body = new ArrayList<>();
        for (int i = start; !lines.get(i).strip().equals("// end-snippet"); i++) {
            body.add(lines.get(i));
        }
        int indent = body.stream().filter(l -> !l.isBlank())
                .mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
        StringBuilder text = new StringBuilder();
        body.forEach(l -> text.append(l.isBlank() ? "" : l.substring(indent)).append('\n'));
        return text.toString();
    }
}
