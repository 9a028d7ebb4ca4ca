package io.github.trainingdata.cdk.training;

import io.github.trainingdata.cdk.limits.SageMakerLimits;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awscdk.Token;
import software.amazon.awscdk.services.ecr.IRepository;

/**
 * The container image a training job runs: an ECR repository and tag, or an ECR image URI (for
 * example an AWS Deep Learning Container). The execution role may pull from that repository only.
 */
public final class TrainingImage {
    /** Longest TrainingImage the API accepts (255): {@link SageMakerLimits#TRAINING_IMAGE}. */
    public static final int MAX_LENGTH = SageMakerLimits.TRAINING_IMAGE.getMax().intValue();
    private static final Pattern ECR_URI = Pattern.compile(
            "(\\d{12})\\.dkr\\.ecr(?:-fips)?\\.([a-z0-9-]+)\\.amazonaws\\.com(?:\\.cn)?/([a-z0-9._/-]+)(?::[\\w.-]+|@sha256:[0-9a-f]{64})?");

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

    /** @return the regex match of a literal ECR URI (account, region, repository), or null when not one */
    Matcher parseUri() {
        if (Token.isUnresolved(uri)) {
            return null;
        }
        Matcher m = ECR_URI.matcher(uri);
        return m.matches() ? m : null;
    }
}
