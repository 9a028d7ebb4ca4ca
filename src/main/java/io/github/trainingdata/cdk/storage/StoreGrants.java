package io.github.trainingdata.cdk.storage;

import java.util.List;
import java.util.Map;
import software.amazon.awscdk.services.s3.IBucket;

/**
 * The permissions a training job's execution role collects from its stores ({@link TrainingDataStore#grantTraining}).
 * The collector merges them into least-privilege statements: objects under exactly the prefixes in use, each action
 * set once with every resource it covers.
 */
public interface StoreGrants {
    /** Lets the role list and get the objects under {@code keyPrefix} (and use the bucket's key to decrypt). */
    void readObjects(IBucket bucket, String keyPrefix);

    /** Lets the role list, get and put the objects under {@code keyPrefix} (and use the bucket's key). */
    void writeObjects(IBucket bucket, String keyPrefix);

    /** As {@link #writeObjects}, and delete them: SageMaker keeps a checkpoint prefix in sync, deletions included. */
    void syncObjects(IBucket bucket, String keyPrefix);

    /**
     * Lets the role take {@code actions} on {@code resource}; statements with the same actions are merged.
     *
     * @param wildcardReason why the resource is a wildcard, for the cdk-nag acknowledgement (empty when it is not)
     */
    default void allow(List<String> actions, String resource, String wildcardReason) {
        allow(actions, resource, Map.of(), wildcardReason);
    }

    /**
     * Lets the role take {@code actions} on {@code resource} under IAM {@code conditions} (operator to key to value,
     * e.g. {@code StringEquals} to {@code s3express:SessionMode} to {@code ReadOnly}); statements with the same
     * actions and conditions are merged.
     *
     * @param conditions the statement's Condition block, an ordered map (empty for none)
     * @param wildcardReason why the resource is a wildcard, for the cdk-nag acknowledgement (empty when it is not)
     */
    void allow(List<String> actions, String resource, Map<String, Object> conditions, String wildcardReason);
}
