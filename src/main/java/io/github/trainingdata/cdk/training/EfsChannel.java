package io.github.trainingdata.cdk.training;

import io.github.trainingdata.cdk.limits.SageMakerLimits;
import io.github.trainingdata.cdk.internal.EfsDirectoryPath;
import io.github.trainingdata.cdk.storage.EfsStore;
import java.util.Objects;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.Token;
import software.constructs.IConstruct;

/**
 * An EFS channel (the SageMaker Python SDK's {@code FileSystemInput} with {@code EFS}): an absolute
 * directory of an {@link EfsStore}, mounted in File mode. The directory must exist before training
 * starts: the definition registers it with the store ({@link EfsStore#addDirectory}), which creates it during
 * the deploy, and deploys after it. A One Zone file system pins training to its Availability Zone.
 */
public final class EfsChannel extends FileSystemChannel {
    /** Longest DirectoryPath the API accepts. */
    public static final int MAX_DIRECTORY_PATH = EfsDirectoryPath.MAX_LENGTH;

    private final EfsStore store;
    private final String directoryPath;

    private EfsChannel(Builder b) {
        super(b.name, b.accessMode);
        this.store = b.store;
        this.directoryPath = b.directoryPath;
    }

    /**
     * Starts a channel.
     *
     * @param name the channel name: 1–64 characters of {@code [A-Za-z0-9.\-_]}
     * @return a builder
     */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** @return the store the channel reads */
    @Override
    public EfsStore getStore() {
        return store;
    }

    /** @return the absolute directory on the file system */
    public String getDirectoryPath() {
        return directoryPath;
    }

    @Override
    protected void validate(ChannelRules rules, ChannelInputMode effectiveMode) {
        if (store == null) {
            throw rules.error(ChannelRules.EFS_STORE, "store", null, "the EfsStore the channel reads");
        }
        if (directoryPath == null) {
            throw rules.error(ChannelRules.EFS_DIRECTORY_REQUIRED,
                    "directoryPath", null, "the directory to read, an absolute path such as /datasets/train");
        }
        String id = store.getFileSystemId();
        if (!Token.isUnresolved(id) && !SageMakerLimits.FILE_SYSTEM_ID.accepts(id)) {
            throw rules.error(ChannelRules.EFS_ID,
                    "store.fileSystemId", id, "the id of the EFS file system " + store.getNode().getPath()
                    + ", " + SageMakerLimits.FILE_SYSTEM_ID.allowed() + " (access points fsap- are not accepted)");
        }
        EfsDirectoryPath.check(rules.scope(), rules.field("directoryPath"), directoryPath);
    }

    /**
     * Has the store create the directory and the job deploy after it. A deploy-time value from another
     * stack cannot be passed to the store's stack (that stack deploys first): the job warns instead.
     */
    @Override
    protected void bind(IConstruct definition) {
        if (Token.isUnresolved(directoryPath) && Stack.of(definition) != Stack.of(store)) {
            Annotations.of(definition).addWarningV2("@trainingdata/training:efsDirectoryNotCreated",
                    definition.getNode().getPath() + ": channel '" + getName() + "' reads a directory given as a "
                            + "deploy-time value of another stack than its EFS store " + store.getNode().getPath()
                            + ", which therefore cannot create it: make sure it exists before the first job, or "
                            + "add it with addDirectory in the store's stack");
        } else {
            store.addDirectory(directoryPath);
        }
        definition.getNode().addDependency(store.getDirectoriesCreated());
    }

    @Override
    String fileSystemType() {
        return "EFS";
    }

    @Override
    String fileSystemId() {
        return store.getFileSystemId();
    }

    @Override
    String directoryPathOnFileSystem() {
        return directoryPath;
    }

    /** Builder of {@link EfsChannel}. */
    public static final class Builder {
        private final String name;
        private EfsStore store;
        private String directoryPath;
        private ChannelAccessMode accessMode = ChannelAccessMode.READ_ONLY;

        private Builder(String name) {
            this.name = name;
        }

        /** The EFS store to read. Required. */
        public Builder store(EfsStore store) {
            this.store = store;
            return this;
        }

        /** The absolute directory from the EFS root, e.g. {@code /datasets/train}. Required. */
        public Builder directoryPath(String directoryPath) {
            this.directoryPath = directoryPath;
            return this;
        }

        /**
         * How the file system is mounted.
         *
         * @default {@link ChannelAccessMode#READ_ONLY}
         */
        public Builder accessMode(ChannelAccessMode accessMode) {
            this.accessMode = Objects.requireNonNull(accessMode);
            return this;
        }

        /** @return the channel */
        public EfsChannel build() {
            return new EfsChannel(this);
        }
    }
}
