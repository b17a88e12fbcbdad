package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.ferry.core.exec.BatchStream;
import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.LongVector;

/**
 * A query whose result Ferry's engine makes whole hands over its batches, with the types of its columns and the
 * values the JDBC rows would have; one with Calcite's row engine above Ferry, or a system table, hands over nothing
 * and reads as rows.
 */
class ResultBatchesTest {
    private FerryEngine engine;
    private Connection conn;

    @BeforeEach
    void start() throws SQLException {
        engine = FerryEngine.start(EngineConfig.defaults().withThreads(2).withMemoryLimit(128L << 20));
        conn = engine.connect();
        try (Statement s = conn.createStatement()) {
            s.execute("CREATE TABLE t (k BIGINT, v VARCHAR, d DECIMAL(10, 2))");
            s.execute("INSERT INTO t SELECT x, 'v' || CAST(x AS VARCHAR), x / 4.0 FROM "
                    + "(SELECT ROW_NUMBER() OVER () AS x FROM (VALUES 1, 2, 3, 4, 5, 6, 7, 8, 9, 10) a, "
                    + "(VALUES 1, 2, 3, 4, 5, 6, 7, 8, 9, 10) b, (VALUES 1, 2, 3, 4, 5, 6, 7, 8, 9, 10) c)");
        }
    }

    @AfterEach
    void stop() throws SQLException {
        conn.close();
        engine.close();
    }

    @Test
    void aFerryResultComesAsBatches() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT k, v, d FROM t WHERE k > ? ORDER BY k")) {
            ps.setLong(1, 990);
            try (ResultBatches capture = ResultBatches.capture(); ResultSet rs = ps.executeQuery()) {
                assertFalse(rs.next(), "the rows went to the capture");
                assertEquals(List.of(FerryType.BIGINT, FerryType.VARCHAR, FerryType.decimal(10, 2)), capture.types());
                long sum = 0;
                long rows = 0;
                try (BatchStream stream = capture.take()) {
                    assertNotNull(stream);
                    for (Batch b = stream.next(); b != null; b = stream.next()) {
                        LongVector k = (LongVector) b.materialize().column(0);
                        for (int i = 0; i < b.rowCount(); i++) {
                            sum += k.get(i);
                        }
                        rows += b.rowCount();
                    }
                }
                assertEquals(10, rows);
                assertEquals(991 + 992 + 993 + 994 + 995 + 996 + 997 + 998 + 999 + 1000, sum);
            }
        }
    }

    @Test
    void otherResultsStayRows() throws SQLException {
        for (String sql : List.of("SELECT table_name FROM information_schema.tables WHERE table_name = 't'",
                "SELECT COUNT(*) FROM t")) {
            try (ResultBatches capture = ResultBatches.capture(); Statement s = conn.createStatement();
                    ResultSet rs = s.executeQuery(sql)) {
                if (capture.take() == null) {
                    assertEquals(true, rs.next(), sql);
                }
            }
        }
        // without a capture, a Ferry result is rows as ever
        try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM t")) {
            rs.next();
            assertEquals(1000, rs.getLong(1));
        }
        try (ResultBatches capture = ResultBatches.capture(); Statement s = conn.createStatement();
                ResultSet rs = s.executeQuery("SELECT table_name FROM information_schema.tables")) {
            assertNull(capture.take(), "a system table is not Ferry's engine");
        }
    }
}
