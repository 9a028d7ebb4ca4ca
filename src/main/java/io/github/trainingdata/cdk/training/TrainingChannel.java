package io.github.trainingdata.cdk.training;

import io.github.trainingdata.cdk.storage.StoreAccess;
import io.github.trainingdata.cdk.storage.TrainingDataStore;
import java.util.Map;
import software.constructs.IConstruct;

/**
 * One input channel of a training job: a name the container sees under
 * {@code /opt/ml/input/data/<name>} and the {@link TrainingDataStore} it reads. Channels are small immutable values;
 * {@link TrainingJobRules} checks them against each other, {@link TrainingJobRequest} renders them, and
 * {@link TrainingJobBlueprint} binds them to the job (for example an EFS directory to create first). Where the job
 * runs ({@link JobPlacement}) and what its role is granted ({@link ExecutionPermissions}) come from the store, the
 * same way for every kind.
 *
 * <p>Three kinds ship: {@link S3Channel} (any {@link io.github.trainingdata.cdk.storage.S3Store}), {@link LustreChannel}
 * and {@link EfsChannel}. A kind of your own extends this class outside the library: it names its store, the access
 * and path its role is granted, its rules and its InputDataConfig entry, and the job places, grants and renders it as it
 * does the others (docs/extending.md).
 */
public abstract class TrainingChannel {
    private final String name;

    protected TrainingChannel(String name) {
        this.name = name;
    }

    /** @return the channel name */
    public String getName() {
        return name;
    }

    /** @return the input mode set on this channel, or null when it follows the job's default */
    public abstract ChannelInputMode getInputMode();

    /** @return the store the channel reads (null only before the channel is checked, when none was given) */
    public abstract TrainingDataStore getStore();

    /** @return how the job uses the store's path, which decides what its role is granted */
    protected abstract StoreAccess storeAccess();

    /** @return the path of the store the role is granted: an S3 key prefix, or a directory on a file system */
    protected abstract String grantedPath();

    /** Checks the channel's own rules, given the mode it will run in. */
    protected abstract void validate(ChannelRules rules, ChannelInputMode effectiveMode);

    /** @return the channel's entry of InputDataConfig (ChannelName first, ordered) */
    protected abstract Map<String, Object> render();

    /** Wires the store to the job defined under {@code job} once the job is checked; most stores need nothing. */
    protected void bind(IConstruct job) {
    }
}
