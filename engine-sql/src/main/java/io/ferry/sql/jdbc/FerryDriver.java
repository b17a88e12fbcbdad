package io.ferry.sql.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;

import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.Handler;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.jdbc.Driver;

import io.ferry.sql.FerryEngine;
import io.ferry.sql.access.Principal;
import io.ferry.sql.TypeMapping;
import io.ferry.sql.schema.FerrySchema;
import io.ferry.sql.schema.InformationSchema;
import io.ferry.sql.schema.SystemSchema;

/**
 * The in-process JDBC driver over an embedded engine: {@code jdbc:ferry:embedded:engine=NAME}. A Calcite
 * connection with Ferry's schema, type system, DDL parser and planner rules; unquoted identifiers are
 * case-insensitive and fold to lower case.
 */
public final class FerryDriver extends Driver {
    public static final String PREFIX = "jdbc:ferry:embedded:";
    /**
     * The connection property naming the user whose statements the connection runs ({@link Principal}); without it,
     * the engine's owner. Set by the JDBC server from the user a client logged in as, never from what a client sends.
     */
    public static final String USER_PROPERTY = "ferry.user";
    /** The {@link Principal#generation} of {@link #USER_PROPERTY}'s user; without it the user is not recognised. */
    public static final String GENERATION_PROPERTY = "ferry.user.generation";
    private static volatile boolean registered;

    public FerryDriver() {
        super(FerryPrepare::new);
    }

    public static synchronized void ensureRegistered() {
        if (!registered) {
            new FerryDriver().register();
            registered = true;
        }
    }

    @Override
    protected String getConnectStringPrefix() {
        return PREFIX;
    }

    /** Calcite's handler, plus: a closing connection's cached plans are dropped. */
    @Override
    protected Handler createHandler() {
        Handler calcite = super.createHandler();
        return new Handler() {
            @Override
            public void onConnectionInit(AvaticaConnection connection) throws SQLException {
                calcite.onConnectionInit(connection);
            }

            @Override
            public void onConnectionClose(AvaticaConnection connection) {
                try {
                    CalciteSchema root = connection.unwrap(CalciteConnection.class).getRootSchema()
                            .unwrap(CalciteSchema.class);
                    FerryEngine engine = root == null ? null : FerryPrepare.engineOf(root);
                    if (engine != null) {
                        engine.plans().forget(root);
                    }
                } catch (SQLException e) {
                    // Not a Calcite connection: it has no plans here.
                }
                calcite.onConnectionClose(connection);
            }

            @Override
            public void onStatementExecute(AvaticaStatement statement, ResultSink sink) {
                calcite.onStatementExecute(statement, sink);
            }

            @Override
            public void onStatementClose(AvaticaStatement statement) {
                calcite.onStatementClose(statement);
            }
        };
    }

    /** A generation as the property holds it; -1, which no user has, when it is missing or malformed. */
    private static long generation(String text) {
        try {
            return text == null ? -1 : Long.parseLong(text);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        if (!acceptsURL(url)) {
            return null;
        }
        String engineName = null;
        for (String part : url.substring(PREFIX.length()).split(";")) {
            if (part.startsWith("engine=")) {
                engineName = part.substring("engine=".length());
            }
        }
        FerryEngine engine = engineName == null ? null : FerryEngine.lookup(engineName);
        if (engine == null) {
            throw new SQLException("no Ferry engine named '" + engineName + "' runs in this JVM", "08001");
        }
        String user = info.getProperty(USER_PROPERTY);
        Principal principal = user == null ? Principal.owner()
                : Principal.user(user, generation(info.getProperty(GENERATION_PROPERTY)));
        Properties props = new Properties();
        props.putAll(info);
        props.remove(USER_PROPERTY);
        props.remove(GENERATION_PROPERTY);
        props.setProperty("caseSensitive", "false");
        props.setProperty("unquotedCasing", "TO_LOWER");
        props.setProperty("quotedCasing", "UNCHANGED");
        props.setProperty("quoting", "DOUBLE_QUOTE");
        props.setProperty("conformance", "LENIENT");
        // Calcite's PostgreSQL function library beside the standard one: everyday functions (LEFT, LPAD, CONCAT,
        // SPLIT_PART, STRPOS, GREATEST, REGEXP_REPLACE, STRING_AGG, BOOL_AND, ...). Not MySQL's as well: where both
        // define a function (CONCAT) their NULL rules differ, and PostgreSQL's are the ones DuckDB shares
        props.setProperty("fun", "standard,postgresql");
        props.setProperty("timeZone", "UTC");
        // English names from DAYNAME and MONTHNAME where Calcite's row engine runs them ('Wednesday', as Ferry's
        // kernels and DuckDB give; the default root locale gave 'Wed')
        props.setProperty("locale", "en_US");
        props.setProperty("typeSystem", "io.ferry.sql.FerryTypeSystem#INSTANCE");
        props.setProperty("parserFactory", "io.ferry.sql.ddl.FerryParserFactory#FACTORY");
        // no materialized views: the cost-based phase then does not look for any to use
        props.setProperty("materializationsEnabled", "false");
        Connection conn = super.connect(PREFIX, props);
        CalciteConnection calcite = conn.unwrap(CalciteConnection.class);
        calcite.getRootSchema().add(FerrySchema.NAME, new FerrySchema(engine, principal)).setCacheEnabled(false);
        calcite.getRootSchema().add(SystemSchema.NAME, new SystemSchema(engine)).setCacheEnabled(false);
        calcite.getRootSchema().add(InformationSchema.NAME, new InformationSchema(engine)).setCacheEnabled(false);
        // type aliases (TEXT, INT8, FLOAT8, ...) for CAST(x AS text); the validator finds named types at the root
        TypeMapping.ALIASES.forEach((alias, type) -> calcite.getRootSchema().add(alias,
                factory -> factory.createSqlType(type)));
        calcite.setSchema(FerrySchema.NAME);
        return conn;
    }
}
