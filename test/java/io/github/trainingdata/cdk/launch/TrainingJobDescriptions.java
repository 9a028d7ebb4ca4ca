package io.github.trainingdata.cdk.launch;

/** DescribeTrainingJob response bodies in SageMaker's JSON shape, for the emulator. */
public final class TrainingJobDescriptions {
    /** CreationTime used by {@link #describe(String, String, String)}: 2026-01-01T00:00:00Z. */
    public static final long CREATED_EPOCH_SECONDS = 1_767_225_600L;

    private TrainingJobDescriptions() {
    }

    /**
     * A description with the given statuses, created at {@link #CREATED_EPOCH_SECONDS}.
     *
     * @param jobName   the job
     * @param status    TrainingJobStatus
     * @param secondary SecondaryStatus
     * @return the JSON body
     */
    public static String describe(String jobName, String status, String secondary) {
        return describe(jobName, status, secondary, "");
    }

    /**
     * A description with the given statuses and extra members.
     *
     * @param jobName      the job
     * @param status       TrainingJobStatus
     * @param secondary    SecondaryStatus
     * @param extraMembers more members, each followed by a comma, e.g. {@code "FailureReason": "x",}
     * @return the JSON body
     */
    public static String describe(String jobName, String status, String secondary, String extraMembers) {
        return "{" + extraMembers
                + "\"TrainingJobName\":\"" + jobName + "\","
                + "\"TrainingJobArn\":\"arn:aws:sagemaker:us-east-1:123456789012:training-job/" + jobName + "\","
                + "\"TrainingJobStatus\":\"" + status + "\","
                + "\"SecondaryStatus\":\"" + secondary + "\","
                + "\"AlgorithmSpecification\":{\"TrainingInputMode\":\"File\"},"
                + "\"CreationTime\":" + CREATED_EPOCH_SECONDS + "}";
    }
}
