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
}
