package io.github.trainingdata.cdk.training.handler;

import io.github.trainingdata.cdk.internal.handler.AssumedRoles;
import io.github.trainingdata.cdk.internal.handler.SdkCalls;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * The teardown's clients by the definition whose teardown they serve: each acts as the definition's TeardownRole,
 * assumed by the stack provider's function with its own credentials ({@link AssumedRoles}, the session named after the
 * request). A handler serves one request: each role's clients are made once.
 */
final class RoleClients {
    private final AssumedRoles roles;
    private final Function<AwsCredentialsProvider, TeardownClients> clients;
    private final Map<String, TeardownClients> byRole = new HashMap<>();

    /**
     * @param roles   assumes the definitions' roles (with the function's own credentials)
     * @param clients makes the teardown's clients signing with the given credentials
     */
    RoleClients(AssumedRoles roles, Function<AwsCredentialsProvider, TeardownClients> clients) {
        this.roles = Objects.requireNonNull(roles, "roles");
        this.clients = Objects.requireNonNull(clients, "clients");
    }

    /** @return the clients Lambda runs with: its Region and the definitions' roles, assumed with its own credentials */
    static RoleClients fromEnvironment() {
        Function<AwsCredentialsProvider, TeardownClients> clients = signer -> new TeardownClients(
                SdkCalls.configure(SfnClient.builder()).credentialsProvider(signer).build(),
                SdkCalls.configure(SageMakerClient.builder()).credentialsProvider(signer).build(),
                NetworkInterfaces.fromEnvironment(signer));
        return new RoleClients(AssumedRoles.fromEnvironment(), clients);
    }

    /**
     * The clients that act as {@code roleArn}, its credentials obtained first (so that a refused AssumeRole shows
     * here, not in the middle of a teardown).
     *
     * @param roleArn     the definition's TeardownRole
     * @param sessionName the request's role session name
     * @return the clients
     * @throws software.amazon.awssdk.core.exception.SdkException when STS refuses or fails the AssumeRole
     */
    TeardownClients of(String roleArn, String sessionName) {
        Objects.requireNonNull(roleArn, "roleArn");
        AwsCredentialsProvider provider = roles.credentials(roleArn, sessionName);
        return byRole.computeIfAbsent(roleArn, arn -> clients.apply(provider));
    }
}
