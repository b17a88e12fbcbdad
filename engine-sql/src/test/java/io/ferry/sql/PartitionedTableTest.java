package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.ferry.core.storage.Block;
import io.ferry.core.storage.PartitionScheme;
import io.ferry.core.storage.Placement;
import io.ferry.core.storage.Table;
import io.ferry.core.storage.TableData;
import io.ferry.core.vector.Batch;

/**
 * CREATE TABLE ... WITH (partition_by = ...): every block holds rows of one partition, recorded in the block's header
 * and in the catalog; queries answer as DuckDB does over the same rows; ALTER TABLE keeps the partitioning (and
 * will not drop a partitioning column); mistakes carry their SQLSTATEs.
 */
class PartitionedTableTest {
    private FerryEngine engine;
    private Connection ferry;
    private Connection duck;

    @BeforeEach
    void start() throws SQLException {
        engine = FerryEngine.start(EngineConfig.defaults().withThreads(2).withBlockSize(8192)
                .withMemoryLimit(256L << 20));
        ferry = engine.connect();
        duck = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement s = duck.createStatement()) {
            s.execute("CREATE TABLE lo AS SELECT i AS lo_orderkey, (i * 7) % 3000 AS lo_custkey, "
                    + "(i * 13) % 2000 AS lo_partkey, i % 50 AS lo_quantity, 'p' || (i % 11) AS lo_shipmode "
                    + "FROM range(10000) r(i)");
        }
        try (Statement s = ferry.createStatement()) {
            s.execute("CREATE TABLE lo (lo_orderkey BIGINT, lo_custkey INTEGER, lo_partkey INTEGER, "
                    + "lo_quantity INTEGER, lo_shipmode VARCHAR) WITH (partition_by = 'custkey:4, partkey:2', "
                    + "placement = 'partition')");
            StringBuilder values = new StringBuilder();
            for (int i = 0; i < 10000; i++) {
                values.append(i == 0 ? "" : ", ").append('(').append(i).append(", ").append((i * 7L) % 3000)
                        .append(", ").append((i * 13L) % 2000).append(", ").append(i % 50).append(", 'p")
                        .append(i % 11).append("')");
            }
            s.execute("INSERT INTO lo VALUES " + values);
        }
    }

    @AfterEach
    void stop() throws SQLException {
        ferry.close();
        duck.close();
        engine.close();
    }

    private void exec(String sql) throws SQLException {
        try (Statement s = ferry.createStatement()) {
            s.execute(sql);
        }
    }

    @Test
    void everyBlockHoldsOnePartitionsRows() {
        Table lo = engine.catalog().require("lo");
        assertEquals("lo_custkey=custkey:4, lo_partkey=partkey:2", lo.partitioning().describe(lo.schema()));
        assertEquals(Placement.PARTITION, lo.placement());
        Set<Integer> seen = new HashSet<>();
        try (TableData data = lo.snapshot()) {
            for (Block b : data.blocks()) {
                assertEquals(b.partition(), b.reader().partition(), "the header keeps the partition");
                io.ferry.core.storage.BlockReader reader = b.reader();
                io.ferry.core.vector.Vector[] columns = new io.ferry.core.vector.Vector[lo.schema().size()];
                for (int c = 0; c < columns.length; c++) {
                    columns[c] = reader.decode(c, lo.schema().type(c), 0, reader.rowCount());
                }
                Batch rows = new Batch(reader.rowCount(), columns);
                int[] ids = new int[rows.rowCount()];
                lo.partitioning().partitionIds(rows, ids);
                for (int id : ids) {
                    assertEquals(b.partition(), id, "a block holds rows of its own partition only");
                }
                seen.add(b.partition());
            }
        }
        assertEquals(Set.of(0, 1, 2, 3, 4, 5, 6, 7), seen);
    }

    @Test
    void queriesAnswerAsDuckDbDoes() throws SQLException {
        for (String q : List.of("SELECT COUNT(*), SUM(lo_quantity), COUNT(DISTINCT lo_custkey) FROM lo",
                "SELECT lo_shipmode, SUM(lo_orderkey) FROM lo WHERE lo_custkey < 100 GROUP BY lo_shipmode",
                "SELECT * FROM lo WHERE lo_partkey = 13")) {
            ResultComparison.assertSameResult(ferry, duck, q, false);
        }
        exec("DELETE FROM lo WHERE lo_quantity > 40");
        try (Statement s = duck.createStatement()) {
            s.execute("DELETE FROM lo WHERE lo_quantity > 40");
        }
        ResultComparison.assertSameResult(ferry, duck, "SELECT lo_custkey % 7, COUNT(*) FROM lo GROUP BY 1", false);
        assertTrue(engine.catalog().require("lo").partitioning().partitions() == 8, "DELETE keeps the partitioning");
    }

    @Test
    void alterTableKeepsThePartitioning() throws SQLException {
        exec("ALTER TABLE lo ADD COLUMN note VARCHAR");
        exec("ALTER TABLE lo DROP COLUMN lo_orderkey");
        Table lo = engine.catalog().require("lo");
        assertEquals("lo_custkey=custkey:4, lo_partkey=partkey:2", lo.partitioning().describe(lo.schema()));
        assertEquals("2BP01", assertThrows(SQLException.class, () -> exec("ALTER TABLE lo DROP COLUMN lo_custkey"))
                .getSQLState());
        exec("ALTER TABLE lo RENAME TO lineorder");
        assertEquals(8, engine.catalog().require("lineorder").partitioning().partitions());
    }

    @Test
    void mistakesCarryTheirSqlStates() {
        assertEquals("42703", assertThrows(SQLException.class,
                () -> exec("CREATE TABLE t1 (a INTEGER) WITH (partition_by = 'custkey:4')")).getSQLState());
        assertEquals("42601", assertThrows(SQLException.class,
                () -> exec("CREATE TABLE t2 (a INTEGER) WITH (colour = 'blue')")).getSQLState());
        assertEquals("22023", assertThrows(SQLException.class,
                () -> exec("CREATE TABLE t3 (a INTEGER) WITH (partition_by = 'a:4', placement = 'sideways')"))
                .getSQLState());
        assertEquals("0A000", assertThrows(SQLException.class,
                () -> exec("CREATE TABLE t4 (d DOUBLE) WITH (partition_by = 'd:4')")).getSQLState());
        assertEquals(null, engine.catalog().get("t1"), "a refused CREATE TABLE makes no table");
        assertEquals("0A000", assertThrows(io.ferry.core.FerryException.class, () -> engine.catalog().partition(
                engine.catalog().require("lo"), PartitionScheme.NONE, Placement.NAM)).sqlState(),
                "a table with rows keeps its partitioning");
    }
}
