package io.github.trainingdata.cdk.training;

/** How a channel's data reaches the training container (the API's TrainingInputMode). */
public enum ChannelInputMode {
    /** The whole channel is copied to the instance volume before training starts (S3, and the only mode for file systems). */
    FILE("File"),
    /** S3 objects appear as a read-only POSIX file system and stream on demand (S3 prefixes only). */
    FAST_FILE("FastFile"),
    /** Data streams through a FIFO per channel per epoch (streamable formats). */
    PIPE("Pipe");

    private final String apiValue;

    ChannelInputMode(String apiValue) {
        this.apiValue = apiValue;
    }

    /** @return the value the SageMaker API uses */
    public String apiValue() {
        return apiValue;
    }
}
