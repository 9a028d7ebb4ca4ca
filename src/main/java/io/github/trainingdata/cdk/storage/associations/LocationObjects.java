package io.github.trainingdata.cdk.storage.associations;

import io.github.trainingdata.cdk.internal.handler.SdkCalls;
import java.util.Objects;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;

/**
 * Counts the objects of an S3 location ({@code s3://bucket/prefix/}) with ListObjectsV2, up to a bound: what a moved
 * association's directory holds once its metadata is imported, since FSx shows a file for each imported object.
 */
final class LocationObjects {
    /** ListObjectsV2's page size maximum ("returns up to 1,000 key names", S3 API reference). */
    private static final int PAGE = 1000;

    private final S3Client s3;

    LocationObjects(S3Client s3) {
        this.s3 = Objects.requireNonNull(s3, "s3");
    }

    /** @return a client builder as the handlers run them ({@link SdkCalls#configure}) */
    static S3ClientBuilder clientBuilder() {
        return SdkCalls.configure(S3Client.builder());
    }

    /**
     * Counts the location's objects, stopping once more than {@code bound} are seen.
     *
     * @param location {@code s3://bucket/prefix/} (the bucket root: {@code s3://bucket/})
     * @param bound    the count that matters
     * @return the count, or {@code bound + 1} when the location holds more than {@code bound}
     */
    long countUpTo(String location, long bound) {
        String path = location.substring("s3://".length());
        int slash = path.indexOf('/');
        String bucket = slash < 0 ? path : path.substring(0, slash);
        String prefix = slash < 0 ? "" : path.substring(slash + 1);
        long count = 0;
        String token = null;
        do {
            String page = token;
            ListObjectsV2Response response = s3.listObjectsV2(r -> r.bucket(bucket).prefix(prefix.isEmpty() ? null : prefix)
                    .maxKeys(PAGE).continuationToken(page));
            count += response.keyCount() != null ? response.keyCount() : response.contents().size();
            token = Boolean.TRUE.equals(response.isTruncated()) ? response.nextContinuationToken() : null;
        } while (token != null && count <= bound);
        return Math.min(count, bound + 1);
    }
}
