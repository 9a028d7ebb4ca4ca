package io.github.trainingdata.cdk.preload.handler;

import java.util.List;

/** The handler's rules for execution names and inputs, for tests outside its package (the state machine's). */
public final class PreloadInputs {
    private PreloadInputs() {
    }

    /**
     * @param fileSystemId the file system
     * @param uris         the data locations, {@code s3://bucket/prefix/}
     * @return the execution input the handler starts the preload state machine with
     */
    public static String input(String fileSystemId, List<String> uris) {
        return PreloadExecution.input(fileSystemId, uris.stream().map(S3Location::parse).toList());
    }

    /**
     * @param prefix  the worker job-name prefix
     * @param warmKey the WarmKey
     * @param request what identifies the CloudFormation request
     * @return the execution's name, as the handler names it
     */
    public static String executionName(String prefix, String warmKey, String request) {
        return PreloadExecution.name(prefix, warmKey, request);
    }
}
