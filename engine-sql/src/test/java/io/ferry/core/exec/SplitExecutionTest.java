package io.ferry.core.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.arrow.memory.ArrowBuf;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.ferry.core.expr.Call;
import io.ferry.core.expr.InputRef;
import io.ferry.core.expr.Literal;
import io.ferry.core.expr.Op;
import io.ferry.core.storage.Block;
import io.ferry.core.storage.BlockReader;
import io.ferry.core.storage.Table;
import io.ferry.core.storage.TableData;
import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.LongVector;
import io.ferry.sql.distributed.Fragments;

/**
 * The pieces a cluster builds on, run in one process: an aggregate split into partial and final halves around a
 * gather whose fragment runs once per "node" (each over its share of the blocks), and scans over blocks whose bytes
 * live only for the duration of a read.
 */
class SplitExecutionTest {
    private static final int ROWS = 100_000;
    private ExecFixture fixture;
    private QueryExecutor executor;
    private Table r;

    @BeforeEach
    void setUp() {
        fixture = new ExecFixture(8 * 1024);
        executor = fixture.executor;
        r = fixture.keyed(ROWS, 97, 13);
    }

    @AfterEach
    void tearDown() {
        fixture.close();
    }

    private PlanNode.Aggregate groupBy() {
        return new PlanNode.Aggregate(new PlanNode.Scan(r, new int[] {0, 1}, null), new int[] {1},
                List.of(new AggCall(AggCall.AggKind.COUNT, -1, FerryType.BIGINT),
                        new AggCall(AggCall.AggKind.SUM, 0, FerryType.BIGINT),
                        new AggCall(AggCall.AggKind.AVG, 0, FerryType.DOUBLE),
                        new AggCall(AggCall.AggKind.MIN, 0, FerryType.BIGINT)));
    }

    /** Runs a gather's fragment once per share of the table's blocks (block position modulo {@code shares}). */
    private Gatherer sharded(int shares, AtomicInteger runs) {
        return (gather, ctx) -> {
            List<Batch> all = new ArrayList<>();
            for (int s = 0; s < shares; s++) {
                int share = s;
                runs.incrementAndGet();
                all.addAll(executor.execute(gather.fragment(), ctx.withGatherer(null)
                        .withBinder((scan, sample) -> share(scan, share, shares))));
            }
            return all;
        };
    }

    private BlockSource share(PlanNode.Scan scan, int share, int shares) {
        TableData data = ((Table) scan.table()).snapshot();
        List<Integer> positions = new ArrayList<>();
        for (int p = share; p < data.blocks().size(); p += shares) {
            positions.add(p);
        }
        return new BlockSource() {
            @Override
            public int blockCount() {
                return positions.size();
            }

            @Override
            public void read(int morsel, BlockVisitor visitor) {
                int p = positions.get(morsel);
                visitor.visit(p, data.blocks().get(p).reader());
            }

            @Override
            public void close() {
                data.close();
            }
        };
    }

    @Test
    void aggregateSplitAroundAGatherEqualsTheWholeAggregate() {
        PlanNode.Aggregate agg = groupBy();
        Map<Long, String> whole = ExecFixture.byKey(executor.execute(agg, QueryContext.unlimited()));
        AtomicInteger runs = new AtomicInteger();
        PlanNode split = new PlanNode.MergeAggregate(agg, new PlanNode.Gather(new PlanNode.PartialAggregate(agg)));
        assertEquals(agg.types(), split.types());
        Map<Long, String> merged = ExecFixture.byKey(executor.execute(split, QueryContext.unlimited().withGatherer(sharded(3, runs))));
        assertEquals(3, runs.get());
        assertEquals(98, whole.size(), "97 values of b and NULL");
        assertEquals(whole, merged);
    }

    /**
     * A window needs all of a partition's rows: the split plan gathers the filtered rows from every share and
     * computes the window above the gather, as the whole plan does in one place.
     */
    @Test
    void aWindowRunsAboveTheGatherOfItsInput() {
        PlanNode.Scan scan = new PlanNode.Scan(r, new int[] {0, 1}, null);
        PlanNode filtered = new PlanNode.Filter(scan, new Call(Op.GT, List.of(new InputRef(0, FerryType.BIGINT),
                new Literal(10L, FerryType.BIGINT)), FerryType.BOOLEAN));
        PlanNode.Window window = new PlanNode.Window(filtered, new int[] {1}, List.of(new SortKey(0, false, false)),
                WindowFrame.RUNNING, List.of(new WindowCall(WindowCall.Kind.ROW_NUMBER, -1, FerryType.BIGINT),
                        new WindowCall(WindowCall.Kind.SUM, 0, FerryType.BIGINT),
                        new WindowCall(WindowCall.Kind.LAG, 0, FerryType.BIGINT, 1, -1, false)));
        PlanNode split = Fragments.split(window);
        assertTrue(split instanceof PlanNode.Window w && w.input() instanceof PlanNode.Gather, split.toString());
        AtomicInteger runs = new AtomicInteger();
        Map<Long, String> whole = byId(executor.execute(window, QueryContext.unlimited()));
        Map<Long, String> gathered = byId(executor.execute(split,
                QueryContext.unlimited().withGatherer(sharded(3, runs))));
        assertEquals(3, runs.get());
        assertEquals(ROWS - 10, whole.size()); // a runs from 1
        assertEquals(whole, gathered);
    }

    /** Rows by column 0 (unique), each with its other columns. */
    private static Map<Long, String> byId(List<Batch> out) {
        Map<Long, String> rows = new java.util.TreeMap<>();
        for (Batch b : out) {
            for (int i = 0; i < b.rowCount(); i++) {
                StringBuilder row = new StringBuilder();
                for (int c = 1; c < b.columnCount(); c++) {
                    LongVector v = (LongVector) b.column(c);
                    row.append(v.isNull(i) ? "NULL" : v.get(i)).append('|');
                }
                rows.put(((LongVector) b.column(0)).get(i), row.toString());
            }
        }
        return rows;
    }

    /**
     * GROUP BY over a UNION ALL of the table, an empty input and the table again: split, each scan's input is counted
     * partially in its own gather, once per share, and the merge equals the unsplit aggregate, every row twice.
     */
    @Test
    void anAggregateOverAUnionIsCountedPartiallyInEachInputsGather() {
        PlanNode.Scan scan = new PlanNode.Scan(r, new int[] {0, 1}, null);
        PlanNode empty = new PlanNode.Values(scan.types(), new Batch(0, new io.ferry.core.vector.Vector[] {
                new LongVector(new long[0], null), new LongVector(new long[0], null)}));
        PlanNode.Union union = new PlanNode.Union(List.of(scan, empty, scan), scan.types());
        PlanNode.Aggregate agg = groupBy().over(union, new int[] {1}, groupBy().calls());
        Map<Long, String> whole = ExecFixture.byKey(executor.execute(agg, QueryContext.unlimited()));
        PlanNode split = Fragments.split(agg);
        assertTrue(split instanceof PlanNode.MergeAggregate m && m.partials() instanceof PlanNode.Union u
                && u.inputs().get(0) instanceof PlanNode.Gather
                && u.inputs().get(1) instanceof PlanNode.PartialAggregate
                && u.inputs().get(2) instanceof PlanNode.Gather, split.toString());
        AtomicInteger runs = new AtomicInteger();
        Map<Long, String> merged = ExecFixture.byKey(executor.execute(split,
                QueryContext.unlimited().withGatherer(sharded(3, runs))));
        assertEquals(6, runs.get(), "two gathers, three shares each");
        assertEquals(whole, merged);
        long rows = 0;
        for (String row : whole.values()) {
            rows += Long.parseLong(row.split("\\|")[0]);
        }
        assertEquals(2L * ROWS, rows);
    }

    @Test
    void aGatherWithoutAGathererRunsItsFragmentHere() {
        PlanNode.Aggregate agg = groupBy();
        PlanNode split = new PlanNode.MergeAggregate(agg, new PlanNode.Gather(new PlanNode.PartialAggregate(agg)));
        assertEquals(ExecFixture.byKey(executor.execute(agg, QueryContext.unlimited())),
                ExecFixture.byKey(executor.execute(split, QueryContext.unlimited())));
    }

    @Test
    void aGlobalAggregateOverNoRowsStillAnswersOneRow() {
        PlanNode.Scan scan = new PlanNode.Scan(r, new int[] {0}, null);
        PlanNode.Filter none = new PlanNode.Filter(scan, new Call(Op.LT, List.of(new InputRef(0, FerryType.BIGINT),
                new Literal(0L, FerryType.BIGINT)), FerryType.BOOLEAN));
        PlanNode.Aggregate agg = new PlanNode.Aggregate(none, new int[0], List.of(
                new AggCall(AggCall.AggKind.COUNT, -1, FerryType.BIGINT), new AggCall(AggCall.AggKind.SUM, 0,
                        FerryType.BIGINT)));
        PlanNode split = new PlanNode.MergeAggregate(agg, new PlanNode.Gather(new PlanNode.PartialAggregate(agg)));
        List<Batch> out = executor.execute(split, QueryContext.unlimited().withGatherer(sharded(2, new AtomicInteger())));
        assertEquals(1, Batch.totalRows(out));
        assertEquals(0, ((LongVector) out.get(0).column(0)).get(0));
        assertTrue(out.get(0).column(1).isNull(0), "SUM over no rows is NULL");
    }

    /**
     * Blocks copied into a buffer that is freed as soon as the read returns (as a prefetching stream reuses its
     * staging slots): rows a sink keeps must have been decoded by then.
     */
    @Test
    void rowsKeptFromTransientBlocksAreDecodedBeforeTheBytesGo() {
        PlanNode.Scan scan = new PlanNode.Scan(r, new int[] {0, 1}, null);
        PlanNode plan = new PlanNode.Filter(scan, new Call(Op.LT, List.of(new InputRef(1, FerryType.BIGINT),
                new Literal(5L, FerryType.BIGINT)), FerryType.BOOLEAN));
        long expected = Batch.totalRows(executor.execute(plan, QueryContext.unlimited()));
        ScanBinder copying = (s, sample) -> {
            TableData data = ((Table) s.table()).snapshot();
            return new BlockSource() {
                @Override
                public int blockCount() {
                    return data.blocks().size();
                }

                @Override
                public void read(int morsel, BlockVisitor visitor) {
                    Block block = data.blocks().get(morsel);
                    try (ArrowBuf copy = fixture.allocator.buffer(block.length())) {
                        copy.setBytes(0, block.buffer(), block.offset(), block.length());
                        visitor.visit(morsel, new BlockReader(copy, 0));
                        copy.setZero(0, block.length()); // what a reused slot would look like
                    }
                }

                @Override
                public boolean transientBytes() {
                    return true;
                }

                @Override
                public void close() {
                    data.close();
                }
            };
        };
        List<Batch> out = executor.execute(plan, QueryContext.unlimited().withBinder(copying));
        long sum = 0;
        long rows = 0;
        for (Batch b : out) {
            for (int i = 0; i < b.rowCount(); i++) {
                assertTrue(((LongVector) b.column(1)).get(i) < 5);
                sum += ((LongVector) b.column(0)).get(i);
                rows++;
            }
        }
        assertEquals(expected, rows);
        long want = 0;
        for (long a = 1; a <= ROWS; a++) {
            if ((a - 1) % 97 < 5 && (a - 1) % 13 != 0) {
                want += a;
            }
        }
        assertEquals(want, sum);
    }
}
