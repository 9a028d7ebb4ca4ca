package io.github.trainingdata.cdk.training;

/** Record wrapping of an S3 channel's objects. */
public enum ChannelRecordWrapper {
    /** Raw objects. */
    NONE("None"),
    /** Each object is wrapped as a RecordIO record (not in File mode). */
    RECORD_IO("RecordIO");

    private final String apiValue;

    ChannelRecordWrapper(String apiValue) {
        this.apiValue = apiValue;
    }

    /** @return the value the SageMaker API uses */
    public String apiValue() {
        return apiValue;
    }
}
