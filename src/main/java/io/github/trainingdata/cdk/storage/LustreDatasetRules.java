package io.github.trainingdata.cdk.storage;

import io.github.trainingdata.cdk.internal.KeyPrefix;
import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.SynthRule;
import io.github.trainingdata.cdk.limits.FsxLimits;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import software.amazon.awscdk.Token;
import software.constructs.IConstruct;

/**
 * The data repository association rules a {@link LustreCache}'s datasets must follow (FSx API reference,
 * CreateDataRepositoryAssociation): 1 to 8 per file system, a unique file-system path and a unique S3
 * location each, S3 locations that do not nest in one bucket (the library's rule: FSx documents none for nested
 * prefixes), file-system paths that do not nest, {@code /} only for a single association, chunk sizes
 * of 1–512000 MiB ({@link FsxLimits}). Tokens are never rejected.
 */
final class LustreDatasetRules {
    static final SynthRule DIRECTORY_BUCKET = SynthRule.of("LUSTRE_DATASET_DIRECTORY_BUCKET", "LustreCache",
            "datasets[i].dataBucket",
            "a general purpose bucket (a directory bucket is read with S3ExpressStore and an S3 channel)",
            "library (a data repository association links a general purpose bucket; FSx for Lustre documents no "
                    + "directory bucket as a data repository)");
    static final SynthRule COUNT = SynthRule.of("DATASET_COUNT", "LustreCache dataset", "datasets",
            "1 to 8 datasets",
            "FSx API reference, CreateDataRepositoryAssociation (at most 8 per file system)");
    static final SynthRule BUCKET = SynthRule.of("DATASET_BUCKET", "LustreCache dataset", "datasets[i].dataBucket",
            "the TrainingDataBucket the association links",
            "library");
    static final SynthRule LOCATION_UNIQUE = SynthRule.of("DATASET_LOCATION_UNIQUE", "LustreCache dataset",
            "datasets[i].prefix",
            "an S3 location no other dataset links",
            "FSx API model (botocore fsx/2018-03-01), CreateDataRepositoryAssociation (one association per bucket or prefix)");
    static final SynthRule LOCATION_NESTING = SynthRule.of("DATASET_LOCATION_NESTING", "LustreCache dataset",
            "datasets[i].prefix",
            "an S3 location that neither contains nor lies inside another dataset's in the same bucket",
            "library: FSx asks for \"a unique S3 bucket or prefix\" per association and documents nothing on nested "
                    + "prefixes (CreateDataRepositoryAssociation); nested locations would load the same objects twice and "
                    + "export the same keys from two associations");
    static final SynthRule NAME_FORMAT = SynthRule.of("DATASET_NAME", "LustreCache dataset", "datasets[i].name",
            "1 to 32 of [A-Za-z0-9_-], starting with a letter or digit",
            "library (construct ids and outputs)");
    static final SynthRule NAME_UNIQUE = SynthRule.of("DATASET_NAME_UNIQUE", "LustreCache dataset", "datasets[i].name",
            "a name no other dataset uses",
            "library");
    static final SynthRule PATH = SynthRule.of("DATASET_PATH", "LustreCache dataset", "datasets[i].fileSystemPath",
            "'/' or an absolute path without empty, '.' or '..' segments, at most 4096",
            "FSx API model (botocore fsx/2018-03-01), CreateDataRepositoryAssociation (FileSystemPath)");
    static final SynthRule PATH_ROOT_ALONE = SynthRule.of("DATASET_PATH_ROOT_ALONE", "LustreCache dataset",
            "datasets[i].fileSystemPath",
            "a directory below '/' with more than one dataset",
            "FSx API reference, CreateDataRepositoryAssociation (FileSystemPath)");
    static final SynthRule PATH_NESTING = SynthRule.of("DATASET_PATH_NESTING", "LustreCache dataset",
            "datasets[i].fileSystemPath",
            "a path that neither equals nor nests with another dataset's",
            "FSx API reference, CreateDataRepositoryAssociation (no overlapping FileSystemPath)");
    static final SynthRule CHUNK_SIZE = SynthRule.of("DATASET_CHUNK_SIZE", "LustreCache dataset",
            "datasets[i].importedFileChunkSizeMiB",
            "1 to 512000 MiB",
            "FSx API model (botocore fsx/2018-03-01), CreateDataRepositoryAssociation (ImportedFileChunkSize)");
    static final SynthRule EVENTS = SynthRule.of("DATASET_EVENTS", "LustreCache dataset", "datasets[i] events",
            "each of NEW, CHANGED and DELETED at most once",
            "FSx API model (botocore fsx/2018-03-01), CreateDataRepositoryAssociation (AutoImportPolicy.Events)");
    static final SynthRule KNOWN = SynthRule.of("DATASET_KNOWN", "LustreCache dataset", "dataset",
            "one of the cache's datasets",
            "library");

    static final int MAX_DATASETS = 8;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,31}");
    private static final Pattern PATH_CHARACTERS = Pattern.compile("[^\\x00-\\x1f\\x7f\\u0085\\u2028\\u2029]*");

    private final IConstruct scope;

    LustreDatasetRules(IConstruct scope) {
        this.scope = scope;
    }

    /** Checks every dataset alone and against the others. */
    void check(List<LustreDataset> datasets) {
        if (datasets == null || datasets.isEmpty() || datasets.size() > MAX_DATASETS) {
            throw ConfigurationError.of(COUNT, scope,
                    "datasets", datasets == null ? null : datasets.size() + " datasets",
                    "1 to " + MAX_DATASETS + " datasets (one data repository association each)");
        }
        Set<String> names = new HashSet<>();
        Set<String> locations = new HashSet<>();
        List<LustreDataset> earlier = new ArrayList<>();
        List<String> paths = new ArrayList<>();
        for (int i = 0; i < datasets.size(); i++) {
            LustreDataset dataset = datasets.get(i);
            String field = "datasets[" + i + "]";
            checkName(field, dataset.getName(), names);
            if (dataset.getDataBucket() == null) {
                throw ConfigurationError.of(BUCKET, scope,
                        field + ".dataBucket", null, "the TrainingDataBucket whose dataset "
                        + "prefix the association links");
            }
            if (dataset.getDataBucket().isDirectoryBucket()) {
                throw ConfigurationError.of(DIRECTORY_BUCKET, scope, field + ".dataBucket",
                        dataset.getDataBucket().getBucketName(), "a general purpose bucket: a directory bucket is "
                        + "read with S3ExpressStore and an S3 channel or a direct read, not through a Lustre cache");
            }
            KeyPrefix.check(scope, field + ".prefix", dataset.getPrefix());
            checkPath(field + ".fileSystemPath", dataset.getFileSystemPath());
            checkChunkSize(field + ".importedFileChunkSizeMiB", dataset.getImportedFileChunkSizeMiB());
            checkEvents(field + ".autoImport", dataset.getAutoImport());
            checkEvents(field + ".autoExport", dataset.getAutoExport());
            // The same bucket token means the same bucket; different tokens may still be one bucket (not rejected).
            if (!locations.add(dataset.getDataBucket().getBucketName() + "|" + dataset.getKeyPrefix())) {
                throw ConfigurationError.of(LOCATION_UNIQUE, scope,
                        field + ".prefix", dataset.getKeyPrefix(), "an S3 location no other "
                        + "dataset of the cache links (FSx allows one association per S3 bucket or prefix)");
            }
            checkLocationNesting(field + ".prefix", dataset, earlier);
            earlier.add(dataset);
            checkNesting(field + ".fileSystemPath", dataset.getFileSystemPath(), paths, datasets.size());
            paths.add(dataset.getFileSystemPath());
        }
    }

    /** Settings that only shape a new association, rejected for an existing file system's datasets. */
    void rejectNewAssociationSettings(List<LustreDataset> datasets) {
        for (int i = 0; i < datasets.size(); i++) {
            NewResourceSettings.rejectWithExisting(scope, datasets.get(i), "datasets[" + i + "].", "existingFileSystem",
                    "file system's association", "new-association",
                    Set.of("name", "dataBucket", "prefix", "keyPrefix", "s3Uri", "fileSystemPath"));
        }
    }

    private void checkName(String field, String name, Set<String> names) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw ConfigurationError.of(NAME_FORMAT, scope, field + ".name", name,
                    "1 to 32 characters of [A-Za-z0-9_-], starting with a letter or digit");
        }
        if (!names.add(name)) {
            throw ConfigurationError.of(NAME_UNIQUE, scope,
                    field + ".name", name, "a name no other dataset of the cache uses");
        }
    }

    private void checkPath(String field, String path) {
        if (path == null || Token.isUnresolved(path)) {
            return;
        }
        boolean root = path.equals("/");
        boolean wellFormed = path.startsWith("/") && (root || !path.endsWith("/"))
                && PATH_CHARACTERS.matcher(path).matches() && FsxLimits.FILE_SYSTEM_PATH.accepts(path)
                && (root || Arrays.stream(path.substring(1).split("/", -1))
                        .noneMatch(s -> s.isEmpty() || s.equals(".") || s.equals("..")));
        if (!wellFormed) {
            throw ConfigurationError.of(PATH, scope, field, path, "'/' or an absolute path /<segment>[/<segment>...] "
                    + "without a trailing '/', empty, '.' or '..' segments or control characters, at most "
                    + FsxLimits.FILE_SYSTEM_PATH.getMax() + " characters");
        }
    }

    private void checkNesting(String field, String path, List<String> earlier, int count) {
        if (Token.isUnresolved(path)) {
            return;
        }
        if (path.equals("/") && count > 1) {
            throw ConfigurationError.of(PATH_ROOT_ALONE, scope,
                    field, path, "a directory below '/' when the cache has more than one "
                    + "dataset ('/' links the whole file system and allows only one association)");
        }
        for (String other : earlier) {
            if (Token.isUnresolved(other)) {
                continue;
            }
            if (other.equals(path) || (path + "/").startsWith(other + "/") || (other + "/").startsWith(path + "/")) {
                throw ConfigurationError.of(PATH_NESTING, scope,
                        field, path, "a file-system path that neither equals nor nests "
                        + "with another dataset's (" + other + "): FSx allows no overlapping association paths");
            }
        }
    }

    /**
     * Two locations of one bucket nest when one key prefix is the other's parent (the bucket root contains every
     * prefix). Only the same bucket token is known to be the same bucket; an unresolved prefix is not compared.
     */
    private void checkLocationNesting(String field, LustreDataset dataset, List<LustreDataset> earlier) {
        String prefix = dataset.getKeyPrefix();
        if (Token.isUnresolved(prefix)) {
            return;
        }
        for (LustreDataset other : earlier) {
            String otherPrefix = other.getKeyPrefix();
            if (!other.getDataBucket().getBucketName().equals(dataset.getDataBucket().getBucketName())
                    || Token.isUnresolved(otherPrefix)) {
                continue;
            }
            if (prefix.isEmpty() || otherPrefix.isEmpty() || (prefix + "/").startsWith(otherPrefix + "/")
                    || (otherPrefix + "/").startsWith(prefix + "/")) {
                throw ConfigurationError.of(LOCATION_NESTING, scope, field, prefix, "an S3 location that neither "
                        + "contains nor lies inside another dataset's in the same bucket (dataset '" + other.getName()
                        + "' links " + other.getS3Uri() + "): nested locations would load the same objects into two "
                        + "directories and export the same keys from two associations; link one of them, or give each "
                        + "its own prefix");
            }
        }
    }

    private void checkChunkSize(String field, Number chunkMiB) {
        if (chunkMiB != null && !Token.isUnresolved(chunkMiB) && !FsxLimits.IMPORTED_FILE_CHUNK_SIZE.acceptsNumber(chunkMiB)) {
            throw ConfigurationError.of(CHUNK_SIZE, scope,
                    field, chunkMiB, FsxLimits.IMPORTED_FILE_CHUNK_SIZE.allowed());
        }
    }

    private void checkEvents(String field, List<DataRepositoryEvent> events) {
        if (events != null && new HashSet<>(events).size() != events.size()) {
            throw ConfigurationError.of(EVENTS, scope, field, events, "each of NEW, CHANGED and DELETED at most once");
        }
    }
}
