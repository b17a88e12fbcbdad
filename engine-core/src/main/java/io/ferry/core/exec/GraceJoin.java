package io.ferry.core.exec;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import io.ferry.core.expr.Evaluator;
import io.ferry.core.expr.ExprCompiler;
import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BatchConcat;

/**
 * A hash join whose build side does not fit the query's memory: the build rows go to disk by a hash of their join
 * keys once the query holds a third of its memory ({@link QueryMemory#shouldSpill}), the probe rows after them by the
 * same hash of theirs, and each part is then joined alone, a hash table of its build rows probed by its probe rows (the grace
 * hash join). Rows that can match share a part, NULL keys included ({@link HashPartitioner}), and every join kind
 * Ferry runs is driven by its probe rows, so a part without probe rows gives nothing. A part whose build rows still
 * do not fit is split again one level deeper.
 */
final class GraceJoin {
    private static final int MAX_LEVEL = 3;

    private final PlanNode.Join join;
    private final QueryContext ctx;
    private final SpillSpace space;
    private final PipelineDriver driver;
    /** What one build row is reckoned to take in memory, as the build side reserves it. */
    private final long perRow;
    private SpillPartitions build;

    GraceJoin(PlanNode.Join join, QueryContext ctx, SpillSpace space, PipelineDriver driver) {
        this.join = join;
        this.ctx = ctx;
        this.space = space;
        this.driver = driver;
        this.perRow = BuildSink.bytesPerRow(join.right().types());
    }

    long perRow() {
        return perRow;
    }

    /** Writes build rows to disk by part. */
    void spillBuild(List<Batch> rows) {
        SpillPartitions parts;
        synchronized (this) {
            if (build == null) {
                build = new SpillPartitions(space, join.right().types(), join.rightKeys(), 0);
            }
            parts = build;
        }
        parts.add(rows);
    }

    synchronized boolean spilled() {
        return build != null;
    }

    /** The join's rows: the probe side read to its end and split by part, then each part joined. */
    List<Batch> run(Pipeline probeSide) {
        SpillPartitions probe = new SpillPartitions(space, join.left().types(), join.leftKeys(), 0);
        try {
            driver.run(probeSide, () -> new PartitionSink(probe), ctx);
            Evaluator residual = join.residual() == null ? null : ExprCompiler.compile(join.residual());
            List<Batch> out = new ArrayList<>();
            joinParts(build, probe, residual, 0, out);
            return out;
        } finally {
            probe.delete();
            build.delete();
        }
    }

    private void joinParts(SpillPartitions buildParts, SpillPartitions probeParts, Evaluator residual, int level,
            List<Batch> out) {
        List<FerryType> buildTypes = join.right().types();
        for (int p = 0; p < SpillPartitions.PARTS; p++) {
            ctx.check();
            SpillFile probeRows = probeParts.part(p);
            if (probeRows == null) {
                continue;
            }
            SpillFile buildRows = buildParts.part(p);
            long rows = buildRows == null ? 0 : buildRows.rows();
            if (level < MAX_LEVEL && perRow * rows > ctx.memory().limit() / 4) {
                SpillPartitions b = new SpillPartitions(space, buildTypes, join.rightKeys(), level + 1);
                SpillPartitions q = new SpillPartitions(space, join.left().types(), join.leftKeys(), level + 1);
                try {
                    copy(buildRows, b);
                    copy(probeRows, q);
                    joinParts(b, q, residual, level + 1, out);
                } finally {
                    b.delete();
                    q.delete();
                }
                continue;
            }
            List<Batch> buildBatches = buildRows == null ? List.of() : buildRows.readAll();
            long bytes = perRow * rows;
            ctx.memory().reserve(bytes);
            try {
                Batch all = BatchConcat.concat(QueryExecutor.nonEmpty(buildBatches, buildTypes), buildTypes);
                JoinHashTable table = new JoinHashTable(all, join.rightKeys(), join.nullsMatch(), ctx.memory());
                try {
                    Pipeline part = Pipeline.of(Source.of(probeRows.readAll()))
                            .then(new HashJoinProbe(table, join.leftKeys(), join.kind(), residual));
                    out.addAll(CollectSink.all(driver.run(part, CollectSink::new, ctx)));
                } finally {
                    table.close();
                }
            } finally {
                ctx.memory().release(bytes);
            }
        }
    }

    private static void copy(SpillFile from, SpillPartitions to) {
        if (from == null) {
            return;
        }
        for (Iterator<Batch> it = from.batches(); it.hasNext();) {
            to.add(List.of(it.next()));
        }
    }

    /** A thread's probe rows, split by part (each part gathers them into chunks: {@link SpillPartitions}). */
    private record PartitionSink(SpillPartitions parts) implements Sink {
        @Override
        public void consume(Batch batch) {
            parts.add(List.of(batch));
        }

        @Override
        public boolean keepsRows() {
            return true; // a part holds the rows until its chunk is full
        }
    }
}
