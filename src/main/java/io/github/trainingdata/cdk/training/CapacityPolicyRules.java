package io.github.trainingdata.cdk.training;

import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.limits.SageMakerLimits;
import io.github.trainingdata.cdk.SynthRule;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Token;
import software.constructs.IConstruct;

/**
 * The rules of a {@link CapacityPolicy}, checked at synth: each throws a {@link ConfigurationError} naming the
 * job's path, the field ({@code capacityPolicy.steps[i]...}), the value and what is allowed. A policy's values
 * choose the state machine's states, so they must be literal.
 */
final class CapacityPolicyRules {
    static final SynthRule STEPS = SynthRule.of("CAPACITY_STEPS", "TrainingJobDefinition", "capacityPolicy.steps",
            "at least one step, and at most " + CapacityPolicy.MAX_ATTEMPTS + " attempts in all", "library");
    static final SynthRule ONE_FALLBACK = SynthRule.of("CAPACITY_ONE_FALLBACK", "TrainingJobDefinition",
            "capacityPolicy.steps[i]", "one s3Fallback step", "library");
    static final SynthRule WAIT = SynthRule.of("CAPACITY_WAIT", "TrainingJobDefinition",
            "capacityPolicy.steps[i].wait", "a literal whole number of seconds, at least 1 second",
            "library (the wait becomes a Wait state's Seconds)");
    static final SynthRule ATTEMPTS = SynthRule.of("CAPACITY_ATTEMPTS", "TrainingJobDefinition",
            "capacityPolicy.steps[i].attempts", "a literal whole number from 1 to " + CapacityPolicy.MAX_ATTEMPTS,
            "library (each attempt is a state of the state machine)");
    static final SynthRule INSTANCE_TYPES = SynthRule.of("CAPACITY_INSTANCE_TYPES", "TrainingJobDefinition",
            "capacityPolicy.steps[i].instanceTypes", "at least one literal instance type of the model's "
                    + "TrainingInstanceType values, none the job or an earlier step already uses",
            "SageMaker API model (botocore sagemaker/2017-07-24), ResourceConfig.InstanceType; library");
    static final SynthRule FALLBACK_INPUT_MODE = SynthRule.of("CAPACITY_FALLBACK_INPUT_MODE", "TrainingJobDefinition",
            "capacityPolicy.steps[i].inputMode", "FAST_FILE or FILE", "library (the S3 modes that read files)");
    static final SynthRule FALLBACK_CHANNELS = SynthRule.of("CAPACITY_FALLBACK_CHANNELS", "TrainingJobDefinition",
            "capacityPolicy.steps[i]", "a job with at least one LustreChannel and vpcSubnets unset whose other channels "
                    + "can be reached from an Availability Zone other than the data AZ (EFS: a mount target there)",
            "library");
    static final SynthRule NOT_MANAGED_SPOT = SynthRule.of("CAPACITY_NOT_MANAGED_SPOT", "TrainingJobDefinition",
            "capacityPolicy", "unset when managedSpot is true",
            "SageMaker API reference, StoppingCondition.MaxWaitTimeInSeconds (a managed Spot job's wait for Spot capacity "
                    + "counts against it; SageMaker ends a job that has not completed by then); library (a policy acts "
                    + "on CapacityError failures only)");
    static final SynthRule REQUEST_IN_PARAMETER = SynthRule.of("CAPACITY_REQUEST_IN_PARAMETER",
            "TrainingJobDefinition", "capacityPolicy",
            "unset, or a request whose every deploy-time value fits one SSM parameter (the launcher reads the request "
                    + "from parameters, split between whole deploy-time values)",
            "AWS Systems Manager Parameter Store, advanced parameter value limit (8 KB)");
    static final SynthRule POLICY_IN_PARAMETER = SynthRule.of("CAPACITY_POLICY_IN_PARAMETER",
            "TrainingJobDefinition", "capacityPolicy",
            "a policy whose document (attempts, Availability Zones, S3 fallback channels and subnets) fits its SSM "
                    + "parameter (the launcher reads it)",
            "AWS Systems Manager Parameter Store, advanced parameter value limit (8 KB)");

    private CapacityPolicyRules() {
    }

    static void check(IConstruct scope, TrainingJobSpec spec) {
        CapacityPolicy policy = spec.getCapacityPolicy();
        if (policy == null) {
            return;
        }
        if (spec.isManagedSpot()) {
            throw ConfigurationError.of(NOT_MANAGED_SPOT, scope, "capacityPolicy", "set with managedSpot true",
                    "unset when managedSpot is true: a managed Spot job short of capacity waits for Spot capacity until "
                    + "MaxWaitTimeInSeconds instead of failing with CapacityError, so the policy would never move on");
        }
        List<CapacityStep> steps = policy.getSteps();
        if (steps.isEmpty()) {
            throw ConfigurationError.of(STEPS, scope, "capacityPolicy.steps", "no steps",
                    "at least one step (omit capacityPolicy for none)");
        }
        Set<String> types = new HashSet<>();
        if (!Token.isUnresolved(spec.getInstanceType())) {
            types.add(spec.getInstanceType());
        }
        boolean fallback = false;
        for (int i = 0; i < steps.size(); i++) {
            CapacityStep step = steps.get(i);
            String field = "capacityPolicy.steps[" + i + "]";
            switch (step.getKind()) {
                case WAIT_AND_RETRY -> waitAndRetry(scope, field, step);
                case INSTANCE_TYPES -> instanceTypes(scope, field, step, types);
                case S3_FALLBACK -> {
                    if (fallback) {
                        throw ConfigurationError.of(ONE_FALLBACK, scope, field, "a second s3Fallback", "one s3Fallback step");
                    }
                    fallback = true;
                    s3Fallback(scope, field, step, spec);
                }
            }
        }
        int attempts = CapacityAttempts.of(spec).size();
        if (attempts > CapacityPolicy.MAX_ATTEMPTS) {
            throw ConfigurationError.of(STEPS, scope, "capacityPolicy.steps", attempts + " attempts",
                    "at most " + CapacityPolicy.MAX_ATTEMPTS + " attempts in all");
        }
    }

    /**
     * With a policy the state machine's request changes per attempt, so the SDK launcher reads the request from SSM
     * parameters: a request larger than one is split between whole deploy-time values, and a value that alone exceeds a
     * parameter cannot be.
     */
    static void checkRequestSplit(IConstruct scope, TrainingJobSpec spec, RequestSplit split) {
        if (spec.getCapacityPolicy() != null && !split.fits()) {
            throw ConfigurationError.of(REQUEST_IN_PARAMETER, scope, "capacityPolicy", "set for a request whose "
                    + "deploy-time value " + split.largestValuePath() + " may have "
                    + (split.largestValue() >= RequestDocumentBound.UNBOUNDED ? "an unknown number of"
                            : Long.toString(split.largestValue())) + " bytes", "unset, or deploy-time values of at most "
                    + TrainingJobDefinition.MAX_PARAMETER_DOCUMENT_BYTES + " bytes each: with a policy the state "
                    + "machine's request changes per attempt, so the SDK launcher reads the request from SSM "
                    + "parameters, split between whole deploy-time values");
        }
    }

    /** The SDK launcher reads the policy from its own SSM parameter: its document must fit one. */
    static void checkPolicyInParameter(IConstruct scope, long bound) {
        if (bound > TrainingJobDefinition.MAX_PARAMETER_DOCUMENT_BYTES) {
            throw ConfigurationError.of(POLICY_IN_PARAMETER, scope, "capacityPolicy", "a policy document of up to "
                    + (bound >= RequestDocumentBound.UNBOUNDED ? "an unknown number of" : Long.toString(bound))
                    + " bytes", "a policy whose document (each attempt with its Availability Zones, the S3 fallback's "
                    + "channels and subnets) fits its SSM parameter (" + TrainingJobDefinition.MAX_PARAMETER_DOCUMENT_BYTES
                    + " bytes), which the SDK launcher reads: fewer attempts or channels");
        }
    }

    private static void waitAndRetry(IConstruct scope, String field, CapacityStep step) {
        Duration wait = step.getWait();
        Number seconds;
        try {
            seconds = wait == null ? null : wait.toSeconds();
        } catch (RuntimeException e) {
            seconds = null;
        }
        if (seconds == null || Token.isUnresolved(seconds) || seconds.doubleValue() < 1
                || seconds.doubleValue() != Math.rint(seconds.doubleValue())) {
            throw ConfigurationError.of(WAIT, scope, field + ".wait", wait == null ? null : wait.toHumanString(),
                    "a literal whole number of seconds, at least 1 second");
        }
        Number attempts = step.getAttempts();
        if (attempts == null || Token.isUnresolved(attempts) || attempts.doubleValue() != Math.rint(attempts.doubleValue())
                || attempts.intValue() < 1 || attempts.intValue() > CapacityPolicy.MAX_ATTEMPTS) {
            throw ConfigurationError.of(ATTEMPTS, scope, field + ".attempts", attempts,
                    "a literal whole number from 1 to " + CapacityPolicy.MAX_ATTEMPTS);
        }
    }

    private static void instanceTypes(IConstruct scope, String field, CapacityStep step, Set<String> seen) {
        List<String> types = step.getInstanceTypes();
        if (types == null || types.isEmpty()) {
            throw ConfigurationError.of(INSTANCE_TYPES, scope, field + ".instanceTypes", types == null ? null : "[]",
                    "at least one instance type");
        }
        for (int j = 0; j < types.size(); j++) {
            String type = types.get(j);
            if (type == null || Token.isUnresolved(type)) {
                throw ConfigurationError.of(INSTANCE_TYPES, scope, field + ".instanceTypes[" + j + "]", type,
                        "a literal instance type (each attempt's is a state of the state machine)");
            }
            if (!SageMakerLimits.isTrainingInstanceType(type)) {
                throw ConfigurationError.of(INSTANCE_TYPES, scope, field + ".instanceTypes[" + j + "]", type,
                        SageMakerLimits.trainingInstanceTypesLike(type));
            }
            if (!seen.add(type)) {
                throw ConfigurationError.of(INSTANCE_TYPES, scope, field + ".instanceTypes[" + j + "]", type,
                        "an instance type the job and earlier steps do not already use");
            }
        }
    }

    private static void s3Fallback(IConstruct scope, String field, CapacityStep step, TrainingJobSpec spec) {
        ChannelInputMode mode = step.getInputMode();
        if (mode != ChannelInputMode.FAST_FILE && mode != ChannelInputMode.FILE) {
            throw ConfigurationError.of(FALLBACK_INPUT_MODE, scope, field + ".inputMode", mode, "FAST_FILE or FILE");
        }
        if (spec.getChannels().stream().noneMatch(LustreChannel.class::isInstance)) {
            throw ConfigurationError.of(FALLBACK_CHANNELS, scope, field, "s3Fallback without a Lustre channel",
                    "a job with at least one LustreChannel (it is what the fallback replaces)");
        }
        if (spec.getVpcSubnets() != null) {
            throw ConfigurationError.of(FALLBACK_CHANNELS, scope, field, "s3Fallback with vpcSubnets set",
                    "vpcSubnets unset: the fallback trains in every training subnet of the network");
        }
    }

    /**
     * The S3 fallback must be able to train outside the job's own Availability Zones: every channel it keeps (EFS)
     * must be reachable from another zone of the network.
     */
    static void checkFallbackZones(IConstruct scope, TrainingJobBlueprint job) {
        if (CapacityAttempts.s3Fallback(job.getSpec()) == null) {
            return;
        }
        List<String> own = CapacityAttempts.zonesOf(job.getPlacement().subnets());
        List<String> zones = CapacityAttempts.zonesOf(CapacityAttempts.fallbackSubnets(job));
        if (own.containsAll(zones)) {
            String kept = job.getSpec().getChannels().stream().filter(c -> !(c instanceof LustreChannel))
                    .map(TrainingChannel::getName).collect(Collectors.joining("', '", "'", "'"));
            throw ConfigurationError.of(FALLBACK_CHANNELS, scope, "capacityPolicy.steps",
                    "s3Fallback that could train only in " + own + " (channels " + kept + " are reachable nowhere "
                            + "else)", "channels reachable from another Availability Zone of the network: an EFS "
                            + "file system of this library in Regional mode (a mount target in each storage subnet), "
                            + "not One Zone or an existing one");
        }
    }
}
