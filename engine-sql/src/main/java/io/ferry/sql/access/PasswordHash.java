package io.ferry.sql.access;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Passwords as salted slow hashes: PBKDF2 with HMAC-SHA256, a random 16-byte salt per password, and 600,000
 * iterations (OWASP's 2023 advice for this function), written {@code pbkdf2-sha256$ITERATIONS$SALT$HASH} with the
 * salt and hash in Base64. The iteration count is part of each stored hash, so a stored hash stays verifiable if the
 * default changes. The JDK's own PBKDF2 implementation: no library to add for it.
 */
public final class PasswordHash {
    static final String SCHEME = "pbkdf2-sha256";
    static final int ITERATIONS = 600_000;
    private static final int SALT_BYTES = 16;
    private static final int HASH_BITS = 256;
    private static final SecureRandom RANDOM = new SecureRandom();

    private PasswordHash() {
    }

    /** A new hash of {@code password} with a fresh salt. */
    public static String hash(char[] password) {
        byte[] salt = new byte[SALT_BYTES];
        RANDOM.nextBytes(salt);
        Base64.Encoder b64 = Base64.getEncoder().withoutPadding();
        return SCHEME + "$" + ITERATIONS + "$" + b64.encodeToString(salt) + "$"
                + b64.encodeToString(derive(password, salt, ITERATIONS));
    }

    /** Whether {@code password} is the one {@code stored} was made from; compares in constant time. */
    public static boolean matches(String stored, char[] password) {
        String[] parts = stored.split("\\$");
        byte[] salt = Base64.getDecoder().decode(parts[2]);
        byte[] expected = Base64.getDecoder().decode(parts[3]);
        return MessageDigest.isEqual(expected, derive(password, salt, Integer.parseInt(parts[1])));
    }

    /** Whether {@code text} has the form {@link #hash} writes; for reading a users file. */
    static boolean wellFormed(String text) {
        String[] parts = text.split("\\$");
        if (parts.length != 4 || !SCHEME.equals(parts[0])) {
            return false;
        }
        try {
            return Integer.parseInt(parts[1]) > 0 && Base64.getDecoder().decode(parts[2]).length > 0
                    && Base64.getDecoder().decode(parts[3]).length == HASH_BITS / 8;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static byte[] derive(char[] password, byte[] salt, int iterations) {
        PBEKeySpec spec = new PBEKeySpec(password, salt, iterations, HASH_BITS);
        try {
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM has no PBKDF2WithHmacSHA256", e);
        } finally {
            spec.clearPassword();
        }
    }
}
