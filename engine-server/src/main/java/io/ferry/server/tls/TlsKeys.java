package io.ferry.server.tls;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import io.ferry.core.FerryException;
import io.ferry.core.FileWrites;
import io.ferry.core.SqlStates;

/**
 * A self-signed certificate for a server's TLS, made with the JDK's keytool ({@code bin/ferry cert}): an EC P-256
 * key and certificate in a PKCS #12 keystore whose random password is in a file beside it (mode 600), and a
 * truststore holding the certificate alone for clients. The truststore's password, {@value #TRUSTSTORE_PASSWORD},
 * guards nothing secret: the file holds a public certificate, and Java's truststores need some password.
 */
public final class TlsKeys {
    public static final String KEYSTORE = "ferry-keystore.p12";
    public static final String PASSWORD = "ferry-keystore.password";
    public static final String TRUSTSTORE = "ferry-truststore.p12";
    public static final String TRUSTSTORE_PASSWORD = "ferry-trust";
    private static final String ALIAS = "ferry";

    private TlsKeys() {
    }

    /** The files made, and the certificate's SHA-256 fingerprint (as browsers and curl show it). */
    public record Made(Path keystore, Path passwordFile, Path truststore, String fingerprint) {
    }

    /**
     * Makes a keystore, its password file and a truststore in {@code dir}, for the names and addresses in
     * {@code hosts} (localhost and 127.0.0.1 are always in); refuses to overwrite a keystore already there.
     */
    public static Made make(Path dir, List<String> hosts) {
        Path keystore = dir.resolve(KEYSTORE);
        Path passwordFile = dir.resolve(PASSWORD);
        Path truststore = dir.resolve(TRUSTSTORE);
        if (Files.exists(keystore) || Files.exists(passwordFile)) {
            throw new FerryException(SqlStates.DUPLICATE_OBJECT, keystore + " or " + passwordFile + " exists; "
                    + "remove both to make another certificate");
        }
        byte[] random = new byte[18];
        new SecureRandom().nextBytes(random);
        String password = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
        List<String> names = new ArrayList<>(List.of("dns:localhost", "ip:127.0.0.1"));
        for (String h : hosts) {
            String entry = (h.matches("[0-9.]+") || h.contains(":") ? "ip:" : "dns:") + h;
            if (!names.contains(entry)) {
                names.add(entry);
            }
        }
        String cn = hosts.isEmpty() ? "localhost" : hosts.get(0);
        try {
            Files.createDirectories(dir);
            FileWrites.createPrivate(passwordFile); // readable by its owner only before the password is in it
            Files.writeString(passwordFile, password + "\n", StandardCharsets.UTF_8);
            keytool(password, "-genkeypair", "-alias", ALIAS, "-keyalg", "EC", "-groupname", "secp256r1",
                    "-sigalg", "SHA256withECDSA", "-validity", "825", "-dname", "CN=" + cn, "-ext",
                    "SAN=" + String.join(",", names), "-keystore", keystore.toString(), "-storetype", "PKCS12",
                    "-storepass:env", "FERRY_STOREPASS", "-keypass:env", "FERRY_STOREPASS");
            restrict(keystore);
            Path cert = Files.createTempFile(dir, "ferry", ".cer");
            try {
                keytool(password, "-exportcert", "-alias", ALIAS, "-keystore", keystore.toString(), "-storetype",
                        "PKCS12", "-storepass:env", "FERRY_STOREPASS", "-file", cert.toString());
                Files.deleteIfExists(truststore);
                keytool(TRUSTSTORE_PASSWORD, "-importcert", "-noprompt", "-alias", ALIAS, "-file", cert.toString(),
                        "-keystore", truststore.toString(), "-storetype", "PKCS12", "-storepass:env",
                        "FERRY_STOREPASS");
            } finally {
                Files.deleteIfExists(cert);
            }
            return new Made(keystore, passwordFile, truststore, fingerprint(keystore, password));
        } catch (IOException e) {
            throw new FerryException(SqlStates.IO_ERROR, "cannot write the certificate files in " + dir + ": "
                    + e.getMessage(), e);
        }
    }

    /** The PKCS #12 store {@code file}, opened with {@code password}. */
    public static KeyStore load(Path file, String password) throws IOException, GeneralSecurityException {
        try (InputStream in = Files.newInputStream(file)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, password.toCharArray());
            return store;
        }
    }

    /** What trusts the certificates of {@code truststore}, made by {@link #make}. */
    public static TrustManagerFactory trust(Path truststore) throws IOException, GeneralSecurityException {
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(load(truststore, TRUSTSTORE_PASSWORD));
        return trust;
    }

    /** The SHA-256 fingerprint of the certificate in {@code keystore}, as {@code AB:CD:...}. */
    public static String fingerprint(Path keystore, String password) {
        try {
            KeyStore ks = load(keystore, password);
            Certificate cert = ks.getCertificate(ks.aliases().nextElement());
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(cert.getEncoded());
            return HexFormat.ofDelimiter(":").withUpperCase().formatHex(digest);
        } catch (IOException | GeneralSecurityException e) {
            throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "cannot read the keystore " + keystore
                    + " with its password: " + e.getMessage(), e);
        }
    }

    /** A TLS context that trusts the certificates of {@code truststore} (made by {@link #make}). */
    public static SSLContext trusting(Path truststore) {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust(truststore).getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "cannot read the truststore " + truststore
                    + " (password " + TRUSTSTORE_PASSWORD + "): " + e.getMessage(), e);
        }
    }

    private static void keytool(String password, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        // the password goes through the environment: a command line is visible to every user of the machine
        pb.environment().put("FERRY_STOREPASS", password);
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("keytool did not finish within 60 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while keytool ran", e);
        }
        if (p.exitValue() != 0) {
            throw new IOException("keytool " + args[0] + " failed: " + output.strip().toLowerCase(Locale.ROOT));
        }
    }

    private static void restrict(Path file) throws IOException {
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: the directory's permissions protect it
        }
    }
}
