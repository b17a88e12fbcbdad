package io.ferry.jdbc;

import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Savepoint;
import java.util.Properties;

import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaFactory;
import org.apache.calcite.avatica.UnregisteredDriver;

/**
 * Avatica's connection in Ferry's auto-commit mode: every statement is atomic and committed on the server when it
 * finishes, so auto-commit is always on, turning it off is not supported (0A000), and {@code commit}, {@code rollback}
 * and savepoints fail as JDBC says they do in auto-commit mode (2D000). Avatica's client would send a commit to the
 * server, which accepts it for the sake of Python's DB-API clients, so a JDBC program would never learn that its
 * "transaction" was none.
 */
final class FerryConnection extends AvaticaConnection {
    static final String NO_TRANSACTIONS = "Ferry has no multi-statement transactions: every statement is atomic and "
            + "committed when it finishes. Keep auto-commit on.";

    FerryConnection(UnregisteredDriver driver, AvaticaFactory factory, String url, Properties info)
            throws SQLException {
        super(driver, factory, url, info);
    }

    @Override
    public boolean getAutoCommit() throws SQLException {
        checkOpen();
        return true;
    }

    @Override
    public void setAutoCommit(boolean autoCommit) throws SQLException {
        checkOpen();
        if (!autoCommit) {
            throw new SQLFeatureNotSupportedException(NO_TRANSACTIONS, "0A000");
        }
    }

    @Override
    public void commit() throws SQLException {
        throw inAutoCommit("commit");
    }

    @Override
    public void rollback() throws SQLException {
        throw inAutoCommit("roll back");
    }

    @Override
    public void rollback(Savepoint savepoint) throws SQLException {
        throw inAutoCommit("roll back");
    }

    @Override
    public Savepoint setSavepoint() throws SQLException {
        throw inAutoCommit("mark a savepoint in");
    }

    @Override
    public Savepoint setSavepoint(String name) throws SQLException {
        throw inAutoCommit("mark a savepoint in");
    }

    @Override
    public void releaseSavepoint(Savepoint savepoint) throws SQLException {
        throw inAutoCommit("mark a savepoint in");
    }

    private SQLException inAutoCommit(String what) throws SQLException {
        checkOpen();
        return new SQLException("the connection is in auto-commit mode: each statement was committed when it finished, "
                + "so there is no transaction to " + what + ".", "2D000");
    }
}
