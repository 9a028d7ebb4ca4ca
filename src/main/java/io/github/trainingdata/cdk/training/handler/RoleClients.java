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
 * request), or, for an entry that names no role, as the teardown resource's own role. A handler serves one request:
 * each role's clients are made once.
 */
final class RoleClients {
    private final AssumedRoles roles;
    private final Function<AwsCredentialsProvider, TeardownClients> clients;
    private final Map<String, TeardownClients> byRole = new HashMap<>();
    private final TeardownClients own;

    /**
     * @param own     the clients with the teardown resource's role's credentials
     * @param roles   assumes the definitions' roles (with the function's own credentials)
     * @param clients makes the teardown's clients signing with the given credentials
     */
    RoleClients(TeardownClients own, AssumedRoles roles, Function<AwsCredentialsProvider, TeardownClients> clients) {
        this.own = Objects.requireNonNull(own, "own");
        this.roles = Objects.requireNonNull(roles, "roles");
        this.clients = Objects.requireNonNull(clients, "clients");
    }

    /**
     * @param credentials the teardown resource's role's credentials
     * @return the clients Lambda runs with: its Region, the resource's role and the definitions' roles
     */
    static RoleClients fromEnvironment(AwsCredentialsProvider credentials) {
        Function<AwsCredentialsProvider, TeardownClients> clients = signer -> new TeardownClients(
                SdkCalls.configure(SfnClient.builder()).credentialsProvider(signer).build(),
                SdkCalls.configure(SageMakerClient.builder()).credentialsProvider(signer).build(),
                NetworkInterfaces.fromEnvironment(signer));
        return new RoleClients(clients.apply(credentials), AssumedRoles.fromEnvironment(), clients);
    }

    /**
     * The clients that act as {@code roleArn}, its credentials obtained first (so that a refused AssumeRole shows
     * here, not in the middle of a teardown).
     *
     * @param roleArn     the definition's TeardownRole, or null: the teardown resource's role
     * @param sessionName the request's role session name
     * @return the clients
     * @throws software.amazon.awssdk.core.exception.SdkException when STS refuses or fails the AssumeRole
     */
    TeardownClients of(String roleArn, String sessionName) {
        if (roleArn == null) {
            return own;
        }
        AwsCredentialsProvider provider = roles.credentials(roleArn, sessionName);
        return byRole.computeIfAbsent(roleArn, arn -> clients.apply(provider));
    }
}
