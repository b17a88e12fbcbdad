package io.ferry.server;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ferry.core.FerryException;
import io.ferry.sql.access.AccessControl;

/**
 * Who may use a server's JDBC port: the users of a users file ({@code --users}), or, without one, anyone who can
 * reach the port. That is safe only on a loopback address, so serving any other address without users takes
 * {@code --insecure}, and the server then says loudly what it does.
 *
 * @param usersFile the users file, or null for none
 * @param insecure  whether to serve a non-loopback address without authentication
 */
public record ServerSecurity(Path usersFile, boolean insecure) {
    private static final Logger LOG = LoggerFactory.getLogger(ServerSecurity.class);

    /** No users file: fine on a loopback address, refused elsewhere. */
    public static final ServerSecurity DEFAULT = new ServerSecurity(null, false);

    /**
     * The access control a server on {@code host} runs with.
     *
     * @throws StartupException when the users file cannot be read, or when {@code host} is reachable from other
     *                          machines and neither a users file nor {@code --insecure} was given
     */
    public AccessControl access(String host) {
        if (usersFile != null) {
            try {
                return AccessControl.load(usersFile);
            } catch (FerryException e) {
                throw new StartupException(e.getMessage(), e);
            }
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
