package io.ferry.core.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.storage.Table;
import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.Vector;

/**
 * Hash aggregation, sort and hash join past their query's memory: each moves its state to disk and gives the answer
 * it gives with unlimited memory, the query stays within its limit, and the spill files are gone when it ends, also
 * when it ends in an error.
 */
class SpillTest {
    private static final int ROWS = 300_000;
    private static final long LIMIT = 4 << 20;
    private ExecFixture fixture;
    private Table r;
    @TempDir
    Path spillDir;

    @BeforeEach
    void setUp() {
        fixture = new ExecFixture(16 * 1024);
        r = fixture.keyed(ROWS, 1000, 7);
    }

    @AfterEach
    void tearDown() {
        fixture.close();
    }

    private PlanNode scan() {
        return new PlanNode.Scan(r, new int[] {0, 1}, null);
    }

    @Test
    void aggregationWithMoreGroupsThanMemorySpillsAndAgrees() {
        // one group per row of a, a second key b so the multi-key table is the one that spills
        PlanNode plan = new PlanNode.Aggregate(scan(), new int[] {0, 1}, List.of(
                new AggCall(AggCall.AggKind.COUNT, -1, FerryType.BIGINT),
                new AggCall(AggCall.AggKind.SUM, 1, FerryType.BIGINT),
                new AggCall(AggCall.AggKind.MIN, 0, FerryType.BIGINT)));
        assertSpillsAndAgrees(plan, false);
        PlanNode byA = new PlanNode.Aggregate(scan(), new int[] {0}, List.of(
                new AggCall(AggCall.AggKind.COUNT, 1, FerryType.BIGINT)));
        assertSpillsAndAgrees(byA, false);
    }

    @Test
    void sortLargerThanMemoryMergesRunsFromDisk() {
        PlanNode plan = new PlanNode.Sort(scan(), List.of(new SortKey(1, true, true), new SortKey(0, false, false)),
                0, -1);
        assertSpillsAndAgrees(plan, true);
        PlanNode page = new PlanNode.Sort(scan(), List.of(new SortKey(1, false, false), new SortKey(0, true, false)),
                100_000, 50_000);
        assertSpillsAndAgrees(page, true);
    }

    @Test
    void joinWithBuildSideLargerThanMemoryJoinsPartByPart() {
        for (JoinKind kind : JoinKind.values()) {
            // r.a = r.b: the first 999 values of a meet 300 rows each; b is NULL on every 7th row
            PlanNode plan = new PlanNode.Join(scan(), scan(), kind, new int[] {0}, new int[] {1}, null);
            assertSpillsAndAgrees(plan, false);
        }
    }

    @Test
    void joinWhoseBuildSideIsAnAggregateLargerThanMemorySpillsIt() {
        // the build side's 300,000 groups are computed (and their memory given back) before the join sees them:
        // whether they go to disk is decided by what they will take, not by what the query holds at that moment
        PlanNode groups = new PlanNode.Aggregate(scan(), new int[] {0, 1}, List.of(
                new AggCall(AggCall.AggKind.COUNT, -1, FerryType.BIGINT)));
        for (JoinKind kind : List.of(JoinKind.INNER, JoinKind.ANTI)) {
            assertSpillsAndAgrees(new PlanNode.Join(scan(), groups, kind, new int[] {0}, new int[] {1}, null), false);
        }
    }

    @Test
    void windowOverMoreRowsThanMemoryRunsPartitionByPartition() {
        // ROW_NUMBER and a running SUM per b: 1000 partitions of 300 rows (a partition is never split, so this table
        // has no NULL b, whose 43,000 rows would be one partition past the limit)
        fixture.close();
        fixture = new ExecFixture(16 * 1024);
        r = fixture.keyed(ROWS, 1000, 0);
        PlanNode plan = new PlanNode.Window(scan(), new int[] {1}, List.of(new SortKey(0, false, false)),
                WindowFrame.RUNNING, List.of(new WindowCall(WindowCall.Kind.ROW_NUMBER, -1, FerryType.BIGINT),
                        new WindowCall(WindowCall.Kind.SUM, 0, FerryType.BIGINT)));
        assertSpillsAndAgrees(plan, false);
    }

    @Test
    void spillFilesAreRemovedWhenTheQueryFails() throws IOException {
        QueryMemory memory = new QueryMemory(LIMIT, spillDir);
        // cancelled as soon as something was written to disk
        QueryContext ctx = new QueryContext(() -> memory.spilled() > 0, 0, memory);
        PlanNode plan = new PlanNode.Sort(scan(), List.of(new SortKey(0, true, false)), 0, -1);
        FerryException e = assertThrows(FerryException.class, () -> fixture.executor.execute(plan, ctx));
        assertEquals(SqlStates.QUERY_CANCELED, e.sqlState());
        assertTrue(memory.spilled() > 0);
        assertEquals(List.of(), filesUnder(spillDir));
    }

    @Test
    void withoutASpillDirectoryTheQueryFailsWith53200() {
        PlanNode plan = new PlanNode.Sort(scan(), List.of(new SortKey(0, true, false)), 0, -1);
        QueryContext ctx = new QueryContext(() -> false, 0, new QueryMemory(LIMIT));
        FerryException e = assertThrows(FerryException.class, () -> fixture.executor.execute(plan, ctx));
        assertEquals(SqlStates.OUT_OF_MEMORY, e.sqlState());
    }

    private void assertSpillsAndAgrees(PlanNode plan, boolean ordered) {
        List<String> expected = rows(fixture.executor.execute(plan, QueryContext.unlimited()), ordered);
        QueryMemory memory = new QueryMemory(LIMIT, spillDir);
        List<String> actual = rows(fixture.executor.execute(plan, new QueryContext(() -> false, 0, memory)), ordered);
        assertTrue(memory.spilled() > 0, "nothing was spilled; the test does not test spilling");
        assertTrue(memory.peak() <= LIMIT);
        assertEquals(0, memory.used(), "every reservation is given back");
        assertEquals(expected.size(), actual.size());
        assertEquals(expected, actual);
        try {
            assertEquals(List.of(), filesUnder(spillDir), "the spill directory is removed when the query ends");
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static List<String> filesUnder(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(p -> !p.equals(dir)).map(Path::toString).toList();
        }
    }

    /** Each row as text, in order or sorted. */
    private static List<String> rows(List<Batch> batches, boolean ordered) {
        List<String> out = new ArrayList<>();
        for (Batch b : batches) {
            Vector[] cols = b.columns();
            for (int i = 0; i < b.rowCount(); i++) {
                StringBuilder s = new StringBuilder();
                for (Vector v : cols) {
                    s.append(v.isNull(i) ? "null" : v instanceof io.ferry.core.vector.LongVector l ? l.get(i)
                            : ((io.ferry.core.vector.DoubleVector) v).get(i)).append('|');
                }
                out.add(s.toString());
            }
        }
        if (!ordered) {
            Collections.sort(out);
        }
        return out;
    }
}
