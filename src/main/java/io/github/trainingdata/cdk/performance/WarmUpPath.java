package io.github.trainingdata.cdk.performance;

/**
 * The two ways the preload worker's {@code warm-cache.sh} loads a Lustre cache; it picks one at run time by whether
 * the worker image has the Lustre client's {@code lfs} (and {@code lfs} reaches the mount).
 */
public enum WarmUpPath {
    /**
     * No {@code lfs}: the worker reads the first byte of every file, and each first read waits while FSx loads the
     * whole file from S3. The slower path, and the one the estimates assume unless told the image has {@code lfs}.
     */
    READ,
    /**
     * {@code lfs} in the image: {@code lfs hsm_restore} requests in batches; the file servers load the files
     * asynchronously, and the worker polls {@code lfs hsm_action}/{@code hsm_state} until every file is loaded.
     */
    HSM_RESTORE
}
