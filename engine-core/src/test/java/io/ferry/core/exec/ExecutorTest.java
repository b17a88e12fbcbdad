package io.ferry.core.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.storage.Table;
import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.LongVector;

class ExecutorTest {
    private static final int ROWS = 200_000;
    private ExecFixture fixture;
    private QueryExecutor executor;
    private Table r;

    @BeforeEach
    void setUp() {
        fixture = new ExecFixture(16 * 1024);
        executor = fixture.executor;
        r = fixture.keyed(ROWS, 1000, 0);
    }

    @AfterEach
    void tearDown() {
        fixture.close();
    }

    private long count(SampleSpec spec) {
        PlanNode plan = new PlanNode.Aggregate(new PlanNode.Scan(r, new int[] {0}, spec), new int[0],
                List.of(new AggCall(AggCall.AggKind.COUNT, -1, FerryType.BIGINT)));
        return ((LongVector) executor.execute(plan, QueryContext.unlimited()).get(0).column(0)).get(0);
    }

    @Test
    void groupByMatchesArithmetic() {
        PlanNode plan = new PlanNode.Aggregate(new PlanNode.Scan(r, new int[] {0, 1}, null), new int[] {1},
                List.of(new AggCall(AggCall.AggKind.COUNT, -1, FerryType.BIGINT),
                        new AggCall(AggCall.AggKind.SUM, 0, FerryType.BIGINT)));
        List<Batch> out = executor.execute(plan, QueryContext.unlimited());
        assertEquals(1000, Batch.totalRows(out));
        for (Batch b : out) {
            for (int i = 0; i < b.rowCount(); i++) {
                long key = ((LongVector) b.column(0)).get(i);
                assertEquals(ROWS / 1000, ((LongVector) b.column(1)).get(i));
                long expected = 0;
                for (long a = key + 1; a <= ROWS; a += 1000) {
                    expected += a;
                }
                assertEquals(expected, ((LongVector) b.column(2)).get(i));
            }
        }
    }

    /** 200,000 groups: past the size where the threads' tables are split by hash and merged part by part at once. */
    @Test
    void manyGroupsMergeInParallelAndMatchArithmetic() {
        PlanNode plan = new PlanNode.Aggregate(new PlanNode.Scan(r, new int[] {0, 1}, null), new int[] {0},
                List.of(new AggCall(AggCall.AggKind.COUNT, -1, FerryType.BIGINT),
                        new AggCall(AggCall.AggKind.SUM, 1, FerryType.BIGINT)));
        List<Batch> out = executor.execute(plan, QueryContext.unlimited());
        assertEquals(ROWS, Batch.totalRows(out));
        java.util.BitSet seen = new java.util.BitSet();
        for (Batch b : out) {
            for (int i = 0; i < b.rowCount(); i++) {
                long a = ((LongVector) b.column(0)).get(i);
                assertEquals(1, ((LongVector) b.column(1)).get(i));
                assertEquals((a - 1) % 1000, ((LongVector) b.column(2)).get(i), "b of a = " + a);
                seen.set((int) a);
            }
        }
        assertEquals(ROWS, seen.cardinality(), "every a once");
    }

    @Test
    void samplesAreRepeatableAndWithinBinomialBounds() {
        SampleSpec bernoulli = new SampleSpec(SampleSpec.Method.BERNOULLI, 10, 7);
        long n1 = count(bernoulli);
        assertEquals(n1, count(bernoulli), "REPEATABLE(seed) must give the same sample every run");
        double sd = Math.sqrt(ROWS * 0.1 * 0.9);
        assertTrue(Math.abs(n1 - ROWS * 0.1) < 5 * sd, "Bernoulli 10% of " + ROWS + " gave " + n1);
        assertNotEquals(n1, count(new SampleSpec(SampleSpec.Method.BERNOULLI, 10, 8)));
        long system = count(new SampleSpec(SampleSpec.Method.SYSTEM, 25, 3));
        assertEquals(system, count(new SampleSpec(SampleSpec.Method.SYSTEM, 25, 3)));
        assertTrue(system > 0 && system < ROWS);
        assertEquals(0, count(new SampleSpec(SampleSpec.Method.SYSTEM, 0, 3)));
        assertEquals(ROWS, count(new SampleSpec(SampleSpec.Method.BERNOULLI, 100, 3)));
        FerryException bad = assertThrows(FerryException.class,
                () -> new SampleSpec(SampleSpec.Method.BERNOULLI, 101, 1));
        assertEquals(SqlStates.INVALID_PARAMETER_VALUE, bad.sqlState());
    }

    @Test
    void queryOverItsMemoryLimitFailsCleanly() {
        PlanNode plan = new PlanNode.Aggregate(new PlanNode.Scan(r, new int[] {0}, null), new int[] {0},
                List.of(new AggCall(AggCall.AggKind.COUNT, -1, FerryType.BIGINT)));
        QueryContext tight = new QueryContext(() -> false, 0, new QueryMemory(256 * 1024));
        FerryException e = assertThrows(FerryException.class, () -> executor.execute(plan, tight));
        assertEquals(SqlStates.OUT_OF_MEMORY, e.sqlState());
        assertTrue(e.getMessage().contains("memory limit"));
    }

    @Test
    void cancellationStopsTheQuery() {
        PlanNode plan = new PlanNode.Scan(r, new int[] {0}, null);
        QueryContext cancelled = new QueryContext(() -> true, 0, new QueryMemory(Long.MAX_VALUE));
        FerryException e = assertThrows(FerryException.class, () -> executor.execute(plan, cancelled));
        assertEquals(SqlStates.QUERY_CANCELED, e.sqlState());
    }

    /**
     * An aggregate that occurs twice in a plan (as a FULL join's inputs do, once as a probe side and once as a build
     * side) is computed once: its table is bound for one scan. Over a sample without REPEATABLE, each occurrence draws
     * its own, as before.
     */
    @Test
    void aRepeatedAggregateRunsOnce() {
        for (SampleSpec sample : new SampleSpec[] {null, SampleSpec.fresh(SampleSpec.Method.BERNOULLI, 50)}) {
            java.util.concurrent.atomic.AtomicInteger binds = new java.util.concurrent.atomic.AtomicInteger();
            QueryContext ctx = QueryContext.unlimited().withBinder((scan, s) -> {
                binds.incrementAndGet();
                return LocalScanBinder.INSTANCE.bind(scan, s);
            });
            PlanNode.Join join = new PlanNode.Join(countByB(sample), countByB(sample), JoinKind.LEFT, new int[] {0},
                    new int[] {0}, null);
            List<Batch> out = executor.execute(join, ctx);
            assertEquals(sample == null ? 1 : 2, binds.get());
            int rows = 0;
            for (Batch b : out) {
                for (int i = 0; i < b.rowCount(); i++) {
                    if (sample == null) {
                        assertEquals(((LongVector) b.column(1)).get(i), ((LongVector) b.column(3)).get(i));
                    }
                    rows++;
                }
            }
            if (sample == null) {
                assertEquals(1000, rows);
            }
        }
    }

    /** {@code SELECT b, COUNT(*) FROM r GROUP BY b}, a new record each call. */
    private PlanNode.Aggregate countByB(SampleSpec sample) {
        return new PlanNode.Aggregate(new PlanNode.Scan(r, new int[] {0, 1}, sample), new int[] {1},
                List.of(new AggCall(AggCall.AggKind.COUNT, -1, FerryType.BIGINT)));
    }
}
