package io.github.trainingdata.cdk.training;

import io.github.trainingdata.cdk.limits.SageMakerLimits;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awscdk.Fn;
import software.amazon.awscdk.Token;
import software.amazon.awscdk.services.ecr.IRepository;

/**
 * The container image a training job runs: an ECR repository and tag, or an ECR image URI (for
 * example an AWS Deep Learning Container). The execution role may pull from that repository only.
 */
public final class TrainingImage {
    /** Longest TrainingImage the API accepts (255): {@link SageMakerLimits#TRAINING_IMAGE}. */
    public static final int MAX_LENGTH = SageMakerLimits.TRAINING_IMAGE.getMax().intValue();
    /** The host of an Amazon ECR private registry (account, region), FIPS and China included. */
    private static final String HOST = "(\\d{12})\\.dkr\\.ecr(?:-fips)?\\.([a-z0-9-]+)\\.amazonaws\\.com(?:\\.cn)?";
    private static final Pattern ECR_HOST = Pattern.compile(HOST);
    private static final Pattern ECR_URI = Pattern.compile(HOST + "/([a-z0-9._/-]+)(?::[\\w.-]+|@sha256:[0-9a-f]{64})?");
    private static final String COMMERCIAL_HOST_END = ".amazonaws.com/";

    private final String uri;
    private final IRepository repository;

    private TrainingImage(String uri, IRepository repository) {
        this.uri = uri;
        this.repository = repository;
    }

    /**
     * An image in an ECR repository of this app.
     *
     * @param repository the repository
     * @param tag the image tag
     * @return the image
     */
    public static TrainingImage fromEcrRepository(IRepository repository, String tag) {
        return new TrainingImage(repository.repositoryUriForTag(Objects.requireNonNull(tag)), repository);
    }

    /**
     * An image by URI: {@code <account>.dkr.ecr.<region>.amazonaws.com/<repository>}, optionally with
     * {@code :<tag>} or {@code @sha256:<digest>} (without either, the registry serves {@code latest}).
     *
     * @param uri the image URI
     * @return the image
     */
    public static TrainingImage fromUri(String uri) {
        return new TrainingImage(Objects.requireNonNull(uri), null);
    }

    /** @return the image URI (a token for a repository of this app) */
    public String getUri() {
        return uri;
    }

    /** @return the repository, or null for an image given by URI */
    public IRepository getRepository() {
        return repository;
    }

    /**
     * The ARN of the ECR repository the image is pulled from, for the execution role's pull permission. A literal
     * URI is parsed. A deploy-time URI (a parameter, an import, a URI built with intrinsics) is taken apart by
     * CloudFormation at deploy time, on its form {@code <account>.dkr.ecr.<region>.amazonaws.com[.cn]/<repository>
     * [:<tag> | @<digest>]}: the account is the text before the first {@code .}, the region the fourth
     * {@code .}-separated part, the repository everything after the host (a name with {@code /} included) up to
     * {@code @} or {@code :}. Each {@code Fn::Select} picks from a list padded with its delimiter, so a value of
     * another form gives an ARN that matches no repository instead of failing the deploy.
     *
     * @param partition the partition of the stack that grants (the repository is in the same one)
     * @return the ARN (intrinsics for a deploy-time URI), or null when the URI's host is written out and is not
     *     Amazon ECR's, so no repository can be derived
     */
    String repositoryArn(String partition) {
        if (!Token.isUnresolved(uri)) {
            Matcher parsed = parseUri();
            return parsed == null ? null : "arn:" + partition + ":ecr:" + parsed.group(2) + ":" + parsed.group(1)
                    + ":repository/" + parsed.group(3);
        }
        String host = literalHost();
        if (host != null && !ECR_HOST.matcher(host).matches()) {
            return null;
        }
        String account = Fn.select(0, Fn.split(".", uri));
        String region = Fn.select(3, Fn.split(".", uri + "...."));
        String commercial = Fn.join(COMMERCIAL_HOST_END, Fn.split(".amazonaws.com.cn/", uri));
        String path = Fn.select(1, Fn.split(COMMERCIAL_HOST_END, commercial + COMMERCIAL_HOST_END));
        String untagged = Fn.select(0, Fn.split(":", Fn.select(0, Fn.split("@", path + "@")) + ":"));
        return "arn:" + partition + ":ecr:" + region + ":" + account + ":repository/" + untagged;
    }

    /** @return the host of a deploy-time URI when it is written out (no token before the first {@code /}), else null */
    String literalHost() {
        int slash = uri.indexOf('/');
        String host = slash < 0 ? uri : uri.substring(0, slash);
        return slash < 0 || Token.isUnresolved(host) ? null : host;
    }

    /** @return the regex match of a literal ECR URI (account, region, repository), or null when not one */
    Matcher parseUri() {
        if (Token.isUnresolved(uri)) {
            return null;
        }
        Matcher m = ECR_URI.matcher(uri);
        return m.matches() ? m : null;
    }
}
