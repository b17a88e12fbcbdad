package io.ferry.jdbc;

import java.io.InputStream;
import java.io.Reader;
import java.sql.NClob;
import java.sql.ResultSet;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.SQLXML;

import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaPreparedStatement;
import org.apache.calcite.avatica.Meta;

/**
 * A prepared statement whose {@link #cancel()}, query timeout and {@link #getWarnings()} reach the server
 * ({@link ServerStatement}); the JDBC
 * 4.x parameter setters go to Avatica's parameter sites, as in Avatica's own JDBC 4.1 statement.
 */
final class FerryPreparedStatement extends AvaticaPreparedStatement {
    private final StatementWarnings warnings = new StatementWarnings();

    FerryPreparedStatement(AvaticaConnection connection, Meta.StatementHandle h, Meta.Signature signature,
            int resultSetType, int resultSetConcurrency, int resultSetHoldability) throws SQLException {
        super(connection, h, signature, resultSetType, resultSetConcurrency, resultSetHoldability);
    }

    @Override
    public ResultSet executeQuery() throws SQLException {
        warnings.executing();
        return ServerStatement.withTimeout(connection, handle, getQueryTimeout(), super::executeQuery);
    }

    @Override
    public boolean execute() throws SQLException {
        warnings.executing();
        return ServerStatement.withTimeout(connection, handle, getQueryTimeout(), super::execute);
    }

    /** {@code executeUpdate} (final in Avatica) comes here too. */
    @Override
    public long executeLargeUpdate() throws SQLException {
        warnings.executing();
        return ServerStatement.withTimeout(connection, handle, getQueryTimeout(), super::executeLargeUpdate);
    }

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

    @Override
    public void setRowId(int parameterIndex, RowId x) throws SQLException {
        getSite(parameterIndex).setRowId(x);
    }

    @Override
    public void setNString(int parameterIndex, String value) throws SQLException {
        getSite(parameterIndex).setNString(value);
    }

    @Override
    public void setNCharacterStream(int parameterIndex, Reader value, long length) throws SQLException {
        getSite(parameterIndex).setNCharacterStream(value, length);
    }

    @Override
    public void setNClob(int parameterIndex, NClob value) throws SQLException {
        getSite(parameterIndex).setNClob(value);
    }

    @Override
    public void setClob(int parameterIndex, Reader reader, long length) throws SQLException {
        getSite(parameterIndex).setClob(reader, length);
    }

    @Override
    public void setBlob(int parameterIndex, InputStream inputStream, long length) throws SQLException {
        getSite(parameterIndex).setBlob(inputStream, length);
    }

    @Override
    public void setNClob(int parameterIndex, Reader reader, long length) throws SQLException {
        getSite(parameterIndex).setNClob(reader, length);
    }

    @Override
    public void setSQLXML(int parameterIndex, SQLXML xmlObject) throws SQLException {
        getSite(parameterIndex).setSQLXML(xmlObject);
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream x, long length) throws SQLException {
        getSite(parameterIndex).setAsciiStream(x, length);
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x, long length) throws SQLException {
        getSite(parameterIndex).setBinaryStream(x, length);
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader, long length) throws SQLException {
        getSite(parameterIndex).setCharacterStream(reader, length);
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream x) throws SQLException {
        getSite(parameterIndex).setAsciiStream(x);
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x) throws SQLException {
        getSite(parameterIndex).setBinaryStream(x);
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader) throws SQLException {
        getSite(parameterIndex).setCharacterStream(reader);
    }

    @Override
    public void setNCharacterStream(int parameterIndex, Reader value) throws SQLException {
        getSite(parameterIndex).setNCharacterStream(value);
    }

    @Override
    public void setClob(int parameterIndex, Reader reader) throws SQLException {
        getSite(parameterIndex).setClob(reader);
    }

    @Override
    public void setBlob(int parameterIndex, InputStream inputStream) throws SQLException {
        getSite(parameterIndex).setBlob(inputStream);
    }

    @Override
    public void setNClob(int parameterIndex, Reader reader) throws SQLException {
        getSite(parameterIndex).setNClob(reader);
    }
}
