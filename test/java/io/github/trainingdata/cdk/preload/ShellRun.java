package io.github.trainingdata.cdk.preload;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The result of running a command with exactly the given environment, its output captured in files.
 *
 * @param exitCode the exit code
 * @param stdout   standard output
 * @param stderr   standard error
 */
public record ShellRun(int exitCode, String stdout, String stderr) {
    private static final long TIMEOUT_SECONDS = 60;

    /**
     * Runs a command and waits at most a minute.
     *
     * @param command     the command and its arguments
     * @param environment the whole environment of the process
     * @param scratch     a directory for the output files
     * @return the result
     * @throws IOException          if the process cannot start
     * @throws InterruptedException if interrupted while waiting
     */
    public static ShellRun run(List<String> command, Map<String, String> environment, Path scratch)
            throws IOException, InterruptedException {
        Path out = Files.createTempFile(scratch, "stdout", ".txt");
        Path err = Files.createTempFile(scratch, "stderr", ".txt");
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().clear();
        builder.environment().putAll(environment);
        Process process = builder.start();
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(command + " did not finish within " + TIMEOUT_SECONDS + " s");
        }
        return new ShellRun(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    /**
     * The last line of standard output.
     *
     * @return the line, or an empty string
     */
    public String lastLine() {
        List<String> lines = stdout.lines().toList();
        return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
    }
}
