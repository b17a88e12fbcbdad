package io.ferry.jdbc;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.Properties;
import java.util.TimeZone;

import org.apache.calcite.avatica.AvaticaClientRuntimeException;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaFactory;
import org.apache.calcite.avatica.AvaticaPreparedStatement;
import org.apache.calcite.avatica.AvaticaResultSet;
import org.apache.calcite.avatica.AvaticaSpecificDatabaseMetaData;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.InternalProperty;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.QueryState;
import org.apache.calcite.avatica.UnregisteredDriver;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;

/**
 * Avatica's JDBC 4.1 objects, except that connections are {@link FerryConnection}s (auto-commit only), statements are {@link FerryStatement}s and {@link FerryPreparedStatement}s,
 * whose cancel and timeout reach the server, result sets are {@link FerryResultSet}s, which report a failed fetch
 * with its SQLSTATE, and metadata knows keys ({@link KeyMetadata}).
 */
final class FerryFactory implements AvaticaFactory {
    private final AvaticaFactory avatica;

    FerryFactory(AvaticaFactory avatica) {
        this.avatica = avatica;
    }

    @Override
    public int getJdbcMajorVersion() {
        return avatica.getJdbcMajorVersion();
    }

    @Override
    public int getJdbcMinorVersion() {
        return avatica.getJdbcMinorVersion();
    }

    /**
     * A connection whose DatabaseMetaData reports Ferry's identifier rules: unquoted names fold to lower case, quoted
     * ones keep theirs. Avatica's client assumes upper case, so tools that fold a name the way the driver says
     * before looking it up (sqlline's {@code !describe lineorder} asked for LINEORDER) found nothing.
     */
    @Override
    public AvaticaConnection newConnection(UnregisteredDriver driver, AvaticaFactory factory, String url,
            Properties info) throws SQLException {
        AvaticaConnection connection = new FerryConnection(driver, this, url, info);
        connection.properties.put(InternalProperty.UNQUOTED_CASING, Casing.TO_LOWER);
        connection.properties.put(InternalProperty.QUOTED_CASING, Casing.UNCHANGED);
        connection.properties.put(InternalProperty.CASE_SENSITIVE, false);
        connection.properties.put(InternalProperty.QUOTING, Quoting.DOUBLE_QUOTE);
        return connection;
    }

    /**
     * A statement; the server's refusal to make one (a password changed since the connection opened, a dropped user)
     * is an SQLException with its SQLSTATE, where Avatica's client lets it escape unchecked.
     */
    @Override
    public AvaticaStatement newStatement(AvaticaConnection connection, Meta.StatementHandle h, int resultSetType,
            int resultSetConcurrency, int resultSetHoldability) throws SQLException {
        try {
            return new FerryStatement(connection, h, resultSetType, resultSetConcurrency, resultSetHoldability);
        } catch (AvaticaClientRuntimeException e) {
            throw new SQLException(e.getMessage(), e.getSqlState(), e.getErrorCode(), e);
        }
    }

    @Override
    public AvaticaPreparedStatement newPreparedStatement(AvaticaConnection connection, Meta.StatementHandle h,
            Meta.Signature signature, int resultSetType, int resultSetConcurrency, int resultSetHoldability)
            throws SQLException {
        return new FerryPreparedStatement(connection, h, signature, resultSetType, resultSetConcurrency,
                resultSetHoldability);
    }

    @Override
    public AvaticaResultSet newResultSet(AvaticaStatement statement, QueryState state, Meta.Signature signature,
            TimeZone timeZone, Meta.Frame firstFrame) throws SQLException {
        return new FerryResultSet(statement, state, signature, newResultSetMetaData(statement, signature), timeZone,
                firstFrame);
    }

    /** Avatica's, with the keys and indexes the server declares ({@link KeyMetadata}). */
    @Override
    public AvaticaSpecificDatabaseMetaData newDatabaseMetaData(AvaticaConnection connection) {
        return KeyMetadata.wrap(avatica.newDatabaseMetaData(connection));
    }

    @Override
    public ResultSetMetaData newResultSetMetaData(AvaticaStatement statement, Meta.Signature signature)
            throws SQLException {
        return avatica.newResultSetMetaData(statement, signature);
    }
}
