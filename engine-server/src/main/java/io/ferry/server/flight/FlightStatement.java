package io.ferry.server.flight;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.Text;

import io.ferry.sql.access.Principal;

/**
 * One statement a Flight SQL client prepared (or sent to run once): its own engine connection, running as the user
 * who made it, and the JDBC statement planned on it. Owned by {@link FerryFlightProducer}, which closes it when the
 * client does, when a one-off statement's result has been sent, when the client has left it idle too long, or when
 * the server stops.
 */
final class FlightStatement implements AutoCloseable {
    final Principal owner;
    final String sql;
    /** Whether it runs once and is closed after (CommandStatementQuery), rather than prepared. */
    final boolean oneShot;
    private final Connection connection;
    final PreparedStatement statement;
    /** The result's Arrow schema, or null for a statement without a result (DDL, DML). */
    final Schema schema;
    private volatile long lastUsed = System.nanoTime();
    private volatile boolean running;

    private FlightStatement(Principal owner, String sql, boolean oneShot, Connection connection,
            PreparedStatement statement, Schema schema) {
        this.owner = owner;
        this.sql = sql;
        this.oneShot = oneShot;
        this.connection = connection;
        this.statement = statement;
        this.schema = schema;
    }

    /** Plans {@code sql} on {@code connection}, which it then owns (and closes, also when planning fails). */
    static FlightStatement prepare(Principal owner, String sql, boolean oneShot, Connection connection)
            throws SQLException {
        try {
            PreparedStatement statement = connection.prepareStatement(sql);
            ResultSetMetaData md = statement.getMetaData();
            Schema schema = md == null || md.getColumnCount() == 0 ? null : ArrowColumns.schema(md);
            return new FlightStatement(owner, sql, oneShot, connection, statement, schema);
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    /** The parameters' Arrow schema ({@code ?} markers in order), or null for none. */
    Schema parameterSchema() throws SQLException {
        ParameterMetaData md = statement.getParameterMetaData();
        if (md == null || md.getParameterCount() == 0) {
            return null;
        }
        List<Field> fields = new ArrayList<>();
        for (int i = 1; i <= md.getParameterCount(); i++) {
            int type = md.getParameterType(i);
            fields.add(new Field("p" + i, FieldType.nullable(ArrowColumns.arrowType(type, md.getPrecision(i),
                    md.getScale(i))), null));
        }
        return new Schema(fields);
    }

    /** Binds row {@code row} of {@code parameters} (one column per {@code ?}, in order). */
    void bind(VectorSchemaRoot parameters, int row) throws SQLException {
        List<FieldVector> vectors = parameters.getFieldVectors();
        for (int i = 0; i < vectors.size(); i++) {
            FieldVector v = vectors.get(i);
            Object value = v.isNull(row) ? null : v.getObject(row);
            if (value == null) {
                statement.setNull(i + 1, Types.NULL);
            } else if (value instanceof Text text) {
                statement.setString(i + 1, text.toString());
            } else if (v instanceof DateDayVector d) {
                statement.setDate(i + 1, java.sql.Date.valueOf(java.time.LocalDate.ofEpochDay(d.get(row))));
            } else if (v instanceof DateMilliVector || v instanceof TimeStampVector) {
                statement.setTimestamp(i + 1, java.sql.Timestamp.valueOf((java.time.LocalDateTime) value));
            } else if (value instanceof BigDecimal || value instanceof Number || value instanceof Boolean) {
                statement.setObject(i + 1, value);
            } else {
                statement.setString(i + 1, value.toString());
            }
        }
    }

    void touch() {
        lastUsed = System.nanoTime();
    }

    /** Whether nobody has used it for {@code nanos} and no result of it is being sent. */
    boolean idleFor(long nanos) {
        return !running && System.nanoTime() - lastUsed > nanos;
    }

    void running(boolean running) {
        this.running = running;
        touch();
    }

    /** Stops a running execution (its batches stop within the engine's cancel check). */
    void cancel() {
        try {
            statement.cancel();
        } catch (SQLException e) {
            // already closed: nothing runs
        }
    }

    @Override
    public void close() {
        try {
            statement.close();
        } catch (SQLException e) {
            // closing the connection below frees it anyway
        }
        try {
            connection.close();
        } catch (SQLException e) {
            // nothing more can be freed
        }
    }
}
