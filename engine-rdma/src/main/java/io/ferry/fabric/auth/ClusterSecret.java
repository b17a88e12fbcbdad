package io.ferry.fabric.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import io.ferry.core.FileWrites;
import io.ferry.core.SqlStates;
import io.ferry.fabric.FabricException;

/**
 * The secret a cluster's coordinator and nodes share, read from a file every process of the cluster is given
 * ({@code --cluster-secret FILE}; {@code bin/ferry secret} makes one). Connections between them prove knowledge of
 * it to each other ({@link SecretHandshake}) without sending it. 32 random bytes, Base64 on the file's first line.
 */
public final class ClusterSecret {
    private static final int BYTES = 32;
    private final byte[] key;

    private ClusterSecret(byte[] key) {
        this.key = key;
    }

    /** The secret in {@code file}; fails naming the file when it is missing, unreadable or too short. */
    public static ClusterSecret load(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new FabricException(SqlStates.INVALID_PARAMETER_VALUE, "cannot read the cluster secret " + file + ": " + e.getMessage()
                    + "; make one with bin/ferry secret --out " + file + " and give every node the same file", e);
        }
        byte[] key;
        try {
            key = Base64.getDecoder().decode(text.lines().findFirst().orElse(""));
        } catch (IllegalArgumentException e) {
            key = new byte[0];
        }
        if (key.length < 16) {
            throw new FabricException(SqlStates.INVALID_PARAMETER_VALUE, "the cluster secret " + file + " holds no Base64 secret of at least "
                    + "16 bytes; make one with bin/ferry secret --out " + file);
        }
        return new ClusterSecret(key);
    }

    /** Writes a new random secret to {@code file} (readable by its owner only); refuses to replace one. */
    public static void create(Path file) {
        byte[] key = new byte[BYTES];
        new SecureRandom().nextBytes(key);
        try {
            FileWrites.createPrivate(file); // readable by its owner only before a byte of the secret is in it
            Files.writeString(file, Base64.getEncoder().encodeToString(key) + "\n", StandardCharsets.UTF_8);
        } catch (FileAlreadyExistsException e) {
            throw new FabricException(SqlStates.DUPLICATE_OBJECT, "the cluster secret " + file + " exists already; every node of a "
                    + "cluster needs the same one, so it is not replaced", e);
        } catch (IOException e) {
            throw new FabricException(SqlStates.IO_ERROR, "cannot write the cluster secret " + file + ": " + e.getMessage(), e);
        }
    }

    /** HMAC-SHA256 under the secret of {@code label}, then each of {@code parts}. */
    byte[] mac(String label, byte[]... parts) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update(label.getBytes(StandardCharsets.US_ASCII));
            for (byte[] p : parts) {
                mac.update(p);
            }
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM has no HmacSHA256", e);
        }
    }
}
