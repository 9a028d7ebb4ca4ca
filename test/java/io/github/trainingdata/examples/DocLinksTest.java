package io.github.trainingdata.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every relative link of README.md, CHANGELOG.md and {@code docs/*.md} resolves: the file exists, and a
 * {@code #fragment} names a heading of the target as GitHub anchors it (lower case, punctuation dropped, spaces as
 * hyphens, a repeated heading suffixed {@code -1}, {@code -2}, ...). Links in code are not links.
 */
class DocLinksTest {
    private static final Pattern LINK = Pattern.compile("\\[[^\\]]*]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6} +(.+?) *#*$");
    private static final Pattern REMOTE = Pattern.compile("^[a-z][a-z0-9+.-]*:.*");

    /** The documents whose links are checked. */
    static List<Path> documents() throws IOException {
        List<Path> documents = new ArrayList<>(DocSnippetsTest.documents());
        documents.add(Path.of("CHANGELOG.md"));
        return documents;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("documents")
    void everyRelativeLinkResolves(Path document) throws IOException {
        assertEquals(List.of(), brokenLinks(document, Files.readString(document)), document.toString());
    }

    @Test
    void aMissingFileOrHeadingIsReported() {
        String text = "# Title\n\n[ok](#title), [gone](#nothing), [no file](missing.md), [web](https://example.com)\n"
                + "```\n[in code](missing-too.md)\n```\n";
        assertEquals(List.of("#nothing: no such heading", "missing.md: no such file"),
                brokenLinks(Path.of("README.md"), text));
    }

    @Test
    void anchorsFollowGitHubsRules() {
        assertEquals(List.of("persistent_2-a-cache-that-grows-with-the-cluster", "reading-s3-directly-s3channel",
                "upgrading-from-0x", "notes", "notes-1"),
                List.copyOf(anchors("## PERSISTENT_2: a cache that grows with the cluster\n"
                        + "## Reading S3 directly: `S3Channel`\n### Upgrading from 0.x\n## Notes\n## Notes\n")));
    }

    /** The links of {@code text} (the document at {@code document}) that do not resolve, with why. */
    private static List<String> brokenLinks(Path document, String text) {
        List<String> broken = new ArrayList<>();
        Matcher m = LINK.matcher(withoutCode(text));
        while (m.find()) {
            String target = m.group(1);
            if (REMOTE.matcher(target).matches()) {
                continue;
            }
            int hash = target.indexOf('#');
            String file = hash < 0 ? target : target.substring(0, hash);
            Path resolved = file.isEmpty() ? document : document.resolveSibling(file).normalize();
            if (!file.isEmpty() && !Files.exists(resolved)) {
                broken.add(target + ": no such file");
            } else if (hash >= 0 && !anchors(file.isEmpty() ? text : read(resolved)).contains(
                    target.substring(hash + 1))) {
                broken.add(target + ": no such heading");
            }
        }
        return broken;
    }

    /** The anchors GitHub gives the headings of a Markdown text, in order. */
    private static Set<String> anchors(String text) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        for (String line : withoutCode(text).split("\n")) {
            Matcher m = HEADING.matcher(line);
            if (m.matches()) {
                String slug = m.group(1).toLowerCase().replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
                int n = seen.merge(slug, 1, Integer::sum) - 1;
                anchors.add(n == 0 ? slug : slug + "-" + n);
            }
        }
        return anchors;
    }

    /** The text with fenced code blocks and inline code spans removed. */
    private static String withoutCode(String text) {
        StringBuilder out = new StringBuilder();
        boolean fenced = false;
        for (String line : text.split("\n", -1)) {
            if (line.startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            if (!fenced) {
                out.append(line.startsWith("#") ? line : line.replaceAll("`[^`]*`", "")).append('\n');
            }
        }
        return out.toString();
    }

    private static String read(Path file) {
        if (Files.isDirectory(file)) {
            return "";
        }
        try (Stream<String> lines = Files.lines(file)) {
            return String.join("\n", lines.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
