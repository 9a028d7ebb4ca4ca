package io.github.trainingdata.cdk.advisor;

/**
 * The storage service a {@link DataSourceOption} reads, with the set-up it needs: the advisor breaks ties between
 * estimates by it (the least set-up wins), and {@code TrainingDataPlatform} builds one store per service.
 */
public enum StorageService {
    /** An S3 general-purpose bucket: no VPC and nothing provisioned. */
    S3(0, "the S3 modes need no VPC and nothing provisioned"),
    /**
     * An S3 Express One Zone directory bucket: nothing provisioned, but it lives in one Availability Zone, so a job reads
     * it in-zone through a VPC subnet there.
     */
    S3_EXPRESS(1, "a directory bucket needs nothing provisioned, only a VPC subnet in its Availability Zone"),
    /** FSx for Lustre: a file system provisioned in one Availability Zone, reached through a VPC. */
    FSX_LUSTRE(2, "a file system needs a VPC and provisioned capacity"),
    /** EFS: a file system reached through a VPC mount target. */
    EFS(2, "a file system needs a VPC and a mount target");

    private final int setUpRank;
    private final String setUp;

    StorageService(int setUpRank, String setUp) {
        this.setUpRank = setUpRank;
        this.setUp = setUp;
    }

    /** @return how much set-up the service needs, 0 for none; ties between estimates go to the lowest */
    int setUpRank() {
        return setUpRank;
    }

    /** @return the set-up the service needs, in words, for the advisor's reasons */
    String setUp() {
        return setUp;
    }
}
