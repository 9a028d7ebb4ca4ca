package io.github.trainingdata.cdk.training;

/** How a file-system channel is mounted. */
public enum ChannelAccessMode {
    /** Read-only (the default: training cannot damage the dataset). */
    READ_ONLY("ro"),
    /** Read-write. */
    READ_WRITE("rw");

    private final String apiValue;

    ChannelAccessMode(String apiValue) {
        this.apiValue = apiValue;
    }

    /** @return the value the SageMaker API uses */
    public String apiValue() {
        return apiValue;
    }
}
