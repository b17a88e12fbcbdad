package io.ferry.server.cli;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * The driver {@code ferry sql} gives sqlline: Avatica's remote driver, logging in with the user and password
 * sqlline passes ({@code -n}, {@code -p}). Avatica's driver takes HTTP credentials only as its own properties
 * ({@code authentication=BASIC}, {@code avatica_user}, {@code avatica_password}), which sqlline cannot pass but in
 * the URL, where sqlline would print the password. URLs are Avatica's with {@value #PREFIX} for
 * {@code jdbc:avatica:remote:}, so that this driver, not Avatica's, answers them.
 */
public final class ShellDriver implements Driver {
    static final String PREFIX = "jdbc:ferry-shell:";
    private static final String AVATICA = "jdbc:avatica:remote:";

    static {
        try {
            DriverManager.registerDriver(new ShellDriver());
        } catch (SQLException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The shell's URL for an Avatica remote URL; other URLs stay as they are. */
    static String shellUrl(String url) {
        return url.startsWith(AVATICA) ? PREFIX + url.substring(AVATICA.length()) : url;
    }

    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        if (!acceptsURL(url)) {
            return null;
        }
        Properties props = new Properties();
        props.putAll(info);
        String user = props.getProperty("user");
        String password = (String) props.remove("password");
        if (user != null && !user.isEmpty() && password != null) {
            props.setProperty("authentication", "BASIC");
            props.setProperty("avatica_user", user);
            props.setProperty("avatica_password", password);
        }
        return new org.apache.calcite.avatica.remote.Driver().connect(AVATICA + url.substring(PREFIX.length()),
                props);
    }

    @Override
    public boolean acceptsURL(String url) {
        return url != null && url.startsWith(PREFIX);
    }

    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
        return new DriverPropertyInfo[0];
    }

    @Override
    public int getMajorVersion() {
        return 1;
    }

    @Override
    public int getMinorVersion() {
        return 0;
    }

    @Override
    public boolean jdbcCompliant() {
        return false;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException("no java.util.logging here");
    }
}
