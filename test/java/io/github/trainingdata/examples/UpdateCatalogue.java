package io.github.trainingdata.examples;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.github.trainingdata.cdk.Json;
import io.github.trainingdata.cdk.Snapshots;
import io.github.trainingdata.cdk.TestApps;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.storage.DataRepositoryEvent;
import io.github.trainingdata.cdk.storage.LustreCache;
import io.github.trainingdata.cdk.storage.LustreCacheProps;
import io.github.trainingdata.cdk.storage.LustreDataset;
import io.github.trainingdata.cdk.storage.LustreVersion;
import io.github.trainingdata.cdk.storage.TrainingDataBucket;
import io.github.trainingdata.cdk.training.CapacityPolicy;
import io.github.trainingdata.cdk.training.CapacityStep;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.efs.PerformanceMode;

/**
 * The update rehearsal's catalogue: the routine changes a platform team makes, each applied to every example app
 * that has the setting, synthesized before and after in one JVM (jsii's start-up costs seconds per JVM). The
 * composition app runs three times: with CDK's strong cross-stack references (exports and {@code Fn::ImportValue}),
 * with weak ones ({@code Fn::GetStackOutput}, cdk.json's choice) and with none set (aws-cdk-lib: strong); its data
 * stack's changes include each replacement of the shared cache. The previous release wrote the same templates for
 * unset and strong references, so {@code release-baseline/composition-unset} is a copy of
 * {@code composition-strong}.
 *
 * <p>Writes {@code <dir>/<app>/base} (the app as it ships), {@code <dir>/<app>/<change>} (one cloud assembly per
 * change), {@code <dir>/<app>/release} (the templates of the last release, {@code test/resources/release-baseline},
 * before the library upgrade) and {@code <dir>/catalogue.json}, which {@code bash .ci/rehearse --catalogue <dir>}
 * reads. Each change declares whether it should re-warm the cache.
 *
 * <p>Run: {@code mvn -B -q test-compile exec:java -Dexample.mainClass=io.github.trainingdata.examples.UpdateCatalogue
 * -Dexec.args="target/update-rehearsal"}. With {@code -Dexec.args="--baseline test/resources/release-baseline"} it
 * writes each app's templates as they ship (asset hashes normalized, as in snapshots) as the new release baseline.
 */
public final class UpdateCatalogue {
    private static final Path BASELINE = Path.of("test", "resources", "release-baseline");
    private static final String REFERENCES = "@aws-cdk/core:defaultCrossStackReferences";
    /** An app that leaves the reference strength unset (aws-cdk-lib then behaves as strong), unlike cdk.json. */
    private static final String UNSET = "unset";
    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() { };

    /** An app's settings: its data layer and its definitions (the composition: one per team). */
    private record Settings(DataSettings data, List<TrainingSettings> jobs) {
        Settings withData(UnaryOperator<DataSettings> change) {
            return new Settings(change.apply(data), jobs);
        }

        /** The change applied to the first definition (in the composition, the vision team's). */
        Settings withJob(UnaryOperator<TrainingSettings> change) {
            List<TrainingSettings> changed = new ArrayList<>(jobs);
            changed.set(0, change.apply(jobs.get(0)));
            return new Settings(data, changed);
        }

        Settings withAnotherJob(String name, String prefix) {
            List<TrainingSettings> changed = new ArrayList<>(jobs);
            changed.add(jobs.get(0).named(name, prefix));
            return new Settings(data, changed);
        }

        /** Adds a team that reads S3 only, in the data stack's network (the composition's SharedTrainingStack). */
        Settings withS3Team() {
            List<TrainingSettings> changed = new ArrayList<>(jobs);
            changed.add(new TrainingSettings("Tabular", "xgb", null, "2.5.1-cpu-py311", "ml.m5.4xlarge", 1, Map.of(),
                    false, null, null, null, null));
            return new Settings(data, changed);
        }
    }

    /** Builds an example app's stacks with the given settings. */
    private interface Example {
        List<Stack> build(App app, Settings settings);
    }

    /**
     * One change: its id, what it does, whether it should re-warm, how it changes the settings (with {@code from},
     * starting from those settings instead of the app's defaults), and the findings the rehearsal must report for it
     * (a change the library cannot make safe; empty for a routine change).
     */
    private record Change(String id, String description, boolean rewarm, UnaryOperator<Settings> from,
            UnaryOperator<Settings> apply, List<String> expectedFindings) {
        Change(String id, String description, boolean rewarm, UnaryOperator<Settings> apply) {
            this(id, description, rewarm, null, apply, List.of());
        }

        Change(String id, String description, boolean rewarm, UnaryOperator<Settings> apply,
                List<String> expectedFindings) {
            this(id, description, rewarm, null, apply, expectedFindings);
        }

        Change(String id, String description, boolean rewarm, UnaryOperator<Settings> from,
                UnaryOperator<Settings> apply) {
            this(id, description, rewarm, from, apply, List.of());
        }
    }

    /** An example app as the catalogue runs it, with the changes that apply to it. */
    private record CatalogueApp(String id, String references, Example example, Settings defaults,
            List<Change> changes) {
    }

    private UpdateCatalogue() {
    }

    /**
     * Writes the catalogue (or, with {@code --baseline DIR}, the release baseline).
     *
     * @param args the output directory (default {@code target/update-rehearsal}), or {@code --baseline DIR}
     */
    public static void main(String[] args) throws IOException {
        long start = System.nanoTime();
        if (args.length == 2 && args[0].equals("--baseline")) {
            writeBaseline(Path.of(args[1]));
            return;
        }
        Path out = Path.of(args.length > 0 ? args[0] : "target/update-rehearsal");
        deleteTree(out);
        List<Map<String, Object>> entries = new ArrayList<>();
        for (CatalogueApp app : apps()) {
            synth(app, app.defaults(), out.resolve(app.id()).resolve("base"));
            for (Change change : app.changes()) {
                String before = "base";
                if (change.from() != null) {
                    before = change.id() + "-before";
                    synth(app, change.from().apply(app.defaults()), out.resolve(app.id()).resolve(before));
                }
                synth(app, change.apply().apply(app.defaults()), out.resolve(app.id()).resolve(change.id()));
                Map<String, Object> entry = entry(app, change.id(), change.description(), before, change.id(),
                        change.rewarm(), true);
                if (!change.expectedFindings().isEmpty()) {
                    entry.put("expectedFindings", change.expectedFindings());
                }
                entries.add(entry);
            }
            // A failed first deploy: CloudFormation deletes what it created, so no bucket may be one S3 refuses to
            // delete once an object (an upload, an access log) is in it (.ci/rehearse.py: rollback-undeletable).
            Files.createDirectories(out.resolve(app.id()).resolve("none"));
            entries.add(entry(app, "first-create-rolled-back", "a first deploy that fails after objects reached the "
                    + "buckets, and rolls back", "none", "base", true, true));
            if (!Files.isDirectory(BASELINE.resolve(app.id()))) {
                continue;   // an example new in this release: no deployed templates to upgrade from
            }
            Path release = out.resolve(app.id()).resolve("release");
            copyTree(BASELINE.resolve(app.id()), release);
            entries.add(entry(app, "library-upgrade", "upgrade the library: the last release's templates "
                    + "(test/resources/release-baseline) to this build's", "release", "base", false, false));
        }
        Json.MAPPER.writer(SerializationFeature.INDENT_OUTPUT).writeValue(out.resolve("catalogue.json").toFile(),
                Map.of("changes", entries));
        System.out.printf("catalogue: %d changes of %d apps synthesized in %.1f s (%.1f s CPU with jsii's node) "
                + "into %s%n", entries.size(), apps().size(), (System.nanoTime() - start) / 1e9, cpuSeconds(), out);
    }

    /** CPU time of this JVM and its child processes (jsii's node), so far. */
    private static double cpuSeconds() {
        ProcessHandle self = ProcessHandle.current();
        return Stream.concat(Stream.of(self), self.descendants())
                .mapToLong(p -> p.info().totalCpuDuration().map(java.time.Duration::toMillis).orElse(0L))
                .sum() / 1e3;
    }

    /** The example apps and the routine changes each has the settings for. */
    static List<CatalogueApp> apps() {
        Example quickstart = (app, s) -> List.of(
                new QuickstartStack(app, "TrainingDataQuickstart", null, s.data(), s.jobs()));
        Example advised = (app, s) -> List.of(
                new AdvisedPlatformStack(app, "TrainingDataAdvisedPlatform", null, s.data(), s.jobs().get(0)));
        Example composition = (app, s) -> PlatformCompositionApp.build(app, s.data(), s.jobs());
        Example throughput = (app, s) -> List.of(
                new ThroughputPlatformStack(app, "TrainingDataThroughputPlatform", null, s.data(), s.jobs().get(0)));
        // What crosses stacks goes from the data stack to the teams' stacks: the data stack's changes and a new team
        // run under both reference modes; a team's own settings change only its stack, so strong references suffice.
        List<Change> crossing = new ArrayList<>(data(4800, "imagenet", "imagenet-2026"));
        crossing.add(new Change("add-dataset", "add a dataset (places365); the preload warms every dataset", true,
                s -> s.withData(d -> d.withDataset("places365", "places365"))));
        crossing.add(new Change("remove-dataset", "remove the dataset no team reads (openimages)", true,
                s -> s.withData(d -> d.withoutDataset("openimages"))));
        crossing.add(new Change("add-definition", "add a team's stack (segmentation on imagenet), held back too",
                false, s -> s.withAnotherJob("Segmentation", "segformer")));
        // Replacements of the shared cache: the teams' stacks read it at run time, so nothing they import or read
        // at deploy time changes and none of them is deployed again.
        crossing.add(new Change("move-cache-az", "move the cache to another Availability Zone (us-east-1a -> b): a "
                + "new file system in the other data subnet", true,
                s -> s.withData(d -> d.withDataAvailabilityZone("us-east-1b"))));
        // A data-AZ move with a team that reads S3 only in the data stack's network: its definition reads the data
        // subnet and training group from the network's publication, so its stack does not change either.
        crossing.add(new Change("move-data-az-s3-team", "move the data AZ (us-east-1a -> b: another data subnet, a "
                + "new cache) with a team that reads S3 only in the data stack's network", true,
                Settings::withS3Team, s -> s.withS3Team().withData(d -> d.withDataAvailabilityZone("us-east-1b"))));
        crossing.add(new Change("scratch-to-persistent", "SCRATCH_2 -> PERSISTENT_2 at 500 MB/s per TiB: a new file "
                + "system", true, s -> s.withData(d -> d.withLustrePerUnitStorageThroughput(500))));
        crossing.add(new Change("persistent-tier", "PERSISTENT_2 tier 500 -> 1000 MB/s per TiB, which CloudFormation's "
                + "resource specification treats as a replacement (.ci/rehearse.json)", true,
                s -> s.withData(d -> d.withLustrePerUnitStorageThroughput(500)),
                s -> s.withData(d -> d.withLustrePerUnitStorageThroughput(1000))));
        crossing.add(new Change("lustre-version", "upgrade the Lustre version (2.12 -> 2.15) in place (FSx "
                + "UpdateFileSystem; not create-only in us-east-1's registry schema)", false,
                s -> s.withData(d -> d.withLustreVersion(LustreVersion.V2_12)), s -> s));
        // A replacement of a new EFS store the teams read: PerformanceMode is create-only (a new file system, a new
        // id), published at run time like the cache, so no team's stack changes; the cache is not re-warmed.
        crossing.add(new Change("efs-performance-mode", "the features store as a new EFS file system, its "
                + "performance mode generalPurpose -> maxIO: a new file system", false,
                s -> s.withData(d -> d.withEfsPerformanceMode(PerformanceMode.GENERAL_PURPOSE)),
                s -> s.withData(d -> d.withEfsPerformanceMode(PerformanceMode.MAX_IO))));
        List<Change> composed = new ArrayList<>(crossing);
        composed.addAll(training("checkpoints/resnet"));
        List<Change> quick = new ArrayList<>(data(2400, "imagenet", "v2"));
        quick.addAll(training("checkpoints/quickstart"));
        quick.add(new Change("add-definition", "add a definition (evaluation) on the same data, held back too",
                false, s -> s.withAnotherJob("Evaluation", "quickstart-eval")));
        // The stack's one teardown gets an Update that no longer lists the definition and stops what it runs; the
        // definition's own resources (its grants to the provider among them) are deleted in the cleanup, after it.
        quick.add(new Change("remove-definition", "remove a definition (evaluation): the stack's teardown stops what "
                + "it runs before its resources are deleted", false,
                s -> s.withAnotherJob("Evaluation", "quickstart-eval"), s -> s));
        List<Change> advisedChanges = new ArrayList<>(List.of(new Change("grow-cache",
                "pin the cache's capacity above the platform's estimate (2400 -> 4800 GiB)", false,
                s -> s.withData(d -> d.withLustreCapacityGiB(4800)))));
        advisedChanges.addAll(training("checkpoints/advised"));
        // A PERSISTENT_2 cache: its capacity grows in place; a tier change replaces it (CloudFormation's resource
        // specification, although UpdateFileSystemLustreConfiguration could change it); switching it to SCRATCH_2
        // would replace it too, and is no routine change.
        List<Change> throughputChanges = new ArrayList<>(List.of(
                new Change("raise-tier", "raise the PERSISTENT_2 throughput tier (500 -> 1000 MB/s per TiB): "
                        + "CloudFormation replaces the cache", true,
                        s -> s.withData(d -> d.withLustrePerUnitStorageThroughput(1000))),
                new Change("lower-tier", "lower the PERSISTENT_2 throughput tier (500 -> 250 MB/s per TiB): "
                        + "CloudFormation replaces the cache", true,
                        s -> s.withData(d -> d.withLustrePerUnitStorageThroughput(250))),
                new Change("grow-cache", "grow the PERSISTENT_2 cache (2400 -> 4800 GiB)", false,
                        s -> s.withData(d -> d.withLustreCapacityGiB(4800))),
                // Removing the IOPS asks FSx to switch USER_PROVISIONED to AUTOMATIC (the platform states AUTOMATIC;
                // a LustreCache refuses the removal at synth until metadataMode is stated), which FSx rejects when the
                // provisioned IOPS exceed AUTOMATIC's for the capacity: the rehearsal must say so.
                new Change("remove-metadata-iops", "remove the provisioned metadata IOPS (12000 -> AUTOMATIC)", false,
                        s -> s.withData(d -> d.withLustreMetadataIops(null)), List.of("metadata-automatic"))));
        throughputChanges.addAll(training("checkpoints/pretrain"));
        // A cache at FSx's limit of 8 associations that exports (so it is retained): a removed dataset's association
        // must leave the file system, not stay retained and count toward the 8 for good.
        Example exporting = (app, s) -> List.of(exportingCache(app, s.data()));
        Map<String, String> eight = new LinkedHashMap<>();
        for (int i = 1; i <= 8; i++) {
            eight.put("shard" + i, "shards/" + i);
        }
        List<Change> exportingChanges = List.of(new Change("remove-exported-dataset", "remove one of the 8 datasets of "
                + "an exporting (retained) cache", false, s -> s.withData(d -> d.withoutDataset("shard8"))));
        return List.of(
                new CatalogueApp("quickstart", null, quickstart, new Settings(QuickstartStack.DATA,
                        List.of(QuickstartStack.TRAINING)), quick),
                new CatalogueApp("advised", null, advised, new Settings(AdvisedPlatformStack.DATA,
                        List.of(AdvisedPlatformStack.TRAINING)), advisedChanges),
                new CatalogueApp("composition-strong", "strong", composition, new Settings(PlatformCompositionApp.DATA,
                        PlatformCompositionApp.TEAMS), composed),
                new CatalogueApp("composition-weak", "weak", composition, new Settings(PlatformCompositionApp.DATA,
                        PlatformCompositionApp.TEAMS), crossing),
                new CatalogueApp("composition-unset", UNSET, composition, new Settings(PlatformCompositionApp.DATA,
                        PlatformCompositionApp.TEAMS), crossing),
                new CatalogueApp("throughput", null, throughput, new Settings(ThroughputPlatformStack.DATA,
                        List.of(ThroughputPlatformStack.TRAINING)), throughputChanges),
                new CatalogueApp("exporting-cache", null, exporting, new Settings(new DataSettings(1200, eight, null,
                        List.of(), null, null), List.of()), exportingChanges));
    }

    /** A data stack with a SCRATCH_2 cache whose every dataset exports new, changed and deleted files. */
    private static Stack exportingCache(App app, DataSettings data) {
        Stack stack = new Stack(app, "TrainingDataExportingCache");
        TrainingNetwork network = new TrainingNetwork(stack, "Network");
        TrainingDataBucket bucket = new TrainingDataBucket(stack, "Data");
        List<DataRepositoryEvent> all = List.of(DataRepositoryEvent.NEW, DataRepositoryEvent.CHANGED,
                DataRepositoryEvent.DELETED);
        new LustreCache(stack, "Cache", LustreCacheProps.builder().network(network).storageCapacityGiB(
                data.lustreCapacityGiB()).datasets(data.datasets().entrySet().stream().map(d -> LustreDataset.builder(
                        d.getKey()).dataBucket(bucket).prefix(d.getValue()).autoExport(all).build()).toList()).build());
        return stack;
    }

    /** The data layer's routine changes (the cache grows to {@code grownGiB}; {@code dataset} moves to a prefix). */
    private static List<Change> data(int grownGiB, String dataset, String movedPrefix) {
        return List.of(
                new Change("grow-cache", "grow the cache to " + grownGiB + " GiB", false,
                        s -> s.withData(d -> d.withLustreCapacityGiB(grownGiB))),
                new Change("move-dataset-prefix", "change " + dataset + "'s S3 prefix in place (-> " + movedPrefix
                        + ")", true, s -> s.withData(d -> d.withDataset(dataset, movedPrefix))),
                new Change("bump-dataset-version", "bump datasetVersion after uploading new data", true,
                        s -> s.withData(d -> d.withDatasetVersion("2026-11-25"))),
                new Change("add-efs-directory", "add an EFS directory (/features/v2)", false,
                        s -> s.withData(d -> d.withEfsDirectory("/features/v2"))),
                new Change("preload-timeouts", "change the preload's time limits (6 h, import 2 h)", false,
                        s -> s.withData(d -> d.withPreloadTimeouts(Duration.hours(6), Duration.hours(2)))));
    }

    /**
     * The capacity policy the routine change adds: wait 10 minutes, twice (valid for every example; an S3 fallback is
     * not, since the composition's team reads an existing EFS file system). The throughput example has a policy with
     * an S3 fallback, which the change removes.
     */
    private static final CapacityPolicy ROUTINE_POLICY = CapacityPolicy.of(List.of(
            CapacityStep.waitAndRetry(Duration.minutes(10), 2)));

    /** The definition's routine changes; none should re-warm the cache. */
    private static List<Change> training(String checkpoints) {
        return List.of(
                new Change("training-image", "a new training image tag", false,
                        s -> s.withJob(j -> j.withImageTag("2.6.0-gpu-py312"))),
                new Change("instance-type", "another instance type", false,
                        s -> s.withJob(j -> j.withInstanceType("ml.p5.48xlarge"))),
                new Change("instance-count", "twice the instances", false,
                        s -> s.withJob(j -> j.withInstanceCount(j.instanceCount() * 2))),
                new Change("hyperparameters", "another hyperparameter value", false,
                        s -> s.withJob(j -> j.withHyperParameter("epochs", "30"))),
                new Change("spot-with-checkpoints", "train on spot capacity with checkpoints", false,
                        s -> s.withJob(j -> j.withSpot(checkpoints))),
                new Change("warm-pool", "keep a warm pool for 10 minutes", false,
                        s -> s.withJob(j -> j.withKeepAlive(Duration.minutes(10)))),
                new Change("job-name-prefix", "rename the job-name prefix", false,
                        s -> s.withJob(j -> j.withJobNamePrefix(j.jobNamePrefix() + "-v2"))),
                new Change("capacity-policy", "add a capacity policy (wait twice); remove it where there is one",
                        false, s -> s.withJob(j -> j.withCapacityPolicy(j.capacityPolicy() == null ? ROUTINE_POLICY
                                : null))));
    }

    private static Map<String, Object> entry(CatalogueApp app, String change, String description, String before,
            String after, boolean rewarm, boolean mustChange) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("id", app.id() + "/" + change);
        entry.put("description", description);
        entry.put("before", app.id() + "/" + before);
        entry.put("after", app.id() + "/" + after);
        entry.put("rewarm", rewarm ? "yes" : "no");
        entry.put("mustChange", mustChange);
        return entry;
    }

    /** Synthesizes the app into {@code dir} (a cloud assembly), without its asset files. */
    private static List<Stack> synth(CatalogueApp app, Settings settings, Path dir) throws IOException {
        Map<String, Object> context = TestApps.context();
        // The examples' warnings (imported keys) are known; the report stays in the assembly, not on the console.
        context.put("@aws-cdk/core:failSynthOnValidationErrors", false);
        if (UNSET.equals(app.references())) {
            context.remove(REFERENCES);
        } else if (app.references() != null) {
            context.put(REFERENCES, app.references());
        }
        App cdk = new App(AppProps.builder().outdir(dir.toString()).context(context).build());
        List<Stack> stacks = app.example().build(cdk, settings);
        cdk.synth();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path asset : files.filter(f -> f.getFileName().toString().startsWith("asset.")).toList()) {
                deleteTree(asset);
            }
        }
        return stacks;
    }

    private static void writeBaseline(Path dir) throws IOException {
        for (CatalogueApp app : apps()) {
            Path appDir = dir.resolve(app.id());
            deleteTree(appDir);
            Files.createDirectories(appDir);
            Path assembly = Files.createTempDirectory("baseline");
            for (Stack stack : synth(app, app.defaults(), assembly)) {
                Files.writeString(appDir.resolve(stack.getStackName() + ".template.json"), Snapshots.normalize(
                        Json.MAPPER.readValue(assembly.resolve(stack.getTemplateFile()).toFile(), MAP)));
            }
            deleteTree(assembly);
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path file : files.toList()) {
                Files.copy(file, to.resolve(file.getFileName()));
            }
        }
    }

    private static void deleteTree(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(path)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
