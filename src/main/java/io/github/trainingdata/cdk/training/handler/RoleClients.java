package io.github.trainingdata.cdk.training.handler;

import io.github.trainingdata.cdk.internal.handler.SdkCalls;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.auth.StsAssumeRoleCredentialsProvider;

/**
 * The teardown's clients by the role they act as: a definition's TeardownRole, assumed with STS AssumeRole (session
 * {@value #SESSION_NAME}; the SDK's provider renews the credentials before they expire), or, for an entry that names no
 * role (written before the role existed), the handler's own credentials. Each role's clients are made once per
 * function instance.
 */
final class RoleClients {
    /** The role session's name, which CloudTrail shows for the teardown's calls. */
    static final String SESSION_NAME = "training-teardown";

    private final StsClient sts;
    private final Function<AwsCredentialsProvider, TeardownClients> clients;
    private final Map<String, AwsCredentialsProvider> credentials = new HashMap<>();
    private final Map<String, TeardownClients> byRole = new HashMap<>();
    private final TeardownClients own;

    /**
     * @param own     the clients with the handler's own credentials
     * @param sts     assumes the roles (with the handler's own credentials)
     * @param clients makes the teardown's clients signing with the given credentials
     */
    RoleClients(TeardownClients own, StsClient sts, Function<AwsCredentialsProvider, TeardownClients> clients) {
        this.own = Objects.requireNonNull(own, "own");
        this.sts = Objects.requireNonNull(sts, "sts");
        this.clients = Objects.requireNonNull(clients, "clients");
    }

    /** @return the clients Lambda runs with: its Region, its own credentials and the roles it assumes */
    static RoleClients fromEnvironment() {
        Function<AwsCredentialsProvider, TeardownClients> clients = credentials -> new TeardownClients(
                SdkCalls.configure(SfnClient.builder()).credentialsProvider(credentials).build(),
                SdkCalls.configure(SageMakerClient.builder()).credentialsProvider(credentials).build(),
                NetworkInterfaces.fromEnvironment(credentials));
        return new RoleClients(clients.apply(DefaultCredentialsProvider.builder().build()),
                SdkCalls.configure(StsClient.builder()).build(), clients);
    }

    /**
     * The clients that act as {@code roleArn}, its credentials obtained first (so that a refused AssumeRole shows
     * here, not in the middle of a teardown).
     *
     * @param roleArn the definition's TeardownRole, or null: the handler's own credentials
     * @return the clients
     * @throws software.amazon.awssdk.core.exception.SdkException when STS refuses or fails the AssumeRole
     */
    TeardownClients of(String roleArn) {
        if (roleArn == null) {
            return own;
        }
        AwsCredentialsProvider provider = credentials.computeIfAbsent(roleArn, arn -> StsAssumeRoleCredentialsProvider
                .builder().stsClient(sts)
                .refreshRequest(request -> request.roleArn(arn).roleSessionName(SESSION_NAME)).build());
        provider.resolveCredentials();
        return byRole.computeIfAbsent(roleArn, arn -> clients.apply(provider));
    }
}
