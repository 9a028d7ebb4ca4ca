package io.github.trainingdata.cdk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.core.client.builder.SdkSyncClientBuilder;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;

/**
 * moto, the AWS emulator, for rehearsal tests: {@code .ci/moto_rehearsal.py} runs moto's server on a free
 * loopback port (Step Functions executes state machines and sends their service tasks to the same server) and
 * answers commands on its standard input: resolve templates with realistic values, script a training job's
 * statuses, await an execution, list the CreateTrainingJob requests received and their problems against
 * botocore's SageMaker model.
 *
 * <p>Tests using it are skipped when Python 3 with moto, boto3, botocore and cfn-lint, or jsonata in
 * {@code .ci/node_modules} (moto evaluates JSONata with it), is absent, except when the environment variable
 * {@code CI} is {@code true}: there they fail.
 */
public final class MotoServer implements AutoCloseable {
    private static final ObjectMapper JSON = Json.MAPPER;
    private static final Path SCRIPT = Path.of(".ci", "moto_rehearsal.py");
    private static final Path LOG = Path.of("target", "moto-rehearsal.log");
    /** jsonata, which evaluates the state machines' JSONata for moto ({@code .ci/jsonata-eval.js}). */
    private static final Path JSONATA = Path.of(".ci", "node_modules", "jsonata");

    private final Process process;
    private final Writer commands;
    private final BufferedReader answers;
    private final URI endpoint;

    private MotoServer(Process process) throws IOException {
        this.process = process;
        this.commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        this.answers = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String first = answers.readLine();
        if (first == null) {
            throw new IllegalStateException("moto_rehearsal.py ended before it listened; see " + LOG);
        }
        this.endpoint = URI.create("http://127.0.0.1:" + JSON.readTree(first).get("port").asInt());
    }

    /**
     * Starts the emulator, or skips the calling test (fails it under {@code CI=true}) when Python with moto is
     * not installed.
     *
     * @return the running emulator; close it when done
     */
    public static MotoServer start() {
        PythonTools.require("moto, boto3, botocore, cfnlint, regex", "the rehearsal in moto");
        if (!Files.isDirectory(JSONATA)) {
            String message = "the rehearsal in moto evaluates JSONata with jsonata from " + JSONATA
                    + ": npm ci --prefix .ci (.ci/validate does)";
            if ("true".equals(System.getenv("CI"))) {
                org.junit.jupiter.api.Assertions.fail("CI=true needs " + message);
            }
            org.junit.jupiter.api.Assumptions.abort("skipped: " + message);
        }
        try {
            Files.createDirectories(LOG.getParent());
            Process process = new ProcessBuilder("python3", SCRIPT.toString())
                    .redirectError(ProcessBuilder.Redirect.to(LOG.toFile()))
                    .start();
            return new MotoServer(process);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the emulator's endpoint, for {@code endpointOverride} */
    public URI endpoint() {
        return endpoint;
    }

    /**
     * Builds an SDK client that calls the emulator, with fake static credentials, us-east-1 and the URL-connection
     * HTTP client, e.g. {@code moto.client(SfnClient.builder())}.
     *
     * @param builder a client builder
     * @param <B>     its type
     * @param <C>     the client's type
     * @return the client
     */
    public <B extends AwsClientBuilder<B, C> & SdkSyncClientBuilder<B, C>, C> C client(B builder) {
        return builder.endpointOverride(endpoint)
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .httpClient(UrlConnectionHttpClient.create())
                .build();
    }

    /**
     * Sends one command and reads its answer.
     *
     * @param command the command, e.g. {@code {"cmd": "training-requests"}}
     * @return the answer
     * @throws IllegalStateException if the emulator reports an error
     */
    public synchronized JsonNode call(Map<String, Object> command) {
        try {
            commands.write(JSON.writeValueAsString(command) + "\n");
            commands.flush();
            String line = answers.readLine();
            if (line == null) {
                throw new IllegalStateException("moto_rehearsal.py ended; see " + LOG);
            }
            JsonNode answer = JSON.readTree(line);
            if (answer.has("commandError")) {
                throw new IllegalStateException("moto_rehearsal.py: " + answer.get("commandError").asText());
            }
            return answer;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Resolves templates that may reference each other, as CloudFormation would deploy them.
     *
     * @param templates the template files
     * @return the resolved templates, in the same order
     */
    public List<JsonNode> resolve(List<Path> templates) {
        JsonNode answer = call(Map.of("cmd", "resolve", "templates",
                templates.stream().map(p -> p.toAbsolutePath().toString()).toList()));
        return JSON.convertValue(answer.get("templates"),
                JSON.getTypeFactory().constructCollectionType(List.class, JsonNode.class));
    }

    @Override
    public void close() {
        try {
            commands.close();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroy();
            }
        } catch (IOException e) {
            process.destroy();
        } catch (InterruptedException e) {
            process.destroy();
            Thread.currentThread().interrupt();
        }
    }
}
