package io.ferry.jdbc;

import java.sql.SQLException;

import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.Meta;

/** A statement whose {@link #cancel()} and query timeout reach the server ({@link ServerCancel}). */
final class FerryStatement extends AvaticaStatement {
    FerryStatement(AvaticaConnection connection, Meta.StatementHandle h, int resultSetType, int resultSetConcurrency,
            int resultSetHoldability) {
        super(connection, h, resultSetType, resultSetConcurrency, resultSetHoldability);
    }

    @Override
    protected void executeInternal(String sql) throws SQLException {
        ServerCancel.withTimeout(connection, handle, getQueryTimeout(), () -> {
            super.executeInternal(sql);
            return null;
        });
    }

    /**
     * The server first: Avatica's own cancel waits for this statement's lock, which a running execute holds until
     * the query ends.
     */
    @Override
    public void cancel() throws SQLException {
        ServerCancel.cancel(connection, handle);
        super.cancel();
    }
}
