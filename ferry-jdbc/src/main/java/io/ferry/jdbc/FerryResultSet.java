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
 * Avatica's result set, except that
 * <ul>
 *   <li>a failure fetching the next rows from the server is an {@link SQLException} with the server's SQLSTATE.
 *       Avatica's client lets it escape {@code next()} as its unchecked {@link AvaticaClientRuntimeException}, which
 *       JDBC code does not catch: a result the server abandoned (its client fetched none of it for the server's
 *       client timeout, 57014) crashed the reading thread;</li>
 *   <li>it ends after the statement's {@code maxRows}. Avatica's protocol carries the limit when a statement is
 *       prepared, not when it runs, so the limit a PreparedStatement is given after it was prepared never reached
 *       the server, and every row came back;</li>
 *   <li>{@code getObject(column, type)} reads the Java types of JDBC 4.2 ({@link JavaValues}).</li>
 * </ul>
 */
final class FerryResultSet extends AvaticaResultSet {
    /** The statement's row limit when it ran; 0 for none. */
    private final long maxRows;
    private long rows;

    FerryResultSet(AvaticaStatement statement, QueryState state, Meta.Signature signature, ResultSetMetaData metaData,
            TimeZone timeZone, Meta.Frame firstFrame) throws SQLException {
        super(statement, state, signature, metaData, timeZone, firstFrame);
        this.maxRows = statement == null ? 0 : statement.getLargeMaxRows();
    }

    @Override
    public boolean next() throws SQLException {
        if (maxRows > 0 && rows >= maxRows) {
            return false;
        }
        try {
            boolean more = super.next();
            rows += more ? 1 : 0;
            return more;
        } catch (AvaticaClientRuntimeException e) {
            throw new SQLException(e.getMessage(), e.getSqlState(), e.getErrorCode(), e);
        }
    }

    @Override
    public <T> T getObject(int columnIndex, Class<T> type) throws SQLException {
        return JavaValues.read(this, columnIndex, type);
    }

    @Override
    public <T> T getObject(String columnLabel, Class<T> type) throws SQLException {
        return JavaValues.read(this, findColumn(columnLabel), type);
    }
}
