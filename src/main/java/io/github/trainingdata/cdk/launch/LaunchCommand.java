package io.github.trainingdata.cdk.launch;

import java.io.PrintStream;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sagemaker.model.ResourceLimitExceededException;
import software.amazon.awssdk.services.sagemaker.model.SageMakerException;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.ssm.SsmClient;

/**
 * Command line: starts a training job from a deployed definition.
 *
 * <pre>
 * --parameter NAME --job-name-prefix P [--resume-from RUN] [--wait] [--capacity-policy NAME] [--region R]
 * </pre>
 *
 * Each job syncs its own checkpoint prefix ({@code <checkpointPrefix>/<job name>/}); {@code --resume-from RUN}
 * starts it on the checkpoints of an earlier job or state-machine execution instead.
 * Prints the job name on standard output, progress on standard error. Exit codes: 0 started (or, with
 * {@code --wait}, completed), 1 the launch or the job failed, 2 bad flags. A failure's last line on standard error
 * starts with the training state machine's error for the same end ({@link TrainingErrors}) and a colon: a refused
 * request {@code TrainingData.RequestRefused}, a quota {@code TrainingData.QuotaExhausted}, a job that did not
 * complete its own.
 *
 * <p>{@code --capacity-policy NAME} (the definition's output {@code CapacityPolicyParameterName}) runs the
 * definition's capacity policy ({@link TrainingJobLauncher#runWithCapacityPlan}): it waits for each job and, when one
 * fails for capacity, starts the next attempt; then prints one line per job on standard output, tab-separated: job
 * name, instance type, data sources, Availability Zones (comma-separated), outcome (as the state machine records it,
 * {@link AttemptOutcome#recorded()}), FailureReason. Exit code 0 when
 * a job completed. Credentials and, without
 * {@code --region}, the Region come from the SDK's default chains.
 */
public final class LaunchCommand {
    static final int EXIT_OK = 0;
    static final int EXIT_FAILED = 1;
    static final int EXIT_USAGE = 2;
    static final String USAGE =
            "usage: LaunchCommand --parameter NAME --job-name-prefix PREFIX [--resume-from RUN] [--wait]"
            + " [--capacity-policy NAME] [--region REGION]";

    private static final Duration POLL_INTERVAL = Duration.ofSeconds(30);
    /** Longer than any job can run (28 days) plus its pending time. */
    private static final Duration WAIT_TIMEOUT = Duration.ofDays(30);

    private final PrintStream out;
    private final PrintStream err;
    private final Function<Optional<Region>, SsmClient> ssmClients;
    private final Function<Optional<Region>, SageMakerClient> sageMakerClients;
    private final Function<Optional<Region>, SfnClient> stepFunctionsClients;
    private final Sleeper sleeper;

    LaunchCommand(PrintStream out, PrintStream err, Function<Optional<Region>, SsmClient> ssmClients,
            Function<Optional<Region>, SageMakerClient> sageMakerClients,
            Function<Optional<Region>, SfnClient> stepFunctionsClients, Sleeper sleeper) {
        this.out = Objects.requireNonNull(out, "out");
        this.err = Objects.requireNonNull(err, "err");
        this.ssmClients = Objects.requireNonNull(ssmClients, "ssmClients");
        this.sageMakerClients = Objects.requireNonNull(sageMakerClients, "sageMakerClients");
        this.stepFunctionsClients = Objects.requireNonNull(stepFunctionsClients, "stepFunctionsClients");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    }

    /**
     * Runs the command and exits with its exit code.
     *
     * @param args the flags
     */
    public static void main(String[] args) {
        System.exit(new LaunchCommand(System.out, System.err,
                region -> SsmClient.builder().httpClient(UrlConnectionHttpClient.create())
                        .applyMutation(b -> region.ifPresent(b::region)).build(),
                region -> SageMakerClient.builder().httpClient(UrlConnectionHttpClient.create())
                        .applyMutation(b -> region.ifPresent(b::region)).build(),
                region -> SfnClient.builder().httpClient(UrlConnectionHttpClient.create())
                        .applyMutation(b -> region.ifPresent(b::region)).build(), Sleeper.system())
                .run(args));
    }

    int run(String[] args) {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            err.println(USAGE);
            return EXIT_USAGE;
        }
        try (SsmClient ssm = ssmClients.apply(options.region());
                SageMakerClient sageMaker = sageMakerClients.apply(options.region());
                SfnClient stepFunctions = stepFunctionsClients.apply(options.region())) {
            TrainingJobLauncher launcher = new TrainingJobLauncher(sageMaker, Clock.systemUTC(), sleeper,
                    new SecureRandom());
            DeployedTrainingJobDefinition definition = new DeployedTrainingJobDefinition(ssm, stepFunctions,
                    options.parameter());
            if (options.capacityPolicy().isPresent()) {
                return runCapacityPolicy(options, definition, launcher);
            }
            String jobName = options.resumeFrom().isPresent()
                    ? definition.resume(launcher, options.jobNamePrefix(), options.resumeFrom().get())
                    : definition.launch(launcher, options.jobNamePrefix());
            out.println(jobName);
            if (options.waitForCompletion()) {
                launcher.waitForCompletion(jobName, POLL_INTERVAL, WAIT_TIMEOUT, err::println);
            }
            return EXIT_OK;
        } catch (TrainingJobNotCompletedException e) {
            err.println(e.error() + ": " + e.getMessage());
            return EXIT_FAILED;
        } catch (ResourceLimitExceededException e) {
            err.println(TrainingErrors.QUOTA_EXHAUSTED + ": " + e.getMessage());
            return EXIT_FAILED;
        } catch (SageMakerException e) {
            err.println(TrainingErrors.REQUEST_REFUSED + ": " + e.getMessage());
            return EXIT_FAILED;
        } catch (IllegalArgumentException | SdkException e) {
            err.println(e.getMessage());
            return EXIT_FAILED;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("Interrupted while waiting for the training job");
            return EXIT_FAILED;
        }
    }

    /** Runs every attempt the policy needs and prints one line per job. */
    private int runCapacityPolicy(Options options, DeployedTrainingJobDefinition definition,
            TrainingJobLauncher launcher) throws InterruptedException {
        CapacityPlan plan = definition.capacityPlan(options.capacityPolicy().get());
        CapacityRun run = launcher.runWithCapacityPlan(definition.document(), plan, options.jobNamePrefix(),
                options.resumeFrom().orElse(null), POLL_INTERVAL, WAIT_TIMEOUT, err::println);
        for (CapacityRunAttempt attempt : run.attempts()) {
            out.println(String.join("\t", attempt.jobName(), String.valueOf(attempt.instanceType()),
                    attempt.dataSources(), String.join(",", attempt.availabilityZones()), attempt.outcome().recorded(),
                    attempt.failureReason() == null ? "" : attempt.failureReason()));
        }
        if (run.completed()) {
            return EXIT_OK;
        }
        err.println(run.error().orElseThrow() + ": " + run.cause().orElse(""));
        return EXIT_FAILED;
    }

    private record Options(String parameter, String jobNamePrefix, Optional<String> resumeFrom,
            boolean waitForCompletion, Optional<String> capacityPolicy, Optional<Region> region) {
        static Options parse(String[] args) {
            String parameter = null;
            String prefix = null;
            String resumeFrom = null;
            String region = null;
            String capacityPolicy = null;
            boolean wait = false;
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--parameter" -> parameter = value(args, ++i, "--parameter");
                    case "--job-name-prefix" -> prefix = value(args, ++i, "--job-name-prefix");
                    case "--resume-from" -> resumeFrom = TrainingJobLauncher.requireValidRun(
                            value(args, ++i, "--resume-from"));
                    case "--region" -> region = value(args, ++i, "--region");
                    case "--capacity-policy" -> capacityPolicy = value(args, ++i, "--capacity-policy");
                    case "--wait" -> wait = true;
                    default -> throw new IllegalArgumentException("Unknown argument: " + args[i]);
                }
            }
            if (parameter == null || prefix == null) {
                throw new IllegalArgumentException("--parameter and --job-name-prefix are required");
            }
            TrainingJobNames.requireValidPrefix(prefix);
            return new Options(parameter, prefix, Optional.ofNullable(resumeFrom), wait,
                    Optional.ofNullable(capacityPolicy), Optional.ofNullable(region).map(Region::of));
        }

        private static String value(String[] args, int index, String flag) {
            if (index >= args.length || args[index].startsWith("--") || args[index].isEmpty()) {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            return args[index];
        }
    }
}
