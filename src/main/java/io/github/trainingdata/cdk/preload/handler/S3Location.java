package io.github.trainingdata.cdk.preload.handler;

/**
 * An S3 location {@code s3://bucket/prefix/} (or {@code s3://bucket/} for the bucket root), as the preload
 * checks it for objects and imports its metadata.
 *
 * @param uri    the location as given
 * @param bucket the bucket name
 * @param prefix the key prefix, ending in {@code /}, or empty for the bucket root
 */
record S3Location(String uri, String bucket, String prefix) {
    /**
     * Parses {@code s3://bucket/} or {@code s3://bucket/prefix/}.
     *
     * @param uri the URI
     * @return the location
     * @throws IllegalArgumentException if the URI has another form
     */
    static S3Location parse(String uri) {
        String scheme = "s3://";
        int slash = uri.indexOf('/', scheme.length());
        boolean wellFormed = uri.startsWith(scheme) && slash > scheme.length() && uri.endsWith("/")
                && !uri.substring(scheme.length()).contains("//");
        if (!wellFormed) {
            throw new IllegalArgumentException("'" + uri + "' is not an S3 location s3://bucket/ or s3://bucket/prefix/");
        }
        return new S3Location(uri, uri.substring(scheme.length(), slash), uri.substring(slash + 1));
    }
}
