package io.github.trainingdata.cdk;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The Python 3 tools some tests run ({@code .ci/*.py}): such a test is skipped when Python or a module it needs is
 * absent, except when the environment variable {@code CI} is {@code true} ({@code .ci/run} sets it): there it fails.
 */
public final class PythonTools {
    private PythonTools() {
    }

    /**
     * Skips the calling test (fails it under {@code CI=true}) unless {@code python3} has the modules.
     *
     * @param modules the modules, e.g. {@code "moto, boto3"}
     * @param purpose what needs them, for the message
     */
    public static void require(String modules, String purpose) {
        String missing = missing(modules);
        if (missing != null) {
            if ("true".equals(System.getenv("CI"))) {
                fail("CI=true needs Python 3 with " + modules + " for " + purpose + ": " + missing);
            }
            Assumptions.abort("skipped: Python 3 with " + modules + " is not installed (" + missing + ")");
        }
    }

    private static String missing(String modules) {
        try {
            // Found, not imported: importing cfn-lint or moto alone takes seconds.
            String script = "import importlib.util, sys\nfor m in sys.argv[1].split(','):\n"
                    + "    if importlib.util.find_spec(m.strip()) is None: sys.exit('No module named ' + m.strip())";
            Process check = new ProcessBuilder("python3", "-c", script, modules).redirectErrorStream(true).start();
            String output = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!check.waitFor(60, TimeUnit.SECONDS) || check.exitValue() != 0) {
                return output.isEmpty() ? "python3 failed" : output.lines().reduce((a, b) -> b).orElse(output);
            }
            return null;
        } catch (IOException e) {
            return "no python3 on PATH";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }
}
