package io.ferry.jdbc;

import java.sql.Connection;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;

import org.apache.calcite.avatica.AvaticaClientRuntimeException;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaFactory;
import org.apache.calcite.avatica.BuiltInConnectionProperty;
import org.apache.calcite.avatica.ConnectionProperty;
import org.apache.calcite.avatica.DriverVersion;
import org.apache.calcite.avatica.remote.AvaticaRemoteConnectionProperty;
import org.apache.calcite.avatica.remote.Service;

/**
 * The Ferry JDBC driver: {@code jdbc:ferry://host[:port][?option=value&...]}.
 *
 * <p>A Ferry coordinator serves JDBC as Avatica's protobuf protocol over HTTP, so this driver is Avatica's remote
 * driver with Ferry's URL in front: the URL becomes Avatica's {@code url=http://host:port;serialization=PROTOBUF},
 * options become connection properties. Options Avatica's client understands (timeouts, TLS trust store,
 * {@code fetch_size}, ...) configure the transport and stay on this side; the rest (user, password, and anything
 * the server defines) are sent to the server when the connection opens, as {@code java.sql.DriverManager}
 * properties are.
 */
public final class FerryDriver extends org.apache.calcite.avatica.remote.Driver {
    private static final Set<String> CLIENT_ONLY = clientOnlyProperties();

    static {
        new FerryDriver().register();
    }

    public FerryDriver() {
    }

    @Override
    protected String getConnectStringPrefix() {
        return FerryUrl.PREFIX;
    }

    @Override
    protected DriverVersion createDriverVersion() {
        return DriverVersion.load(FerryDriver.class, "io/ferry/jdbc/ferry-jdbc.properties", "Ferry JDBC Driver",
                "unknown version", "Ferry", "unknown version");
    }

    @Override
    public boolean acceptsURL(String url) {
        return FerryUrl.accepts(url);
    }

    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        if (!acceptsURL(url)) {
            return null;
        }
        FerryUrl parsed = FerryUrl.parse(url);
        Properties properties = new Properties();
        if (info != null) {
            properties.putAll(info);
        }
        properties.putAll(parsed.options());
        loginWithBasicAuthentication(properties);
        Properties session = new Properties();
        for (String name : properties.stringPropertyNames()) {
            // the password authenticates each HTTP request and is never sent as a property of the session
            if (!CLIENT_ONLY.contains(name.toLowerCase(Locale.ROOT)) && !name.equalsIgnoreCase("password")) {
                session.setProperty(name, properties.getProperty(name));
            }
        }
        properties.setProperty(BuiltInConnectionProperty.URL.camelName(), parsed.endpoint());
        properties.setProperty(BuiltInConnectionProperty.SERIALIZATION.camelName(), Serialization.PROTOBUF.name());

        AvaticaFactory ferry = new FerryFactory(factory);
        AvaticaConnection connection = ferry.newConnection(this, ferry, url, properties);
        handler.onConnectionInit(connection);
        try {
            connection.getService().apply(new Service.OpenConnectionRequest(connection.id,
                    Service.OpenConnectionRequest.serializeProperties(session)));
            return connection;
        } catch (RuntimeException e) {
            SQLException failure = openFailure(parsed, e);
            try {
                connection.close();
            } catch (SQLException | RuntimeException closing) {
                failure.addSuppressed(closing);
            }
            throw failure;
        }
    }

    /** Lists the URL's options with the given properties, then the properties Avatica's client knows. */
    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) throws SQLException {
        Properties merged = new Properties();
        if (info != null) {
            merged.putAll(info);
        }
        if (acceptsURL(url)) {
            merged.putAll(FerryUrl.parse(url).options());
        }
        return super.getPropertyInfo(url, merged);
    }

    /**
     * JDBC's {@code user} and {@code password} as what a Ferry server with users asks for: HTTP Basic authentication
     * of every request (Avatica's {@code authentication=BASIC}, {@code avatica_user}, {@code avatica_password}),
     * unless the caller chose Avatica's properties itself.
     */
    private static void loginWithBasicAuthentication(Properties properties) {
        String user = properties.getProperty("user");
        String password = properties.getProperty("password");
        String authentication = BuiltInConnectionProperty.AUTHENTICATION.camelName();
        if (user == null || password == null || properties.getProperty(authentication) != null) {
            return;
        }
        properties.setProperty(authentication, "BASIC");
        properties.setProperty(BuiltInConnectionProperty.AVATICA_USER.camelName(), user);
        properties.setProperty(BuiltInConnectionProperty.AVATICA_PASSWORD.camelName(), password);
    }

    /**
     * Why opening failed, as an SQLException with a state a tool can act on: the server's own state when it
     * answered, 28000 when it asks for a user and password, 08001 when it could not be reached.
     */
    private static SQLException openFailure(FerryUrl url, RuntimeException e) {
        if (e instanceof AvaticaClientRuntimeException remote) {
            String state = remote.getSqlState() == null || "00000".equals(remote.getSqlState()) ? "08004"
                    : remote.getSqlState();
            return new SQLException("the Ferry server at " + url.endpoint() + " refused the connection: "
                    + remote.getMessage(), state, remote);
        }
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        String why = root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
        if (why.contains("HTTP/401")) {
            return new SQLException("the Ferry server at " + url.endpoint() + " requires a user and password; give "
                    + "them as the user and password properties (or ?user=...&password=... in the URL)", "28000", e);
        }
        return new SQLException("cannot reach a Ferry server at " + url.endpoint() + " (" + why
                + "); check host and port, and that the server runs (bin/ferry local)", "08001", e);
    }

    /**
     * Names (lower case) of the properties Avatica's client consumes itself. Schema and time zone are among them
     * but mean something to the server too, so they are sent along.
     */
    private static Set<String> clientOnlyProperties() {
        Set<String> names = new HashSet<>();
        List<ConnectionProperty> properties = new ArrayList<>(List.of(BuiltInConnectionProperty.values()));
        properties.addAll(List.of(AvaticaRemoteConnectionProperty.values()));
        for (ConnectionProperty p : properties) {
            if (p == BuiltInConnectionProperty.SCHEMA || p == BuiltInConnectionProperty.TIME_ZONE
                    || p == BuiltInConnectionProperty.TIMEZONE) {
                continue;
            }
            names.add(p.name().toLowerCase(Locale.ROOT));
            names.add(p.camelName().toLowerCase(Locale.ROOT));
        }
        return Collections.unmodifiableSet(names);
    }
}
