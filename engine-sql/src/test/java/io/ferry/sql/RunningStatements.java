package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;

/** Cancels a statement once sys.queries shows it running, so that the cancel reaches it mid-run. */
final class RunningStatements {
    private RunningStatements() {
    }

    /**
     * Runs {@code sql} on {@code s} while another thread cancels it as soon as a running statement whose text
     * contains {@code marker} appears in sys.queries; returns the error the query fails with.
     */
    static SQLException cancelMidRun(FerryEngine engine, Statement s, String sql, String marker)
            throws InterruptedException {
        Thread canceller = new Thread(() -> {
            try {
                awaitRunning(engine, marker);
                s.cancel();
            } catch (InterruptedException | SQLException ignored) {
                // the test fails on its own if the cancel never comes
            }
        });
        canceller.start();
        SQLException e = assertThrows(SQLException.class, () -> s.executeQuery(sql).next());
        canceller.join();
        return e;
    }

    private static void awaitRunning(FerryEngine engine, String marker) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        try (Connection c = engine.connect(); Statement s = c.createStatement()) {
            while (System.nanoTime() < deadline) {
                try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM sys.queries WHERE state = 'running' "
                        + "AND statement LIKE '%" + marker + "%' AND statement NOT LIKE '%sys.queries%'")) {
                    rs.next();
                    if (rs.getLong(1) > 0) {
                        return;
                    }
                }
                Thread.sleep(20);
            }
        }
    }
}
