package io.github.trainingdata.cdk.training;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A request document cut into parts of at most a given number of bytes each, whatever its deploy-time values
 * resolve to: a part ends between two literal characters or before a whole deploy-time value, which counts by its
 * bound ({@link RequestDocumentBound}). Joined in order, the parts are the document. A deploy-time value whose bound
 * alone exceeds a part is recorded ({@link #largestValue()}) instead of being cut.
 */
final class RequestSplit {
    private final long maxPartBytes;
    private final List<String> parts = new ArrayList<>();
    private StringBuilder part = new StringBuilder();
    private long partBytes;
    private long largestValueBytes;
    private String largestValuePath;

    RequestSplit(long maxPartBytes) {
        this.maxPartBytes = maxPartBytes;
    }

    /** Appends literal JSON text, cutting it between characters where a part is full. */
    void literal(String json) {
        for (int i = 0; i < json.length(); ) {
            int c = json.codePointAt(i);
            String character = new String(Character.toChars(c));
            i += character.length();
            int bytes = character.getBytes(StandardCharsets.UTF_8).length;
            if (partBytes + bytes > maxPartBytes) {
                next();
            }
            part.append(character);
            partBytes += bytes;
        }
    }

    /**
     * Appends a whole deploy-time value, in the next part when it does not fit this one.
     *
     * @param marker the value's token marker (rendered by CloudFormation), or null for a value that cannot be inlined
     * @param bound  the most bytes it resolves to
     * @param path   the request member it stands in, for messages
     */
    void token(String marker, long bound, String path) {
        if (bound > largestValueBytes) {
            largestValueBytes = bound;
            largestValuePath = path;
        }
        if (marker == null || bound > maxPartBytes) {
            return;
        }
        if (partBytes + bound > maxPartBytes) {
            next();
        }
        part.append(marker);
        partBytes += bound;
    }

    private void next() {
        parts.add(part.toString());
        part = new StringBuilder();
        partBytes = 0;
    }

    /** @return the parts in order, each a string that may hold deploy-time values */
    List<String> parts() {
        List<String> all = new ArrayList<>(parts);
        if (partBytes > 0) {
            all.add(part.toString());
        }
        return Collections.unmodifiableList(all);
    }

    /** @return whether every deploy-time value fits a part, so that the parts are the whole document */
    boolean fits() {
        return largestValueBytes <= maxPartBytes;
    }

    /** @return the bound of the largest deploy-time value, in bytes */
    long largestValue() {
        return largestValueBytes;
    }

    /** @return the request member of the largest deploy-time value */
    String largestValuePath() {
        return largestValuePath;
    }
}
