package io.github.trainingdata.cdk.training;

import io.github.trainingdata.cdk.storage.S3Store;
import io.github.trainingdata.cdk.storage.StoreAccess;

/**
 * A store the training code reads itself, without a SageMaker channel: the S3 Connector for PyTorch, Mountpoint for
 * Amazon S3 or boto3 stream a prefix of an {@link S3Store} (a general purpose bucket or an S3 Express One Zone
 * directory bucket) straight into the training loop. The job gets what a channel would give it, and nothing is
 * copied or mounted: its role may read exactly that prefix (on a directory bucket: a read-only
 * {@code s3express:CreateSession}), the prefix's {@code s3://} URI (with a trailing {@code /}) is in the container's
 * environment variable {@link #getEnvironmentVariable()}, and the job is placed where the store wants it (its zone,
 * its network).
 */
public final class DirectRead {
    private final String environmentVariable;
    private final S3Store store;
    private final String path;

    private DirectRead(Builder b) {
        this.environmentVariable = b.environmentVariable;
        this.store = b.store;
        this.path = b.path;
    }

    /**
     * Starts a direct read.
     *
     * @param environmentVariable the variable that carries the location to the training code:
     *     {@code [a-zA-Z_][a-zA-Z0-9_]*}, at most 512 characters, not one of the job's own {@code environment}
     * @return a builder
     */
    public static Builder builder(String environmentVariable) {
        return new Builder(environmentVariable);
    }

    /** @return the environment variable that carries the location */
    public String getEnvironmentVariable() {
        return environmentVariable;
    }

    /** @return the store read (null only before the job checks it, when none was given) */
    public S3Store getStore() {
        return store;
    }

    /** @return the path read, relative to the store's dataset prefix (empty for all of it) */
    public String getPath() {
        return path;
    }

    /** @return the {@code s3://} URI of the prefix read, with a trailing {@code /}: the variable's value */
    public String getS3Uri() {
        return store.s3Uri(path);
    }

    /** Grants the job's role a read of exactly the prefix. */
    void grant(ExecutionPermissions permissions) {
        store.grantTraining(permissions, StoreAccess.READ, store.keyPrefix(path));
    }

    /** Builder of {@link DirectRead}. */
    public static final class Builder {
        private final String environmentVariable;
        private S3Store store;
        private String path = "";

        private Builder(String environmentVariable) {
            this.environmentVariable = environmentVariable;
        }

        /** The store to read: a {@code TrainingDataBucket}, an {@code S3ExpressStore} or an S3Store of your own. Required. */
        public Builder store(S3Store store) {
            this.store = store;
            return this;
        }

        /**
         * The prefix to read, relative to the store's dataset prefix.
         *
         * @default "" (the whole dataset prefix)
         */
        public Builder path(String path) {
            this.path = path;
            return this;
        }

        /** @return the direct read */
        public DirectRead build() {
            return new DirectRead(this);
        }
    }
}
