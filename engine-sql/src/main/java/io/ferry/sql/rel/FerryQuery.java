package io.ferry.sql.rel;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.runtime.FlatLists;

import io.ferry.core.exec.BatchStream;
import io.ferry.core.exec.PlanNode;
import io.ferry.core.exec.QueryContext;
import io.ferry.core.exec.QueryMemory;
import io.ferry.core.exec.SampleWarnings;
import io.ferry.core.expr.StatementValues;
import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;
import io.ferry.sql.FerryEngine;
import io.ferry.sql.QueryLog;
import io.ferry.sql.QueryRunner;
import io.ferry.sql.QueryWarnings;
import io.ferry.sql.ResultBatches;
import io.ferry.sql.schema.FerrySchema;

/**
 * A compiled Ferry subtree as Calcite's generated code sees it: {@link #execute} runs the plan on the engine's
 * executor and hands the result back row by row, honouring Statement.cancel() and setQueryTimeout.
 */
public final class FerryQuery {
    private final PlanNode plan;
    private final RowConverter rows;
    private final JavaRowFormat format;
    /** Whether each execution binds the clock or parameters into the plan ({@link StatementValues}). */
    private final boolean bound;
    private final boolean streamed;
    /** Whether the rows are the statement's result as they are, which a {@link ResultBatches} capture may take. */
    private final boolean wholeResult;
    private final List<FerryType> types;

    /**
     * @param format   how the row engine above reads a row: SCALAR for one column, LIST for none (Calcite's physical
     *                 types turn a row of no columns into an empty list, which its window operator compares), else
     *                 ARRAY
     * @param streamed whether the statement's result is this query's rows, read once as the client fetches them
     *                 ({@link FerryToEnumerableConverter#streamed})
     * @param result   whether the rows are the statement's whole result ({@link FerryToEnumerableConverter#streamedResult})
     */
    FerryQuery(PlanNode plan, RelDataType rowType, JavaRowFormat format, boolean streamed, boolean result) {
        this.plan = plan;
        this.bound = StatementValues.needsBinding(plan);
        this.rows = new RowConverter(rowType);
        this.format = format;
        this.streamed = streamed;
        this.wholeResult = result;
        this.types = FerryRel.types(rowType);
    }

    public PlanNode plan() {
        return plan;
    }

    /**
     * The plan's rows. It runs when they are first enumerated, not before: a DELETE or UPDATE takes the table's
     * write lock between the two, and must read the table's rows after it has the lock. A streamed query's rows are
     * made as they are read ({@link QueryRunner#run}) and let go of once read; any other's are made at once and kept,
     * since Calcite's row engine may enumerate its input again (the inner side of a nested-loop join).
     */
    public Enumerable<Object> execute(DataContext root) {
        FerrySchema schema = schema(root);
        FerryEngine engine = schema.engine();
        AtomicBoolean cancel = DataContext.Variable.CANCEL_FLAG.get(root);
        Long timeout = DataContext.Variable.TIMEOUT.get(root);
        long statement = QueryLog.current(); // the statement this plan is part of, for sys.fragments
        Supplier<BatchStream> run = () -> QueryLog.starting(statement, () -> {
            QueryMemory memory = new QueryMemory(engine.config().queryMemoryLimit(), engine.config().spillDirectory(),
                    engine.spilledBytes()::add);
            MemoryMeter.register(memory);
            QueryContext ctx = new QueryContext(() -> cancel != null && cancel.get(), timeout == null ? 0 : timeout,
                    memory);
            QueryWarnings.report(() -> SampleWarnings.of(plan));
            return engine.runner().run(bound ? StatementValues.bind(plan, statementTime(root),
                    new ParameterValues(root)) : plan, ctx, schema.session());
        });
        return new AbstractEnumerable<>() {
            private List<Batch> result;

            @Override
            public synchronized Enumerator<Object> enumerator() {
                if (wholeResult && ResultBatches.offer(run, types)) {
                    return Linq4j.emptyEnumerator();
                }
                if (streamed) {
                    return new BatchEnumerator(run);
                }
                if (result == null) {
                    try (BatchStream stream = run.get()) {
                        result = stream.drain();
                    }
                }
                List<Batch> made = result;
                return new BatchEnumerator(() -> BatchStream.of(made));
            }
        };
    }

    /**
     * The statement's CURRENT_TIMESTAMP, local wall-clock milliseconds: the value Calcite fixes for the whole
     * statement, so the parts of a plan Calcite's row engine runs read the same time.
     */
    private static long statementTime(DataContext root) {
        Long now = DataContext.Variable.CURRENT_TIMESTAMP.get(root);
        return now != null ? now : System.currentTimeMillis();
    }

    /** The Ferry schema of the connection that runs this statement: its engine and settings. */
    static FerrySchema schema(DataContext root) {
        return java.util.Objects.requireNonNull(root.getRootSchema().getSubSchema(FerrySchema.NAME))
                .unwrap(FerrySchema.class);
    }

    /** Rows of a stream's batches, as the row engine above reads them; a reset reads them from the start again. */
    private final class BatchEnumerator implements Enumerator<Object> {
        private final Supplier<BatchStream> open;
        private BatchStream stream;
        private Batch batch;
        private int row = -1;
        private Object current;

        BatchEnumerator(Supplier<BatchStream> open) {
            this.open = open;
        }

        @Override
        public Object current() {
            return current;
        }

        @Override
        public boolean moveNext() {
            if (stream == null) {
                stream = open.get();
            }
            while (batch == null || ++row >= batch.rowCount()) {
                batch = stream.next();
                row = -1;
                if (batch == null) {
                    return false;
                }
            }
            current = materialize(batch, row);
            return true;
        }

        private Object materialize(Batch b, int r) {
            if (format == JavaRowFormat.SCALAR) {
                return rows.value(b.column(0), r, 0);
            }
            if (format == JavaRowFormat.LIST && rows.width() == 0) {
                return FlatLists.COMPARABLE_EMPTY_LIST;
            }
            Object[] values = new Object[rows.width()];
            for (int c = 0; c < values.length; c++) {
                values[c] = rows.value(b.column(c), r, c);
            }
            return values;
        }

        @Override
        public void reset() {
            close();
        }

        @Override
        public void close() {
            if (stream != null) {
                stream.close();
                stream = null;
            }
            batch = null;
            row = -1;
        }
    }
}
