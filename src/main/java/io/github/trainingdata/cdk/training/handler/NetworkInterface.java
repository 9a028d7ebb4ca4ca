package io.github.trainingdata.cdk.training.handler;

/**
 * A network interface as EC2's DescribeNetworkInterfaces reports it: what the log shows of an interface that
 * still holds a subnet and a security group.
 *
 * @param id            {@code eni-…}
 * @param status        {@code in-use}, {@code available}, {@code attaching}, {@code detaching}, …
 * @param interfaceType {@code interface}, {@code efa}, {@code lambda}, …
 * @param requesterId   who created it (an account, or an alias of the AWS service)
 * @param description   its description
 */
record NetworkInterface(String id, String status, String interfaceType, String requesterId, String description) {
    @Override
    public String toString() {
        return id + " (" + status + ", type " + interfaceType + ", requester " + requesterId + ", '" + description
                + "')";
    }
}
