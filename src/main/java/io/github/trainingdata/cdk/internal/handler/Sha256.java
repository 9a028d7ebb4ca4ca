package io.github.trainingdata.cdk.internal.handler;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** The SHA-256 digest the handlers derive names and idempotency tokens from, as lower-case hex. */
public final class Sha256 {
    private Sha256() {
    }

    /**
     * @param text the text, as UTF-8
     * @return its SHA-256 digest, 64 lower-case hex digits
     */
    public static String hex(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("This JVM has no SHA-256", e);
        }
    }
}
