package io.github.trainingdata.cdk;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The library's packages form layers: no package depends, directly or through others, on a package that depends on
 * it (read from the sources' imports), and every package has a {@code package-info.java}.
 */
class PackageLayersTest {
    private static final Path SOURCES = Path.of("src/main/java");
    private static final String ROOT = "io.github.trainingdata.cdk";
    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?(" + Pattern.quote(ROOT)
            + "(?:\\.[a-z]+)*)\\.[A-Z]", Pattern.MULTILINE);

    @Test
    void noPackageDependsOnItselfThroughOthers() throws IOException {
        Map<String, Set<String>> uses = dependencies();
        List<String> cycles = new ArrayList<>();
        for (String start : uses.keySet()) {
            List<String> path = cycleFrom(start, start, uses, new ArrayList<>(List.of(start)), new TreeSet<>());
            if (path != null) {
                cycles.add(String.join(" -> ", path));
            }
        }
        assertEquals(List.of(), cycles, "package cycles (from the imports)");
    }

    /** The advisor sits on top: the constructs and the models they share with it never import it. */
    @Test
    void onlyThePlatformImportsTheAdvisor() throws IOException {
        String advisor = ROOT + ".advisor";
        List<String> importers = new ArrayList<>();
        dependencies().forEach((pkg, used) -> {
            if (used.contains(advisor)) {
                importers.add(pkg);
            }
        });
        assertEquals(List.of(ROOT + ".platform"), importers);
    }

    @Test
    void everyPackageHasAPackageInfo() throws IOException {
        List<String> missing = new ArrayList<>();
        for (String pkg : dependencies().keySet()) {
            if (!pkg.equals(ROOT) && !Files.exists(SOURCES.resolve(pkg.replace('.', '/')).resolve("package-info.java"))) {
                missing.add(pkg);
            }
        }
        assertEquals(List.of(), missing);
    }

    /** Each package of the library and the other packages of the library it imports from. */
    private static Map<String, Set<String>> dependencies() throws IOException {
        Map<String, Set<String>> uses = new TreeMap<>();
        try (Stream<Path> files = Files.walk(SOURCES.resolve(ROOT.replace('.', '/')))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String pkg = SOURCES.relativize(file.getParent()).toString().replace('/', '.');
                Set<String> used = uses.computeIfAbsent(pkg, p -> new TreeSet<>());
                Matcher m = IMPORT.matcher(Files.readString(file));
                while (m.find()) {
                    if (!m.group(1).equals(pkg)) {
                        used.add(m.group(1));
                    }
                }
            }
        }
        return uses;
    }

    private static List<String> cycleFrom(String start, String at, Map<String, Set<String>> uses, List<String> path,
            Set<String> seen) {
        for (String next : uses.getOrDefault(at, Set.of())) {
            if (next.equals(start)) {
                List<String> cycle = new ArrayList<>(path);
                cycle.add(start);
                return cycle;
            }
            if (seen.add(next)) {
                path.add(next);
                List<String> found = cycleFrom(start, next, uses, path, seen);
                if (found != null) {
                    return found;
                }
                path.remove(path.size() - 1);
            }
        }
        return null;
    }
}
