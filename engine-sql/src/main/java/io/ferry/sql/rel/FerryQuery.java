package io.ferry.sql.rel;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.runtime.FlatLists;

import io.ferry.core.exec.PlanNode;
import io.ferry.core.exec.QueryContext;
import io.ferry.core.exec.QueryMemory;
import io.ferry.core.exec.SampleWarnings;
import io.ferry.core.expr.StatementClock;
import io.ferry.core.vector.Batch;
import io.ferry.sql.FerryEngine;
import io.ferry.sql.QueryWarnings;
import io.ferry.sql.schema.FerrySchema;

/**
 * A compiled Ferry subtree as Calcite's generated code sees it: {@link #execute} runs the plan on the engine's
 * executor and hands the result back row by row, honouring Statement.cancel() and setQueryTimeout.
 */
public final class FerryQuery {
    private final PlanNode plan;
    private final RowConverter rows;
    private final JavaRowFormat format;
    private final boolean readsClock;

    /**
     * @param format how the row engine above reads a row: SCALAR for one column, LIST for none (Calcite's physical
     *               types turn a row of no columns into an empty list, which its window operator compares), else
     *               ARRAY
     */
    FerryQuery(PlanNode plan, RelDataType rowType, JavaRowFormat format) {
        this.plan = plan;
        this.readsClock = StatementClock.readsClock(plan);
        this.rows = new RowConverter(rowType);
        this.format = format;
    }

    public PlanNode plan() {
        return plan;
    }

    /**
     * The plan's rows. It runs when they are first enumerated, not before: a DELETE or UPDATE takes the table's
     * write lock between the two, and must read the table's rows after it has the lock. Later enumerations (the
     * inner side of a nested-loop join) reuse the rows.
     */
    public Enumerable<Object> execute(DataContext root) {
        FerrySchema schema = schema(root);
        FerryEngine engine = schema.engine();
        AtomicBoolean cancel = DataContext.Variable.CANCEL_FLAG.get(root);
        Long timeout = DataContext.Variable.TIMEOUT.get(root);
        return new AbstractEnumerable<>() {
            private List<Batch> result;

            @Override
            public synchronized Enumerator<Object> enumerator() {
                if (result == null) {
                    QueryContext ctx = new QueryContext(() -> cancel != null && cancel.get(),
                            timeout == null ? 0 : timeout, new QueryMemory(engine.config().queryMemoryLimit()));
                    QueryWarnings.report(() -> SampleWarnings.of(plan));
                    result = engine.runner().run(readsClock ? StatementClock.bind(plan, statementTime(root)) : plan,
                            ctx, schema.session());
                }
                return new BatchEnumerator(result);
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

    private final class BatchEnumerator implements Enumerator<Object> {
        private final List<Batch> batches;
        private int batch;
        private int row = -1;
        private Object current;

        BatchEnumerator(List<Batch> batches) {
            this.batches = batches;
        }

        @Override
        public Object current() {
            return current;
        }

        @Override
        public boolean moveNext() {
            while (batch < batches.size()) {
                Batch b = batches.get(batch);
                if (++row < b.rowCount()) {
                    current = materialize(b, row);
                    return true;
                }
                batch++;
                row = -1;
            }
            return false;
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
            batch = 0;
            row = -1;
        }

        @Override
        public void close() {
        }
    }
}
