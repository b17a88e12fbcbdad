package io.ferry.jdbc;

import java.sql.BatchUpdateException;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.calcite.avatica.AvaticaClientRuntimeException;
import org.apache.calcite.avatica.AvaticaSqlException;

/**
 * A batch that fails as JDBC says: a {@link BatchUpdateException} with the update counts of the statements that were
 * applied. The server runs a batch's statements in order, each committed when it finishes, stops at the first that
 * fails, and says in its error how many were applied before it. Avatica's client threw that error as a plain
 * SQLException for a PreparedStatement and as its unchecked AvaticaClientRuntimeException for a Statement.
 */
final class Batches {
    /** The server's sentence (FerryMeta.BATCH_APPLIED). */
    private static final Pattern APPLIED = Pattern.compile("The first (\\d+) statements of the batch were applied");

    /** A batch's execution. */
    interface Execution {
        long[] run() throws SQLException;
    }

    private Batches() {
    }

    static long[] run(Execution batch) throws SQLException {
        try {
            return batch.run();
        } catch (BatchUpdateException e) {
            throw e;
        } catch (AvaticaSqlException e) {
            throw failed(e.getErrorMessage(), e.getSQLState(), e);
        } catch (SQLException e) {
            throw failed(e.getMessage(), e.getSQLState(), e);
        } catch (AvaticaClientRuntimeException e) {
            throw failed(e.getMessage(), e.getSqlState(), e);
        }
    }

    /**
     * The failure with one count per applied statement: {@link Statement#SUCCESS_NO_INFO}, since the error says how
     * many were applied but not how many rows each changed.
     */
    private static BatchUpdateException failed(String message, String sqlState, Throwable cause) {
        Matcher m = message == null ? null : APPLIED.matcher(message);
        long[] counts = new long[m != null && m.find() ? Integer.parseInt(m.group(1)) : 0];
        Arrays.fill(counts, Statement.SUCCESS_NO_INFO);
        return new BatchUpdateException(message, sqlState, -1, counts, cause);
    }
}
