package io.ferry.sql.jdbc;

import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.calcite.DataContext;
import org.apache.calcite.jdbc.CalcitePrepare.CalciteSignature;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.sql.QueryLog;
import io.ferry.sql.access.AccessControl;
import io.ferry.sql.access.Principal;
import io.ferry.sql.access.TableAccess;
import io.ferry.sql.schema.FerrySchema;

/**
 * A planned statement whose every execution is an entry of {@code sys.queries}: started when the statement runs,
 * finished when its result has been read to the end or closed, failed if reading it fails.
 */
final class LoggedSignature<T> extends CalciteSignature<T> {
    private final CalciteSignature<T> plan;
    private final QueryLog log;
    private final double planningMillis;
    private final boolean cached;
    private final String rowEngine;
    private final AccessControl access;
    private final TableAccess needs;

    /** @param rowEngine the row-engine operators in the plan, or null ({@link QueryLog#start}) */
    LoggedSignature(CalciteSignature<T> plan, QueryLog log, double planningMillis, boolean cached, String rowEngine,
            AccessControl access, TableAccess needs) {
        super(plan.sql, plan.parameters, plan.internalParameters, plan.rowType, plan.columns, plan.cursorFactory,
                plan.rootSchema, plan.getCollationList(), -1, null, plan.statementType);
        this.plan = plan;
        this.log = log;
        this.planningMillis = planningMillis;
        this.cached = cached;
        this.rowEngine = rowEngine;
        this.access = access;
        this.needs = needs;
    }

    @Override
    public Enumerable<T> enumerable(DataContext context) {
        // a prepared statement runs its plan again and again: its user's grants are checked each time
        Principal user = FerrySchema.of(context.getRootSchema()).principal();
        access.check(user, needs);
        QueryLog.Entry entry = log.start(sql, user, planningMillis, cached, rowEngine);
        AtomicBoolean cancel = DataContext.Variable.CANCEL_FLAG.get(context);
        entry.cancelledBy(cancel);
        Enumerable<T> rows;
        try {
            rows = QueryLog.starting(entry.id(), () -> plan.enumerable(context));
        } catch (RuntimeException | Error e) {
            entry.failed(e);
            throw e;
        }
        return new AbstractEnumerable<>() {
            @Override
            public Enumerator<T> enumerator() {
                Enumerator<T> first;
                try {
                    // Ferry's plans run here, before the first row
                    first = QueryLog.starting(entry.id(), rows::enumerator);
                } catch (RuntimeException | Error e) {
                    entry.failed(e);
                    throw e;
                }
                return new Logged<>(first, entry, cancel);
            }
        };
    }

    private static final class Logged<T> implements Enumerator<T> {
        private final Enumerator<T> rows;
        private final QueryLog.Entry entry;
        private final AtomicBoolean cancel;

        Logged(Enumerator<T> rows, QueryLog.Entry entry, AtomicBoolean cancel) {
            this.rows = rows;
            this.entry = entry;
            this.cancel = cancel;
        }

        @Override
        public T current() {
            return rows.current();
        }

        @Override
        public boolean moveNext() {
            try {
                boolean more = rows.moveNext();
                if (more) {
                    entry.row();
                } else {
                    entry.finished();
                }
                return more;
            } catch (RuntimeException | Error e) {
                entry.failed(e);
                throw e;
            }
        }

        @Override
        public void reset() {
            rows.reset();
        }

        @Override
        public void close() {
            try {
                rows.close();
            } finally {
                if (cancel != null && cancel.get()) {
                    // closed unread because it was cancelled (an abandoned result), not read to its end
                    entry.failed(new FerryException(SqlStates.QUERY_CANCELED, "query cancelled before its result "
                            + "was read to the end"));
                } else {
                    entry.finished();
                }
            }
        }
    }
}
