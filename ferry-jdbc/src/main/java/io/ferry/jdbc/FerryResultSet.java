package io.ferry.jdbc;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.TimeZone;

import org.apache.calcite.avatica.AvaticaClientRuntimeException;
import org.apache.calcite.avatica.AvaticaResultSet;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.QueryState;

/**
 * Avatica's result set, except that a failure fetching the next rows from the server is an {@link SQLException}
 * with the server's SQLSTATE. Avatica's client lets it escape {@code next()} as its unchecked
 * {@link AvaticaClientRuntimeException}, which JDBC code does not catch: a result the server abandoned (its client
 * fetched none of it for the server's client timeout, 57014) crashed the reading thread.
 */
final class FerryResultSet extends AvaticaResultSet {
    FerryResultSet(AvaticaStatement statement, QueryState state, Meta.Signature signature, ResultSetMetaData metaData,
            TimeZone timeZone, Meta.Frame firstFrame) throws SQLException {
        super(statement, state, signature, metaData, timeZone, firstFrame);
    }

    @Override
    public boolean next() throws SQLException {
        try {
            return super.next();
        } catch (AvaticaClientRuntimeException e) {
            throw new SQLException(e.getMessage(), e.getSqlState(), e.getErrorCode(), e);
        }
    }
}
