package io.github.trainingdata.cdk.training;

import io.github.trainingdata.cdk.network.TrainingNetwork;
import java.util.List;
import java.util.Map;
import software.constructs.IConstruct;

/**
 * One input channel of a training job: a name the container sees under
 * {@code /opt/ml/input/data/<name>} and the store it reads. Channels are small immutable values;
 * {@link TrainingJobRules} checks them against each other, {@link TrainingJobRequest} renders them, and
 * {@link TrainingJobBlueprint} binds them to the job (for example an EFS directory to create first).
 *
 * <p>Three kinds exist: {@link S3Channel}, {@link LustreChannel} and {@link EfsChannel}.
 */
public abstract class TrainingChannel {
    private final String name;

    TrainingChannel(String name) {
        this.name = name;
    }

    /** @return the channel name */
    public String getName() {
        return name;
    }

    /** @return the input mode set on this channel, or null when it follows the job's default */
    public abstract ChannelInputMode getInputMode();

    /** @return the network the channel's store lives in, or null for S3 */
    abstract TrainingNetwork network();

    /** @return the Availability Zone the store pins training to, or null when it does not */
    abstract String pinnedAvailabilityZone();

    /**
     * @return the Availability Zones where the store can be reached (one per mount target), or null when
     *     any zone of the VPC will do or they are unknown
     */
    List<String> reachableZones() {
        return null;
    }

    /** Checks the channel's own rules, given the mode it will run in. */
    abstract void validate(ChannelRules rules, ChannelInputMode effectiveMode);

    /** @return the channel's entry of InputDataConfig (ChannelName first, ordered) */
    abstract Map<String, Object> render();

    /** Adds what the execution role needs to read (or write) the store. */
    abstract void addPermissions(ExecutionPermissions permissions);

    /** Wires the store to the job defined under {@code job} once the job is checked; most stores need nothing. */
    void bind(IConstruct job) {
    }
}
