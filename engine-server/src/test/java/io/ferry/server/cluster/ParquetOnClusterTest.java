package io.ferry.server.cluster;

import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.sql.ResultComparison;

/**
 * COPY ... FROM a Parquet file on a cluster: the coordinator reads the file and its rows land in blocks on the
 * workers' memory, and queries over them answer as DuckDB does over the same file, shipping functions or data.
 */
class ParquetOnClusterTest {
    @TempDir
    static Path dir;
    private static TwoWorkerCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = TwoWorkerCluster.start();
        Path file = dir.resolve("events.parquet");
        try (Statement s = cluster.duck().createStatement()) {
            s.execute("COPY (SELECT i::BIGINT AS id, (i % 13)::INTEGER AS kind, (i * 0.5)::DECIMAL(12, 2) AS amount, "
                    + "CASE WHEN i % 5 = 0 THEN NULL ELSE 'e' || (i % 300) END AS tag, "
                    + "TIMESTAMP '2024-01-01 00:00:00' + INTERVAL (i) SECOND AS ts FROM range(40000) r(i)) TO '"
                    + file + "' (FORMAT parquet, ROW_GROUP_SIZE 10000)");
            s.execute("CREATE TABLE events AS SELECT * FROM '" + file + "'");
        }
        try (Statement s = cluster.ferry().createStatement()) {
            s.execute("CREATE TABLE events (id BIGINT, kind INTEGER, amount DECIMAL(12, 2), tag VARCHAR, ts TIMESTAMP)");
            s.execute("COPY events FROM '" + file + "'");
        }
    }

    @AfterAll
    static void stop() throws SQLException {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void queriesOverTheLoadedRowsAnswerAsDuckDbDoes() throws SQLException {
        for (String mode : List.of("function", "data")) {
            cluster.shipping(mode);
            for (String q : List.of("SELECT COUNT(*), COUNT(tag), SUM(amount), MIN(ts), MAX(ts) FROM events",
                    "SELECT kind, COUNT(*), SUM(id), MAX(tag) FROM events GROUP BY kind",
                    "SELECT id, tag FROM events WHERE id BETWEEN 39990 AND 39999")) {
                ResultComparison.assertSameResult(cluster.ferry(), cluster.duck(), q, false);
            }
        }
    }
}
