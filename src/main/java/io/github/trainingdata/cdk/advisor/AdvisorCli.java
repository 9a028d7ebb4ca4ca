package io.github.trainingdata.cdk.advisor;

import io.github.trainingdata.cdk.performance.PublishedFigures;
import io.github.trainingdata.cdk.performance.ByteSize;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The command line: {@code java -jar cdk-training-data.jar advise --dataset-size 54GB --file-count 1500000}
 * prints a comparison of every data source and the recommended one; {@code --json} prints the same
 * as JSON. Bad arguments print one line on stderr plus the usage and exit with 2. JDK classes only,
 * so the jar runs without its dependencies.
 */
public final class AdvisorCli {

    static final String USAGE = "usage: java -jar cdk-training-data.jar advise --dataset-size SIZE"
            + " (--file-count N | --avg-file-size SIZE) [--access sequential|random] [--epochs N] [--data-on s3|efs]"
            + " [--streamable] [--instance-type TYPE] [--instance-count N] [--hourly-price USD]"
            + " [--training-hours H | --samples-per-second R [--samples N]] [--jobs N] [--spot-interruptions N]"
            + " [--warm-pool-quota] [--capacity-wait-hours H] [--json]";

    private static final String NL = System.lineSeparator();
    private static final String HELP = USAGE + NL + NL
            + "Recommends how a SageMaker training job should read its data (S3 File, FastFile or Pipe mode," + NL
            + "FSx for Lustre, EFS, S3 Express One Zone File or FastFile, or training code that reads S3 or a" + NL
            + "directory bucket itself): it estimates each option's billable time and cost for the whole job and" + NL
            + "picks the cheapest (options within 5% are ties, won by the least set-up: the S3 modes need no VPC)." + NL
            + "SIZE is bytes or a number with a unit: KB, MB, GB, TB, PB (powers of 1000)"
            + " or KiB, MiB, GiB, TiB, PiB (powers of 1024)." + NL
            + "Compute speed: --training-hours is the compute time of all epochs if reading data took no time" + NL
            + "(measure it with a warm local copy, or from a run whose GPUs never waited); or give" + NL
            + "--samples-per-second, the samples all instances train on per second then, with --samples per" + NL
            + "epoch (default: one per file). --jobs is how many times the job runs on this data (warm pools," + NL
            + "cache reuse); --spot-interruptions the expected interruptions per job (File mode downloads again);" + NL
            + "--warm-pool-quota says the account has a warm-pool quota for the instance type (the default is 0);" + NL
            + "--capacity-wait-hours is how long a job waits for capacity in the Lustre cache's AZ, which the" + NL
            + "advisor weighs against a capacity fallback to S3 (without it: the wait at which falling back pays)." + NL
            + "Defaults: --access sequential, --epochs 1, --data-on s3, --instance-type "
            + PublishedFigures.DEFAULT_INSTANCE_TYPE + ", --instance-count 1, --training-hours 1, --jobs 1," + NL
            + "--spot-interruptions 0." + NL
            + "Known instance prices (USD/h, us-east-1 on-demand estimates, compiled 2026-11-23): " + prices() + NL
            + "Give --hourly-price for others (assumed EBS volume and 10 Gbit/s).";

    private static final Set<String> VALUE_FLAGS = Set.of("--dataset-size", "--file-count", "--avg-file-size",
            "--access", "--epochs", "--data-on", "--instance-type", "--instance-count", "--training-hours",
            "--hourly-price", "--samples-per-second", "--samples", "--jobs", "--spot-interruptions",
            "--capacity-wait-hours");
    private static final Set<String> SWITCHES = Set.of("--streamable", "--warm-pool-quota", "--json");
    private static final Set<String> HELP_FLAGS = Set.of("--help", "-h");
    private static final String SUBCOMMAND = "advise";
    private static final double MILLIS_PER_HOUR = 3_600_000;
    private static final int USAGE_ERROR = 2;

    private AdvisorCli() {
    }

    /**
     * Runs the command line and exits with its status: 0 on success or {@code --help}, 2 on bad arguments.
     *
     * @param args {@code advise} followed by its flags
     */
    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the command line against the given streams and returns the exit status instead of exiting. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        if (List.of(args).stream().anyMatch(HELP_FLAGS::contains)) {
            out.println(HELP);
            return 0;
        }
        try {
            Map<String, String> values = new HashMap<>();
            Set<String> switches = new HashSet<>();
            readArguments(args, values, switches);
            DatasetProfile profile = profile(values, switches);
            Recommendation recommendation = Advisor.recommend(profile);
            if (switches.contains("--json")) {
                out.println(RecommendationJson.render(recommendation));
            } else {
                out.print(ComparisonTable.render(profile, recommendation));
            }
            return 0;
        } catch (IllegalArgumentException e) {
            err.println("advise: " + e.getMessage());
            err.println(USAGE);
            return USAGE_ERROR;
        }
    }

    private static void readArguments(String[] args, Map<String, String> values, Set<String> switches) {
        if (args.length == 0) {
            throw new IllegalArgumentException("missing subcommand: expected '" + SUBCOMMAND + "'");
        }
        if (!args[0].equals(SUBCOMMAND)) {
            throw new IllegalArgumentException(args[0].startsWith("-")
                    ? "missing subcommand: expected '" + SUBCOMMAND + "' before " + args[0]
                    : "unknown subcommand '" + args[0] + "': expected '" + SUBCOMMAND + "'");
        }
        for (int i = 1; i < args.length; i++) {
            String flag = args[i];
            if (SWITCHES.contains(flag)) {
                if (!switches.add(flag)) {
                    throw new IllegalArgumentException(flag + " is given twice");
                }
            } else if (VALUE_FLAGS.contains(flag)) {
                if (i + 1 == args.length || args[i + 1].startsWith("--")) {
                    throw new IllegalArgumentException("missing value for " + flag);
                }
                if (values.put(flag, args[++i]) != null) {
                    throw new IllegalArgumentException(flag + " is given twice");
                }
            } else {
                throw new IllegalArgumentException(flag.startsWith("-") ? "unknown flag " + flag
                        : "unexpected argument '" + flag + "'");
            }
        }
    }

    private static DatasetProfile profile(Map<String, String> values, Set<String> switches) {
        DatasetProfile.Builder profile = DatasetProfile.builder();
        if (!values.containsKey("--dataset-size")) {
            throw new IllegalArgumentException("missing --dataset-size: the dataset size, e.g. 54GB");
        }
        profile.totalBytes(positiveSize(values, "--dataset-size"));
        if (values.containsKey("--file-count") == values.containsKey("--avg-file-size")) {
            throw new IllegalArgumentException("give exactly one of --file-count or --avg-file-size");
        }
        if (values.containsKey("--file-count")) {
            profile.fileCount(wholeNumber(values, "--file-count", Long.MAX_VALUE));
        } else {
            profile.averageFileBytes(positiveSize(values, "--avg-file-size"));
        }
        if (values.containsKey("--access")) {
            profile.accessPattern(choice(values, "--access", AccessPattern.class));
        }
        if (values.containsKey("--epochs")) {
            profile.epochs((int) wholeNumber(values, "--epochs", Integer.MAX_VALUE));
        }
        if (values.containsKey("--data-on")) {
            profile.dataLocation(choice(values, "--data-on", DataLocation.class));
        }
        if (values.containsKey("--instance-type")) {
            profile.instanceType(values.get("--instance-type"));
        }
        if (values.containsKey("--instance-count")) {
            profile.instanceCount((int) wholeNumber(values, "--instance-count", Integer.MAX_VALUE));
        }
        if (values.containsKey("--training-hours") && values.containsKey("--samples-per-second")) {
            throw new IllegalArgumentException("give --training-hours or --samples-per-second, not both");
        }
        if (values.containsKey("--samples") && !values.containsKey("--samples-per-second")) {
            throw new IllegalArgumentException("--samples needs --samples-per-second");
        }
        if (values.containsKey("--training-hours")) {
            profile.trainingTime(Duration.ofMillis(Math.round(positiveNumber(values, "--training-hours") * MILLIS_PER_HOUR)));
        }
        if (values.containsKey("--samples-per-second")) {
            profile.samplesPerSecond(positiveNumber(values, "--samples-per-second"));
        }
        if (values.containsKey("--samples")) {
            profile.samples(wholeNumber(values, "--samples", Long.MAX_VALUE));
        }
        if (values.containsKey("--jobs")) {
            profile.jobs((int) wholeNumber(values, "--jobs", Integer.MAX_VALUE));
        }
        if (values.containsKey("--spot-interruptions")) {
            profile.spotInterruptions(nonNegativeNumber(values, "--spot-interruptions"));
        }
        if (values.containsKey("--hourly-price")) {
            profile.hourlyPriceUsd(positiveNumber(values, "--hourly-price"));
        }
        if (values.containsKey("--capacity-wait-hours")) {
            profile.capacityWait(Duration.ofMillis(Math.round(nonNegativeNumber(values, "--capacity-wait-hours")
                    * MILLIS_PER_HOUR)));
        }
        return profile.streamable(switches.contains("--streamable"))
                .warmPoolQuota(switches.contains("--warm-pool-quota")).build();
    }

    private static long positiveSize(Map<String, String> values, String flag) {
        long bytes;
        try {
            bytes = ByteSize.parse(values.get(flag));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(flag + ": " + e.getMessage(), e);
        }
        if (bytes < 1) {
            throw invalid(values, flag, "at least 1 byte");
        }
        return bytes;
    }

    private static long wholeNumber(Map<String, String> values, String flag, long max) {
        String allowed = "a whole number from 1 to " + max;
        long number;
        try {
            number = Long.parseLong(values.get(flag));
        } catch (NumberFormatException e) {
            throw invalid(values, flag, allowed);
        }
        if (number < 1 || number > max) {
            throw invalid(values, flag, allowed);
        }
        return number;
    }

    private static double positiveNumber(Map<String, String> values, String flag) {
        return number(values, flag, false);
    }

    private static double nonNegativeNumber(Map<String, String> values, String flag) {
        return number(values, flag, true);
    }

    /** The flag's value as a finite number greater than 0, or at least 0 when {@code zeroAllowed}. */
    private static double number(Map<String, String> values, String flag, boolean zeroAllowed) {
        String allowed = zeroAllowed ? "a number of at least 0" : "a number greater than 0";
        double number;
        try {
            number = new BigDecimal(values.get(flag)).doubleValue();
        } catch (NumberFormatException e) {
            throw invalid(values, flag, allowed);
        }
        if (!(zeroAllowed ? number >= 0 : number > 0) || Double.isInfinite(number)) {
            throw invalid(values, flag, allowed);
        }
        return number;
    }

    private static String prices() {
        StringBuilder prices = new StringBuilder();
        PublishedFigures.INSTANCES.forEach((type, facts) -> prices.append(prices.length() == 0 ? "" : ", ")
                .append(type).append('=').append(HumanReadable.price(facts.hourlyUsd())));
        return prices.toString().replace("$", "");
    }

    private static IllegalArgumentException invalid(Map<String, String> values, String flag, String allowed) {
        return new IllegalArgumentException(flag + " must be " + allowed + ", was '" + values.get(flag) + "'");
    }

    private static <E extends Enum<E>> E choice(Map<String, String> values, String flag, Class<E> type) {
        String text = values.get(flag);
        for (E constant : type.getEnumConstants()) {
            if (constant.name().equalsIgnoreCase(text)) {
                return constant;
            }
        }
        List<String> allowed = List.of(type.getEnumConstants()).stream()
                .map(constant -> constant.name().toLowerCase(Locale.ROOT)).toList();
        throw invalid(values, flag, String.join(" or ", allowed));
    }
}
