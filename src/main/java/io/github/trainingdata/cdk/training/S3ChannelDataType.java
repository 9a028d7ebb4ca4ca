package io.github.trainingdata.cdk.training;

/** What an S3 channel's URI points at. */
public enum S3ChannelDataType {
    /** A key prefix: every object under it. */
    S3_PREFIX("S3Prefix"),
    /** A manifest object listing the objects. */
    MANIFEST_FILE("ManifestFile"),
    /** A JSON Lines augmented manifest (Pipe mode only). */
    AUGMENTED_MANIFEST_FILE("AugmentedManifestFile");

    private final String apiValue;

    S3ChannelDataType(String apiValue) {
        this.apiValue = apiValue;
    }

    /** @return the value the SageMaker API uses */
    public String apiValue() {
        return apiValue;
    }
}
