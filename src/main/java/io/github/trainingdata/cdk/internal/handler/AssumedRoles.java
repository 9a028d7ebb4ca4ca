package io.github.trainingdata.cdk.internal.handler;

import com.amazonaws.services.lambda.runtime.LambdaLogger;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.auth.StsAssumeRoleCredentialsProvider;

/**
 * The roles the custom-resource handlers act as: each custom resource names its own role ({@value #ROLE_ARN}), which
 * trusts the stack provider's function role alone; the provider assumes it with STS AssumeRole (its own credentials),
 * in a session named after the request ({@link #sessionName}), and the handler's calls for that request sign with the
 * role's credentials (the SDK's provider renews them before they expire). The most recent {@value #MAX_SESSIONS}
 * sessions are kept per function instance, so an isComplete call of the same request reuses its credentials.
 *
 * <p>A role created seconds before its custom resource may not be assumable yet: IAM is eventually consistent (the
 * IAM User Guide's troubleshooting page, section "eventual-consistency", as third-party pages cite it; its text was
 * not read here), and no AWS page read bounds how long (UNVERIFIED). So a refused AssumeRole (STS
 * {@code AccessDenied}, or a transient error) is tried again: in onEvent within the same invocation, after pauses of 1,
 * 2, 4, 8, 16 and 29 seconds ({@link #ON_EVENT_WAIT}, {@link #waitFor}); in isComplete by answering "not complete yet"
 * (the dispatcher), so that the next call, 30 seconds later, tries again until the provider's total timeout.
 */
public final class AssumedRoles {
    /** The ResourceProperties key of every resource the stack's provider serves: the role its handler acts as. */
    public static final String ROLE_ARN = "RoleArn";
    /**
     * The longest onEvent waits for a refused role (pauses included), so that a Create fails within a minute or two
     * when the role stays refused; onEvent's own calls take 40 seconds each at most ({@link SdkCalls#API_CALL_TIMEOUT}).
     */
    public static final Duration ON_EVENT_WAIT = Duration.ofSeconds(60);
    /** The sessions kept (credentials per role and request). */
    static final int MAX_SESSIONS = 16;
    /** The longest role session name STS accepts (AssumeRole, RoleSessionName: 2 to 64 of {@code [\w+=,.@-]}). */
    static final int MAX_SESSION_NAME = 64;
    private static final Duration FIRST_PAUSE = Duration.ofSeconds(1);

    /** Waits between two AssumeRole attempts (a test supplies one that only records). */
    @FunctionalInterface
    public interface Pause {
        /**
         * @param duration how long to wait
         * @throws InterruptedException when interrupted
         */
        void pause(Duration duration) throws InterruptedException;
    }

    private final StsClient sts;
    private final Pause pause;
    private final Map<String, AwsCredentialsProvider> sessions = new LinkedHashMap<>(MAX_SESSIONS, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, AwsCredentialsProvider> eldest) {
            return size() > MAX_SESSIONS;
        }
    };

    /**
     * @param sts   assumes the roles (with the function's own credentials)
     * @param pause waits between attempts in onEvent
     */
    public AssumedRoles(StsClient sts, Pause pause) {
        this.sts = Objects.requireNonNull(sts, "sts");
        this.pause = Objects.requireNonNull(pause, "pause");
    }

    /** @return the roles Lambda assumes: STS in the function's Region with its own credentials */
    public static AssumedRoles fromEnvironment() {
        return new AssumedRoles(SdkCalls.configure(StsClient.builder()).build(),
                duration -> Thread.sleep(duration.toMillis()));
    }

    /**
     * The role session's name, which CloudTrail shows for the handler's calls: the resource type (without
     * {@code Custom::}) and the CloudFormation request id, in the characters STS allows, at most 64.
     *
     * @param request the custom resource request
     * @return the session name
     */
    public static String sessionName(CustomResourceEvent request) {
        String type = request.field("ResourceType").orElse("Custom::Resource").replaceFirst("^Custom::", "");
        String name = (type + "-" + request.requestId()).replaceAll("[^\\w+=,.@-]", "-");
        return name.length() > MAX_SESSION_NAME ? name.substring(0, MAX_SESSION_NAME) : name;
    }

    /**
     * The role's credentials for the session, obtained now (so that a refused AssumeRole shows here, before any call).
     *
     * @param roleArn     the role
     * @param sessionName the session's name
     * @return credentials that sign as the role
     * @throws SdkException when STS refuses or fails the AssumeRole
     */
    public AwsCredentialsProvider credentials(String roleArn, String sessionName) {
        String key = roleArn + "|" + sessionName;
        AwsCredentialsProvider known = sessions.get(key);
        if (known != null) {
            return known;
        }
        AwsCredentialsProvider provider = StsAssumeRoleCredentialsProvider.builder().stsClient(sts)
                .refreshRequest(request -> request.roleArn(roleArn).roleSessionName(sessionName)).build();
        provider.resolveCredentials();
        sessions.put(key, provider);
        return provider;
    }

    /**
     * Credentials for a role that cannot be assumed: every call made with them fails with STS's answer, before it is
     * sent, so that a handler whose calls may be refused (a Delete that never fails) treats each as refused.
     *
     * @param refusal what STS answered (or how AssumeRole failed)
     * @return credentials that never resolve
     */
    public static AwsCredentialsProvider refusing(SdkException refusal) {
        Objects.requireNonNull(refusal, "refusal");
        return () -> {
            throw refusal;
        };
    }

    /**
     * {@link #credentials}, a refused or failed AssumeRole tried again after growing pauses until
     * {@link #ON_EVENT_WAIT} has passed.
     *
     * @param roleArn     the role
     * @param sessionName the session's name
     * @param log         logs each refusal
     * @return credentials that sign as the role
     * @throws SdkException the last refusal, once the wait is over, or at once an error no wait can mend
     */
    public AwsCredentialsProvider waitFor(String roleArn, String sessionName, LambdaLogger log) {
        Duration waited = Duration.ZERO;
        Duration next = FIRST_PAUSE;
        while (true) {
            try {
                return credentials(roleArn, sessionName);
            } catch (SdkException e) {
                Duration left = ON_EVENT_WAIT.minus(waited);
                if (!worthAnotherTry(e) || left.isZero() || left.isNegative()) {
                    throw e;
                }
                Duration wait = next.compareTo(left) < 0 ? next : left;
                log.log("Cannot assume " + roleArn + " yet (IAM may not show a new role or trust everywhere yet), "
                        + "trying again in " + wait.toSeconds() + " s: " + e.getMessage());
                try {
                    pause.pause(wait);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
                waited = waited.plus(wait);
                next = next.multipliedBy(2);
            }
        }
    }

    /**
     * @param e an error of STS AssumeRole, after the SDK's retries
     * @return whether a later AssumeRole may succeed: STS refused it ({@code AccessDenied}: the role or its trust is
     *         not visible yet), or the error is transient
     */
    public static boolean worthAnotherTry(SdkException e) {
        return SdkCalls.isTransient(e) || e instanceof AwsServiceException service && (service.statusCode() == 403
                || service.awsErrorDetails() != null && "AccessDenied".equals(service.awsErrorDetails().errorCode()));
    }
}
