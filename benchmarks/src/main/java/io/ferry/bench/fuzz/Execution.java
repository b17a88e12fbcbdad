package io.ferry.bench.fuzz;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import io.ferry.sql.SqlErrors;

/**
 * Runs one query with a timeout and turns what happened into a {@link Result}. The timeout is set on the statement
 * (Ferry's local connection honours setQueryTimeout); a watchdog cancels the statement a little later in case an
 * operator does not look at the flag, so that one query cannot hang a run.
 */
final class Execution implements AutoCloseable {
    private static final Pattern CALCITE_WRAPPER = Pattern.compile("Error while executing SQL \"[^\"]*\": ");
    private final ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "fuzz-watchdog");
        t.setDaemon(true);
        return t;
    });
    /** Generated queries answer at most about 10^4 rows; shrinking may build a cross product of every table. */
    static final int MAX_ROWS = 200_000;
    private final Duration timeout;

    Execution(Duration timeout) {
        this.timeout = timeout;
    }

    /**
     * An in-memory DuckDB with a memory limit, so that a cross product a shrinking step builds fails in DuckDB
     * instead of filling the machine (results are not streamed: DuckDB's JDBC driver then reports every error as
     * "Invalid result set").
     */
    static Connection duckDb() throws SQLException {
        Connection c = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement s = c.createStatement()) {
            s.execute("SET memory_limit = '2GB'");
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        return c;
    }

    Result ferry(Connection c, String sql) {
        return run(c, sql, true);
    }

    Result duck(Connection c, String sql) {
        return run(c, sql, false);
    }

    private Result run(Connection c, String sql, boolean ferry) {
        long start = System.nanoTime();
        try (Statement s = c.createStatement()) {
            try {
                s.setQueryTimeout((int) Math.max(1, timeout.toSeconds()));
            } catch (SQLException unsupported) {
                // the watchdog below still cancels it
            }
            ScheduledFuture<?> cancel = watchdog.schedule(() -> {
                try {
                    s.cancel();
                } catch (SQLException ignored) {
                    // the statement finished meanwhile
                }
            }, timeout.toMillis() + 2_000, TimeUnit.MILLISECONDS);
            try (ResultSet rs = s.executeQuery(sql)) {
                return ResultComparator.read(rs, MAX_ROWS);
            } finally {
                cancel.cancel(false);
            }
        } catch (ResultComparator.TooManyRows e) {
            return new Result.Failure(e.getSQLState(), e.getMessage(), false);
        } catch (SQLException | RuntimeException | AssertionError | StackOverflowError e) {
            // Calcite's planner throws AssertionError (Litmus) and may recurse too deep: internal errors, not the end
            boolean timedOut = System.nanoTime() - start >= timeout.toNanos();
            return ferry ? ferryFailure(e, timedOut) : new Result.Failure(e instanceof SQLException q ? q.getSQLState()
                    : null, firstLine(e.getMessage() == null ? e.toString() : e.getMessage()), timedOut);
        }
    }

    /**
     * The SQLSTATE and sentence a JDBC client of Ferry's server would get: FerryMeta applies
     * {@link SqlErrors#translate} on the server, which the in-process connection does not, so the fuzzer applies it
     * here. An internal error also names the exception at its root, which is what a fix starts from.
     */
    static Result.Failure ferryFailure(Throwable e, boolean timedOut) {
        SqlErrors.Translated t = SqlErrors.translate(e);
        String message = CALCITE_WRAPPER.matcher(firstLine(t.message())).replaceAll("");
        if (t.sqlState() == null || t.sqlState().equals("XX000")) {
            Throwable root = e;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            message += " [" + root.getClass().getName() + ": " + firstLine(String.valueOf(root.getMessage())) + "]";
        }
        return new Result.Failure(t.sqlState(), message, timedOut);
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    @Override
    public void close() {
        watchdog.shutdownNow();
    }
}
