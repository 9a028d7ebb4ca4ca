package io.github.trainingdata.cdk.training;

/** Compression of an S3 channel's objects. */
public enum Compression {
    /** Uncompressed. */
    NONE("None"),
    /** Gzip, decompressed by SageMaker (Pipe mode only). */
    GZIP("Gzip");

    private final String apiValue;

    Compression(String apiValue) {
        this.apiValue = apiValue;
    }

    /** @return the value the SageMaker API uses */
    public String apiValue() {
        return apiValue;
    }
}
