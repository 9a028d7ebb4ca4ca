package io.github.trainingdata.cdk.training.handler;

import java.util.List;

/**
 * A network interface as EC2's DescribeNetworkInterfaces reports it: what the log shows of an interface that
 * still holds a subnet and a security group, and the text that may name the job it serves.
 *
 * @param id            {@code eni-…}
 * @param subnetId      its subnet
 * @param status        {@code in-use}, {@code available}, {@code attaching}, {@code detaching}, …
 * @param interfaceType {@code interface}, {@code efa}, {@code lambda}, …
 * @param requesterId   who created it (an account, or an alias of the AWS service)
 * @param description   its description
 * @param tagValues     the values of its tags, in EC2's order
 */
record NetworkInterface(String id, String subnetId, String status, String interfaceType, String requesterId,
        String description, List<String> tagValues) {
    NetworkInterface {
        tagValues = List.copyOf(tagValues);
    }

    @Override
    public String toString() {
        return id + " (" + status + ", " + subnetId + ", type " + interfaceType + ", requester " + requesterId + ", '"
                + description + "')";
    }
}
