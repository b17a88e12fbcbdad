package io.ferry.jdbc;

import java.sql.SQLException;
import java.sql.SQLWarning;

import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.Meta;

/**
 * A statement whose {@link #cancel()} and query timeout reach the server, and whose {@link #getWarnings()} come from it
 * ({@link ServerStatement}).
 */
final class FerryStatement extends AvaticaStatement {
    private final StatementWarnings warnings = new StatementWarnings();

    FerryStatement(AvaticaConnection connection, Meta.StatementHandle h, int resultSetType, int resultSetConcurrency,
            int resultSetHoldability) {
        super(connection, h, resultSetType, resultSetConcurrency, resultSetHoldability);
    }

    @Override
    protected void executeInternal(String sql) throws SQLException {
        warnings.executing();
        ServerStatement.withTimeout(connection, handle, getQueryTimeout(), () -> {
            super.executeInternal(sql);
            return null;
        });
    }

    /**
     * The server first: Avatica's own cancel waits for this statement's lock, which a running execute holds until
     * the query ends.
     */
    @Override
    public SQLWarning getWarnings() throws SQLException {
        return warnings.get(connection, handle);
    }

    @Override
    public void clearWarnings() {
        warnings.clear();
    }

    /** A failed batch is a BatchUpdateException that counts the statements applied before it ({@link Batches}). */
    @Override
    public long[] executeLargeBatch() throws SQLException {
        return Batches.run(super::executeLargeBatch);
    }

    @Override
    public void cancel() throws SQLException {
        ServerStatement.cancel(connection, handle);
        super.cancel();
    }
}
