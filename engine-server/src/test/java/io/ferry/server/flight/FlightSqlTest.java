package io.ferry.server.flight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.flight.sql.impl.FlightSql;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.server.LocalNode;
import io.ferry.server.ServerSecurity;
import io.ferry.server.data.ProgressListener;
import io.ferry.sql.EngineConfig;
import io.ferry.sql.ResultComparison;
import io.ferry.sql.access.AccessControl;

/**
 * Arrow Flight SQL through a real server and Arrow's own Flight SQL client: query answers (every type, NULLs,
 * joins, aggregates) equal DuckDB's on the same data, prepared statements with parameters, updates, the catalog
 * calls, users and grants, and a client that walks away in the middle of a large result; every Arrow byte is freed.
 */
class FlightSqlTest {
    private static final String ROOT_PASSWORD = "flight root password";

    @TempDir
    static Path dir;
    private static LocalNode node;
    private static BufferAllocator allocator;
    private static FlightClient client;
    private static FlightSqlClient sql;
    private static CallOption[] root;
    private static Connection duck;

    @BeforeAll
    static void start() throws Exception {
        Path users = dir.resolve("users");
        AccessControl.addToFile(users, "root", ROOT_PASSWORD.toCharArray(), true);
        node = LocalNode.start(new LocalNode.Options(EngineConfig.defaults().withThreads(2)
                .withMemoryLimit(512L << 20), "127.0.0.1", 0, null, List.of(dir),
                new ServerSecurity(users, false)), ProgressListener.NONE);
        node.serveFlight(0);
        duck = DriverManager.getConnection("jdbc:duckdb:");
        Path data = dir.resolve("t.parquet");
        try (Statement s = duck.createStatement()) {
            s.execute("CREATE TABLE t AS SELECT i::BIGINT AS k, (i % 97)::INTEGER AS g, i / 7.0 AS d, "
                    + "(i % 1000 * 1.25)::DECIMAL(12, 2) AS p, (i * 1000000007)::DECIMAL(30, 4) AS w, "
                    + "CASE WHEN i % 11 = 0 THEN NULL ELSE 'name ' || i || ' Zürich' END AS s, "
                    + "DATE '1999-12-31' + (i % 400)::INTEGER AS dt, "
                    + "TIMESTAMP '2020-02-29 10:00:00' + INTERVAL (i) MINUTE AS ts, i % 3 = 0 AS b "
                    + "FROM range(30000) r(i)");
            s.execute("CREATE TABLE dim AS SELECT i::INTEGER AS g, 'group ' || i AS label FROM range(97) r(i)");
            s.execute("COPY t TO '" + data + "' (FORMAT parquet)");
            s.execute("COPY dim TO '" + dir.resolve("dim.parquet") + "' (FORMAT parquet)");
        }
        allocator = new RootAllocator();
        client = FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", node.flight().port()))
                .build();
        sql = new FlightSqlClient(client);
        root = new CallOption[] {client.authenticateBasicToken("root", ROOT_PASSWORD).orElseThrow()};
        assertEquals(0, sql.executeUpdate("CREATE TABLE t (k BIGINT NOT NULL, g INTEGER, d DOUBLE, "
                + "p DECIMAL(12, 2), w DECIMAL(30, 4), s VARCHAR, dt DATE, ts TIMESTAMP, b BOOLEAN)", root));
        sql.executeUpdate("CREATE TABLE dim (g INTEGER, label VARCHAR)", root);
        sql.executeUpdate("COPY t FROM '" + data + "'", root);
        sql.executeUpdate("COPY dim FROM '" + dir.resolve("dim.parquet") + "'", root);
    }

    @AfterAll
    static void stop() throws Exception {
        if (sql != null) {
            sql.close();
        }
        if (allocator != null) {
            allocator.close();
        }
        if (duck != null) {
            duck.close();
        }
        if (node != null) {
            node.close(); // fails if the engine or the Flight endpoint leaked Arrow memory
        }
    }

    private static List<List<Object>> rows(FlightInfo info, CallOption... options) throws Exception {
        return ArrowRows.of(sql, info, options);
    }

    private static void assertSame(String query) throws Exception {
        List<List<Object>> expected = ResultComparison.rows(duck, query);
        List<List<Object>> actual = rows(sql.execute(query, root), root);
        ResultComparison.assertSameRows(query, expected, actual, false);
    }

    @Test
    void answersEqualDuckDbs() throws Exception {
        assertSame("SELECT * FROM t");
        assertSame("SELECT g, COUNT(*), COUNT(s), SUM(p), MIN(dt), MAX(ts), AVG(d) FROM t GROUP BY g");
        assertSame("SELECT label, SUM(w) FROM t JOIN dim ON t.g = dim.g WHERE b GROUP BY label");
        assertSame("SELECT k, s FROM t WHERE s LIKE '%9 Z%' ORDER BY k LIMIT 50");
    }

    @Test
    void theSchemaSaysWhatTheColumnsAre() throws Exception {
        FlightInfo info = sql.execute("SELECT k, g, d, p, w, s, dt, ts, b FROM t LIMIT 1", root);
        Schema schema = info.getSchemaOptional().orElseThrow();
        assertEquals(List.of(new ArrowType.Int(64, true), new ArrowType.Int(32, true),
                new ArrowType.FloatingPoint(org.apache.arrow.vector.types.FloatingPointPrecision.DOUBLE),
                new ArrowType.Decimal(12, 2, 128), new ArrowType.Decimal(30, 4, 128), ArrowType.Utf8.INSTANCE,
                new ArrowType.Date(org.apache.arrow.vector.types.DateUnit.DAY),
                new ArrowType.Timestamp(org.apache.arrow.vector.types.TimeUnit.MILLISECOND, null),
                ArrowType.Bool.INSTANCE), schema.getFields().stream().map(f -> f.getType()).toList());
        assertFalse(schema.getFields().get(0).isNullable(), "k is NOT NULL");
        assertEquals("DECIMAL", schema.getFields().get(3).getMetadata().get("ARROW:FLIGHT:SQL:TYPE_NAME"));
        rows(info, root);
    }

    @Test
    void preparedStatementsTakeParameters() throws Exception {
        FlightSqlClient.PreparedStatement ps = sql.prepare("SELECT COUNT(*), SUM(k) FROM t WHERE k < ? "
                + "AND s IS NOT NULL", root);
        try {
            assertEquals(1, ps.getParameterSchema().getFields().size());
            for (long limit : new long[] {10, 12345, 0}) {
                try (VectorSchemaRoot parameters = VectorSchemaRoot.create(ps.getParameterSchema(), allocator)) {
                    parameters.allocateNew();
                    ((BigIntVector) parameters.getVector(0)).setSafe(0, limit);
                    parameters.setRowCount(1);
                    ps.setParameters(parameters);
                    String query = "SELECT COUNT(*), SUM(k) FROM t WHERE k < " + limit + " AND s IS NOT NULL";
                    ResultComparison.assertSameRows(query, ResultComparison.rows(duck, query),
                            rows(ps.execute(root), root), true);
                }
            }
        } finally {
            ps.close(root);
        }
    }

    @Test
    void updatesCountTheirRows() throws Exception {
        sql.executeUpdate("CREATE TABLE scratch (k INTEGER, v VARCHAR)", root);
        assertEquals(3, sql.executeUpdate("INSERT INTO scratch VALUES (1, 'a'), (2, 'b'), (3, NULL)", root));
        assertEquals(1, sql.executeUpdate("DELETE FROM scratch WHERE k = 2", root));
        assertEquals(List.of(List.of(new BigDecimal(2))), rows(sql.execute("SELECT COUNT(*) FROM scratch", root),
                root));
        sql.executeUpdate("DROP TABLE scratch", root);
    }

    @Test
    void catalogCallsListWhatIsThere() throws Exception {
        List<List<Object>> tables = rows(sql.getTables(null, "ferry", "%", List.of("TABLE"), true, root), root);
        List<Object> names = tables.stream().map(r -> r.get(2)).toList();
        assertTrue(names.containsAll(List.of("t", "dim")), names.toString());
        List<List<Object>> schemas = rows(sql.getSchemas(null, "%", root), root);
        assertTrue(schemas.stream().anyMatch(r -> "ferry".equals(r.get(1))), schemas.toString());
        List<List<Object>> info = rows(sql.getSqlInfo(new FlightSql.SqlInfo[] {
            FlightSql.SqlInfo.FLIGHT_SQL_SERVER_NAME}, root), root);
        assertEquals("Ferry", String.valueOf(info.get(0).get(1)));
        assertFalse(rows(sql.getTableTypes(root), root).isEmpty());
    }

    @Test
    void usersLogInAndGrantsDecide() throws Exception {
        FlightRuntimeException wrong = assertThrows(FlightRuntimeException.class,
                () -> client.authenticateBasicToken("root", "not the password"));
        assertEquals(FlightStatusCode.UNAUTHENTICATED, wrong.status().code());
        sql.executeUpdate("CREATE USER flyer WITH PASSWORD 'flyer password'", root);
        sql.executeUpdate("GRANT SELECT ON dim TO flyer", root);
        CallOption[] flyer = {client.authenticateBasicToken("flyer", "flyer password").orElseThrow()};
        assertEquals(97, rows(sql.execute("SELECT * FROM dim", flyer), flyer).size());
        FlightRuntimeException denied = assertThrows(FlightRuntimeException.class,
                () -> sql.execute("SELECT * FROM t", flyer));
        assertEquals(FlightStatusCode.UNAUTHORIZED, denied.status().code());
        assertTrue(denied.getMessage().contains("42501"), denied.getMessage());
        List<Object> visible = rows(sql.getTables(null, "ferry", "%", null, false, flyer), flyer).stream()
                .map(r -> r.get(2)).toList();
        assertEquals(List.of("dim"), visible, "a user lists the tables they may read");
        FlightRuntimeException bad = assertThrows(FlightRuntimeException.class,
                () -> sql.execute("SELECT * FROM nowhere", flyer));
        assertEquals(FlightStatusCode.INVALID_ARGUMENT, bad.status().code());
        assertTrue(bad.getMessage().contains("42P01"), bad.getMessage());
        assertFalse(bad.getMessage().contains("io.ferry"), "no class names: " + bad.getMessage());
    }

    @Test
    void aClientThatWalksAwayStopsItsQuery() throws Exception {
        FlightInfo info = sql.execute("SELECT a.k, b.label FROM t a CROSS JOIN dim b", root);
        try (FlightStream stream = sql.getStream(info.getEndpoints().get(0).getTicket(), root)) {
            assertTrue(stream.next());
            stream.cancel("the client has seen enough", null);
        }
        // the server stops the query: the engine is soon idle again
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (running() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertEquals(0, running(), "no query left running");
    }

    private static long running() throws SQLException {
        try (Connection c = node.engine().connect(); Statement s = c.createStatement();
                java.sql.ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM sys.queries WHERE state = 'running' "
                        + "AND statement LIKE '%CROSS JOIN dim%' AND statement NOT LIKE '%sys.queries%'")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
