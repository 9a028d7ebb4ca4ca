package io.github.trainingdata.cdk.internal;

import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.SynthRule;
import io.github.trainingdata.cdk.limits.SageMakerLimits;
import software.amazon.awscdk.Token;
import software.constructs.IConstruct;

/**
 * Checks directories of an EFS file system as SageMaker's {@code DirectoryPath} takes them: absolute from the
 * file system's root (e.g. {@code /datasets/train}), without {@code ..} or empty segments, within
 * {@link SageMakerLimits#DIRECTORY_PATH}. Unresolved tokens are accepted as they are.
 */
public final class EfsDirectoryPath {
    public static final SynthRule REQUIRED = SynthRule.of("EFS_PATH_REQUIRED", "EfsStore, EfsChannel",
            "directory, directoryPath",
            "an absolute path from the EFS root",
            "library");
    public static final SynthRule FORMAT = SynthRule.of("EFS_PATH_FORMAT", "EfsStore, EfsChannel",
            "directory, directoryPath",
            "absolute, without '..' or empty segments, at most 4096",
            "SageMaker API model (botocore sagemaker/2017-07-24), FileSystemDataSource.DirectoryPath");

    /** Longest DirectoryPath the SageMaker API accepts (4096). */
    public static final int MAX_LENGTH = SageMakerLimits.DIRECTORY_PATH.getMax().intValue();

    private EfsDirectoryPath() {
    }

    /**
     * Returns {@code path} when valid (or an unresolved token), else throws.
     *
     * @param scope the construct whose prop it is, named in the error
     * @param field the prop's name, named in the error
     * @param path  the directory to check
     * @return the path
     * @throws ConfigurationError when the path is not valid
     */
    public static String check(IConstruct scope, String field, String path) {
        if (path == null) {
            throw ConfigurationError.of(REQUIRED, scope,
                    field, null, "an absolute path from the EFS root such as /datasets/train");
        }
        if (Token.isUnresolved(path)) {
            return path;
        }
        boolean escapes = path.contains("/../") || path.endsWith("/..") || path.contains("//");
        if (!path.startsWith("/") || escapes || !SageMakerLimits.DIRECTORY_PATH.accepts(path)) {
            throw ConfigurationError.of(FORMAT, scope, field, path, "an absolute path from the EFS root such as "
                    + "/datasets/train, without '..' or empty segments, " + SageMakerLimits.DIRECTORY_PATH.allowed());
        }
        return path;
    }
}
