package io.ferry.server.jdbc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.AbstractHandler;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.sql.access.AccessControl;
import io.ferry.sql.access.Principal;

/**
 * HTTP Basic authentication of every request on the JDBC port, when the server has users ({@link AccessControl}).
 * Avatica's drivers ({@code authentication=BASIC;avatica_user=...;avatica_password=...}), ferry-jdbc
 * ({@code user}/{@code password}), phoenixdb and {@code bin/ferry} all send it. A request without credentials is
 * answered 401 with a {@code WWW-Authenticate} challenge (Avatica's client sends its credentials only when
 * challenged). Wrong credentials on a JDBC request are left for {@link ProtobufEndpoint} to answer with SQLSTATE
 * 28P01 in Avatica's error format, since its clients read an error only from that; on Ferry's other endpoints they
 * are a 401 with one line.
 *
 * <p>Passwords are slow hashes, and a client sends its credentials with every request (each fetch of a result is
 * one), so a verified header is remembered under its SHA-256 until users or grants change.
 */
public final class AuthenticationGuard extends AbstractHandler {
    /** The request attribute holding the {@link Principal} a request runs as. */
    static final String PRINCIPAL = "ferry.principal";
    /** The request attribute holding the {@link FerryException} that refused a JDBC request's credentials. */
    static final String REFUSED = "ferry.refused";
    /** The request attribute holding the SHA-256 of the credentials a request sent. */
    static final String CREDENTIALS = "ferry.credentials";

    private static final int REMEMBERED = 10_000;

    private final AccessControl access;
    /** Verified credentials by their SHA-256, each with the version of the users it was verified against. */
    private final Map<String, Verified> verified = new ConcurrentHashMap<>();
    /**
     * Slow hashes computed at once: one per core. A flood of made-up passwords then queues here instead of taking
     * every core from the queries of users who logged in.
     */
    private final Semaphore hashing = new Semaphore(Runtime.getRuntime().availableProcessors(), true);

    private record Verified(Principal user, long version) {
    }

    AuthenticationGuard(AccessControl access) {
        this.access = access;
    }

    @Override
    public void handle(String target, Request base, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        if (!access.required()) {
            request.setAttribute(PRINCIPAL, Principal.owner());
            return;
        }
        String header = request.getHeader("Authorization");
        if (header == null || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
            base.setHandled(true);
            response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
            response.setHeader("WWW-Authenticate", "Basic realm=\"Ferry\", charset=\"UTF-8\"");
            plain(response, "this server requires a user and password (HTTP Basic): connect with user and password "
                    + "properties (ferry-jdbc), authentication=BASIC;avatica_user=...;avatica_password=... (Avatica's "
                    + "driver), or bin/ferry ... --user NAME");
            return;
        }
        String credentials = header.substring(6).trim();
        request.setAttribute(CREDENTIALS, sha256(credentials));
        try {
            request.setAttribute(PRINCIPAL, principal(credentials));
        } catch (FerryException e) {
            if (target.startsWith("/ferry/")) {
                base.setHandled(true);
                response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
                plain(response, e.sqlState() + " " + e.getMessage());
            } else {
                request.setAttribute(REFUSED, e);
            }
        }
    }

    private Principal principal(String credentials) {
        long version = access.version();
        String key = sha256(credentials);
        Verified known = verified.get(key);
        if (known != null && known.version() == version) {
            return known.user();
        }
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(credentials), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new FerryException(SqlStates.INVALID_AUTHORIZATION, "the Authorization header is not Base64 of "
                    + "user:password");
        }
        int colon = decoded.indexOf(':');
        if (colon < 0) {
            throw new FerryException(SqlStates.INVALID_AUTHORIZATION, "the Authorization header holds no ':' between "
                    + "user and password");
        }
        Principal user;
        hashing.acquireUninterruptibly();
        try {
            user = access.authenticate(decoded.substring(0, colon), decoded.substring(colon + 1).toCharArray());
        } finally {
            hashing.release();
        }
        if (verified.size() >= REMEMBERED) {
            verified.clear();
        }
        // remembered with the version it was checked against: an entry from before a change is never used
        verified.put(key, new Verified(user, version));
        return user;
    }

    private static String sha256(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return Base64.getEncoder().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
    }

    private static void plain(HttpServletResponse response, String sentence) throws IOException {
        response.setContentType("text/plain;charset=utf-8");
        response.getOutputStream().write((sentence + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The principal {@link #handle} found for {@code request} (the owner if authentication is off); null if it found
     * none, which a handler must refuse.
     */
    public static Principal principalOf(HttpServletRequest request) {
        Object p = request.getAttribute(PRINCIPAL);
        return p instanceof Principal principal ? principal : null;
    }
}
