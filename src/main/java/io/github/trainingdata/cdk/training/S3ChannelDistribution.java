package io.github.trainingdata.cdk.training;

/** How an S3 channel's objects are spread over the instances of a distributed job. */
public enum S3ChannelDistribution {
    /** Every instance gets every object. */
    FULLY_REPLICATED("FullyReplicated"),
    /** Each instance gets 1/n of the objects. */
    SHARDED_BY_S3_KEY("ShardedByS3Key");

    private final String apiValue;

    S3ChannelDistribution(String apiValue) {
        this.apiValue = apiValue;
    }

    /** @return the value the SageMaker API uses */
    public String apiValue() {
        return apiValue;
    }
}
