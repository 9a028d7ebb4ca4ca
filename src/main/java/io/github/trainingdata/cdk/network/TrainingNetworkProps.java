package io.github.trainingdata.cdk.network;

import software.amazon.awscdk.services.ec2.ISecurityGroup;
import software.amazon.awscdk.services.ec2.ISubnet;
import software.amazon.awscdk.services.ec2.IVpc;
import software.amazon.awscdk.services.ec2.SubnetSelection;
import software.amazon.awscdk.services.kms.IKey;

/** Properties of a {@link TrainingNetwork}: a new VPC by default, or an existing one. */
public final class TrainingNetworkProps {
    private final IVpc vpc;
    private final SubnetSelection vpcSubnets;
    private final ISubnet dataSubnet;
    private final ISecurityGroup trainingSecurityGroup;
    private final Integer maxAzs;
    private final IKey flowLogsKey;
    private final String dataAvailabilityZone;

    private TrainingNetworkProps(Builder b) {
        this.vpc = b.vpc;
        this.vpcSubnets = b.vpcSubnets;
        this.dataSubnet = b.dataSubnet;
        this.trainingSecurityGroup = b.trainingSecurityGroup;
        this.maxAzs = b.maxAzs;
        this.flowLogsKey = b.flowLogsKey;
        this.dataAvailabilityZone = b.dataAvailabilityZone;
    }

    /** @return a builder; every property is optional. */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the existing VPC, or null for a new one */
    public IVpc getVpc() {
        return vpc;
    }

    /** @return the subnets the data stores may use, or null for the default */
    public SubnetSelection getVpcSubnets() {
        return vpcSubnets;
    }

    /** @return the subnet that fixes the data AZ, or null for the first selected subnet */
    public ISubnet getDataSubnet() {
        return dataSubnet;
    }

    /** @return the existing training security group, or null for a new one */
    public ISecurityGroup getTrainingSecurityGroup() {
        return trainingSecurityGroup;
    }

    /** @return the number of AZs of a new VPC, or null for the default */
    public Integer getMaxAzs() {
        return maxAzs;
    }

    /** @return the KMS key of a new VPC's flow-log group, or null for CloudWatch Logs' own encryption */
    public IKey getFlowLogsKey() {
        return flowLogsKey;
    }

    /** @return the data Availability Zone asked for, or null */
    public String getDataAvailabilityZone() {
        return dataAvailabilityZone;
    }

    /** Builder of {@link TrainingNetworkProps}. */
    public static final class Builder {
        private IVpc vpc;
        private SubnetSelection vpcSubnets;
        private ISubnet dataSubnet;
        private ISecurityGroup trainingSecurityGroup;
        private Integer maxAzs;
        private IKey flowLogsKey;
        private String dataAvailabilityZone;

        private Builder() {
        }

        /**
         * An existing VPC to use instead of creating one.
         *
         * @default a new VPC with isolated subnets in {@code maxAzs} AZs, no NAT, an S3 gateway endpoint
         *     and flow logs
         */
        public Builder vpc(IVpc vpc) {
            this.vpc = vpc;
            return this;
        }

        /**
         * The subnets the data stores may use (EFS mount targets go one per AZ of this selection).
         *
         * @default the VPC's isolated subnets, or its private subnets with egress if it has no isolated ones
         */
        public Builder vpcSubnets(SubnetSelection vpcSubnets) {
            this.vpcSubnets = vpcSubnets;
            return this;
        }

        /**
         * The subnet that fixes the data AZ: the Lustre file system lives in it and training runs in it.
         *
         * @default the first subnet of {@code vpcSubnets}
         */
        public Builder dataSubnet(ISubnet dataSubnet) {
            this.dataSubnet = dataSubnet;
            return this;
        }

        /**
         * An existing security group for training jobs.
         *
         * @default a new group that admits all traffic from itself (distributed training)
         */
        public Builder trainingSecurityGroup(ISecurityGroup trainingSecurityGroup) {
            this.trainingSecurityGroup = trainingSecurityGroup;
            return this;
        }

        /**
         * How many AZs a new VPC spans (at least 2). Only for a new VPC.
         *
         * @default 2
         */
        public Builder maxAzs(Integer maxAzs) {
            this.maxAzs = maxAzs;
            return this;
        }

        /**
         * The KMS key that encrypts a new VPC's flow-log group: the data layer's key
         * ({@code TrainingDataBucket.getEncryptionKey()}), so one key covers every bucket and log group. Only
         * for a new VPC (an existing one gets no flow logs from this construct).
         *
         * @default none: CloudWatch Logs' own encryption
         */
        public Builder flowLogsKey(IKey flowLogsKey) {
            this.flowLogsKey = flowLogsKey;
            return this;
        }

        /**
         * The data Availability Zone by name (e.g. {@code us-east-1d}, not an AZ id such as {@code use1-az4}): where the
         * Lustre cache lives and training runs. Pick an AZ where the training instance type is offered (see
         * docs/lustre-cache.md, "Choosing the data Availability Zone"). A new VPC spans it and {@code maxAzs - 1} other AZs of the Region, and
         * the data subnet is its subnet there; with a Region known at synth, an AZ outside it is refused, and one the
         * VPC spans anyway leaves the VPC as it is. An existing VPC's data subnet is its selected subnet in that AZ (or
         * give {@code dataSubnet}). May be a deploy-time value (a parameter). Changing it later replaces the data subnet
         * and the Lustre cache (a new, cold file system), and in a new VPC the other subnets too unless the Region is
         * known at synth.
         *
         * @default the first AZ of the VPC (a new VPC: the Region's first)
         */
        public Builder dataAvailabilityZone(String dataAvailabilityZone) {
            this.dataAvailabilityZone = dataAvailabilityZone;
            return this;
        }

        /** @return the props */
        public TrainingNetworkProps build() {
            return new TrainingNetworkProps(this);
        }
    }
}
