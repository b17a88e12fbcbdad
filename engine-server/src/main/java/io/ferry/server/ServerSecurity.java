package io.ferry.server;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ferry.core.FerryException;
import io.ferry.server.jdbc.JdbcServer;
import io.ferry.server.tls.TlsKeys;
import io.ferry.sql.access.AccessControl;

/**
 * Who may use a server's JDBC port: the users of a users file ({@code --users}), or, without one, anyone who can
 * reach the port. That is safe only on a loopback address, so serving any other address without users takes
 * {@code --insecure}, and the server then says loudly what it does.
 *
 * @param usersFile       the users file, or null for none
 * @param insecure        whether to serve a non-loopback address without authentication
 * @param tlsKeystore     a PKCS #12 keystore to serve HTTPS with ({@code bin/ferry cert}), or null for HTTP
 * @param tlsPasswordFile the file holding the keystore's password; null for the one {@code bin/ferry cert} writes
 *                        beside the keystore
 */
public record ServerSecurity(Path usersFile, boolean insecure, Path tlsKeystore, Path tlsPasswordFile) {
    private static final Logger LOG = LoggerFactory.getLogger(ServerSecurity.class);

    /** No users file: fine on a loopback address, refused elsewhere. */
    public static final ServerSecurity DEFAULT = new ServerSecurity(null, false);

    /** Without TLS. */
    public ServerSecurity(Path usersFile, boolean insecure) {
        this(usersFile, insecure, null, null);
    }

    /** The port's TLS, or null to serve plain HTTP. */
    public JdbcServer.Tls tls() {
        if (tlsKeystore == null) {
            return null;
        }
        Path passwordFile = tlsPasswordFile != null ? tlsPasswordFile
                : tlsKeystore.resolveSibling(TlsKeys.PASSWORD);
        try {
            return new JdbcServer.Tls(tlsKeystore, PasswordFile.read(passwordFile));
        } catch (FerryException e) {
            throw new StartupException(e.getMessage() + " (give the keystore's password file with "
                    + "--tls-password-file)", e);
        }
    }

    /**
     * The access control a server on {@code host} runs with.
     *
     * @throws StartupException when the users file cannot be read, or when {@code host} is reachable from other
     *                          machines and neither a users file nor {@code --insecure} was given
     */
    public AccessControl access(String host) {
        if (usersFile != null) {
            AccessControl access;
            try {
                access = AccessControl.load(usersFile);
            } catch (FerryException e) {
                throw new StartupException(e.getMessage(), e);
            }
            if (tlsKeystore == null && !isLoopback(host)) {
                LOG.warn("serving {} with passwords but without TLS: passwords cross the network readable by anyone "
                        + "on the path; add --tls-keystore (bin/ferry cert makes one)", host);
            }
            return access;
        }
        if (!isLoopback(host)) {
            if (!insecure) {
                throw new StartupException("serving " + host + " without users would let anyone who can reach it "
                        + "read, change and drop every table; make a users file (bin/ferry user add NAME --admin "
                        + "--users FILE) and start with --users FILE, serve 127.0.0.1 only (--host 127.0.0.1), or, "
                        + "on a network you trust, add --insecure", null);
            }
            LOG.warn("INSECURE: serving {} without authentication (--insecure): anyone who can reach this port may "
                    + "read, change and drop every table", host);
        }
        return AccessControl.open();
    }

    /** Whether {@code host} is a loopback address (an unknown host is not: the server reports it). */
    public static boolean isLoopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
