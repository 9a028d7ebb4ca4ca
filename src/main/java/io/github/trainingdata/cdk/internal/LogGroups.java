package io.github.trainingdata.cdk.internal;

import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.Aws;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.kms.IKey;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.logs.RetentionDays;
import software.constructs.Construct;
import software.constructs.IConstruct;

/**
 * The CloudWatch log groups of this library's constructs (flow logs; one per stack and key shared by the state
 * machines, the custom resources' functions and waiters, {@link #shared}): kept one year and, when the data layer has a KMS key (the
 * {@link io.github.trainingdata.cdk.storage.TrainingDataBucket#getEncryptionKey() TrainingDataBucket's key}), encrypted with that key, so one key choice covers every
 * bucket and log group.
 *
 * <p>CloudWatch Logs encrypts with a customer managed key only when the key policy lets the Regional service
 * principal {@code logs.<region>.amazonaws.com} use it; the statement added here is limited by the encryption
 * context {@code kms:EncryptionContext:aws:logs:arn} to log groups of the stack's account and Region
 * (CloudWatch Logs User Guide, "Encrypt log data in CloudWatch Logs using AWS KMS"). An imported key's policy
 * cannot be changed here: the log group then gets a warning saying what the key policy needs.
 */
public final class LogGroups {
    /** The id, at the stack's root, of the log group the library's functions and state machines share. */
    static final String SHARED_ID = "TrainingDataLogs";

    private LogGroups() {
    }

    /**
     * The stack's one log group for the library's functions and state machines (the custom resources' handler
     * functions, the custom-resource dispatcher and its waiter state machine, the training definitions' and
     * the preloads' state machines), created by the first caller: one per stack and key, at the stack's root
     * ({@value #SHARED_ID}, suffixed for a key by the key's construct address, so that the id does not depend on which
     * construct asks first); kept one year, as {@link #create}. The sources stay apart: Lambda names every log stream
     * of a shared group after its function ({@code YYYY/MM/DD/<function_name>[<version>][<environment>]}; Lambda
     * Developer Guide, "Configuring CloudWatch log groups"), and every Step Functions log event names its execution,
     * whose ARN holds its state machine's name (the console links an execution to its events by that filter).
     *
     * @param scope any construct of the stack
     * @param key   the data layer's KMS key, or null
     * @return the stack's shared log group for {@code key}
     */
    public static LogGroup shared(Construct scope, IKey key) {
        Stack stack = Stack.of(scope);
        String id = key == null ? SHARED_ID : SHARED_ID + key.getNode().getAddr().substring(2, 10);
        IConstruct existing = stack.getNode().tryFindChild(id);
        return existing instanceof LogGroup shared ? shared : create(stack, id, key);
    }

    /**
     * Creates a log group kept one year, encrypted with {@code key} when one is given.
     *
     * @param scope the scope
     * @param id    the log group's id
     * @param key   the data layer's KMS key, or null for CloudWatch Logs' own encryption
     * @return the log group
     */
    public static LogGroup create(Construct scope, String id, IKey key) {
        LogGroup.Builder builder = LogGroup.Builder.create(scope, id).retention(RetentionDays.ONE_YEAR)
                // Kept when the stack is deleted (the record of what ran), not when its creating deploy rolls back.
                .removalPolicy(RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE);
        if (key == null) {
            return builder.build();
        }
        LogGroup logGroup = builder.encryptionKey(key).build();
        if (!allowCloudWatchLogs(logGroup, key)) {
            Annotations.of(logGroup).addWarningV2("@trainingdata/storage:logsKeyPolicy", logGroup.getNode().getPath()
                    + ": the KMS key is imported, so its key policy cannot be changed here; allow the service "
                    + "principal logs.<region>.amazonaws.com kms:Encrypt*, kms:Decrypt*, kms:ReEncrypt*, "
                    + "kms:GenerateDataKey* and kms:Describe* for log groups of this account "
                    + "(kms:EncryptionContext:aws:logs:arn), or the log group cannot be created");
        }
        return logGroup;
    }

    /**
     * Lets CloudWatch Logs in the stack's Region use the key for log groups of the stack's account. The statement
     * is the same for every log group, so a key used by many log groups carries it once (aws-cdk-lib removes
     * duplicate statements).
     *
     * @return whether the statement could be added (false for an imported key)
     */
    private static boolean allowCloudWatchLogs(Construct scope, IKey key) {
        Stack stack = Stack.of(scope);
        String region = stack.getRegion();
        String logGroups = "arn:" + stack.getPartition() + ":logs:" + region + ":" + stack.getAccount()
                + ":log-group:*";
        return key.addToResourcePolicy(PolicyStatement.Builder.create()
                .principals(List.of(new ServicePrincipal("logs." + region + "." + Aws.URL_SUFFIX)))
                .actions(List.of("kms:Encrypt*", "kms:Decrypt*", "kms:ReEncrypt*", "kms:GenerateDataKey*",
                        "kms:Describe*"))
                .resources(List.of("*"))
                .conditions(Map.of("ArnLike", Map.of("kms:EncryptionContext:aws:logs:arn", logGroups)))
                .build()).getStatementAdded();
    }
}
