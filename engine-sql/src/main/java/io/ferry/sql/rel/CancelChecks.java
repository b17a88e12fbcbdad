package io.ferry.sql.rel;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableNestedLoopJoin;
import org.apache.calcite.adapter.enumerable.EnumerableWindow;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.tree.Types;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.tools.Program;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;

/**
 * Cancel and timeout for the loops of Calcite's row engine. Its nested-loop join runs to the end once started,
 * polling nothing: a non-equi join over three 1000-row tables ran 43 s past a 2 s timeout, and a client that gave up
 * left the server busy. The last planning step ({@link #PROGRAM}) puts a {@link Check} under both inputs of every
 * nested-loop join (CancelCheck in EXPLAIN); a check's rows, and the list the join makes of its inner input, poll the statement's cancel
 * flag and deadline every {@value #EVERY} rows, so the join stops within milliseconds with 57014. Window operators
 * become {@link CheckedWindow}s, whose loops poll the same way.
 */
public final class CancelChecks {
    /** Rows between two polls: cheap enough to be invisible, frequent enough to stop in milliseconds. */
    static final int EVERY = 1024;

    private CancelChecks() {
    }

    /** Inserts the checks into a physical plan. */
    public static final Program PROGRAM = BottomUp.program(visited -> {
        if (visited instanceof EnumerableWindow window) {
            refuseDistinct(window);
            return new CheckedWindow(window);
        }
        if (!(visited instanceof EnumerableNestedLoopJoin join)) {
            return visited;
        }
        return join.copy(join.getTraitSet(), List.of(check(join.getLeft()), check(join.getRight())));
    });

    /**
     * Calcite's window implementation ignores DISTINCT: {@code COUNT(DISTINCT x) OVER (…)} counted every row. Ferry's
     * window operator does not take DISTINCT either, so such a statement is refused rather than answered wrong.
     */
    private static void refuseDistinct(EnumerableWindow window) {
        for (Window.Group group : window.groups) {
            for (Window.RexWinAggCall call : group.aggCalls) {
                if (call.distinct) {
                    throw new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, call.getOperator().getName()
                            + "(DISTINCT …) OVER (…) is not supported yet: compute the aggregate with GROUP BY over "
                            + "the window's PARTITION BY columns in a subquery and join it to the rows");
                }
            }
        }
    }

    private static RelNode check(RelNode input) {
        return new RowsWrapper(input, "CancelCheck", null, Types.lookupMethod(CancelChecks.class, "checked",
                Enumerable.class, DataContext.class), (implementor, rows) -> implementor.getRootExpression());
    }

    /** A poll of the statement's cancel flag and deadline, for generated loops ({@link CheckedWindow}). */
    public static Poll poll(DataContext root) {
        AtomicBoolean cancel = DataContext.Variable.CANCEL_FLAG.get(root);
        Long timeout = DataContext.Variable.TIMEOUT.get(root);
        long deadline = timeout == null || timeout <= 0 ? Long.MAX_VALUE
                : System.nanoTime() + timeout * 1_000_000L;
        return new Poll(cancel, deadline);
    }

    /** The rows of {@code input}, checking the statement's cancel flag and deadline as they are read. */
    public static <T> Enumerable<T> checked(Enumerable<T> input, DataContext root) {
        Poll poll = poll(root);
        return new AbstractEnumerable<>() {
            @Override
            public Enumerator<T> enumerator() {
                Enumerator<T> rows = input.enumerator();
                return new Enumerator<>() {
                    @Override
                    public T current() {
                        return rows.current();
                    }

                    @Override
                    public boolean moveNext() {
                        poll.tick();
                        return rows.moveNext();
                    }

                    @Override
                    public void reset() {
                        rows.reset();
                    }

                    @Override
                    public void close() {
                        rows.close();
                    }
                };
            }

            /** The nested-loop join reads its inner input as a list, once per outer row. */
            @Override
            public List<T> toList() {
                List<T> rows = new ArrayList<>();
                try (Enumerator<T> e = enumerator()) {
                    while (e.moveNext()) {
                        rows.add(e.current());
                    }
                }
                return new CheckedList<>(rows, poll);
            }
        };
    }

    /** A countdown to the next poll of the cancel flag and the deadline. */
    public static final class Poll {
        private final AtomicBoolean cancel;
        private final long deadline;
        private int countdown = EVERY;

        Poll(AtomicBoolean cancel, long deadline) {
            this.cancel = cancel;
            this.deadline = deadline;
        }

        public void tick() {
            if (--countdown > 0) {
                return;
            }
            countdown = EVERY;
            if (cancel != null && cancel.get()) {
                throw new FerryException(SqlStates.QUERY_CANCELED, "query cancelled by the client");
            }
            if (System.nanoTime() > deadline) {
                throw new FerryException(SqlStates.QUERY_CANCELED, "query ran past its timeout and was stopped; "
                        + "raise the timeout (Statement.setQueryTimeout) or make the query cheaper");
            }
        }
    }

    /** A list whose iteration polls. */
    private static final class CheckedList<T> extends AbstractList<T> {
        private final List<T> rows;
        private final Poll poll;

        CheckedList(List<T> rows, Poll poll) {
            this.rows = rows;
            this.poll = poll;
        }

        @Override
        public T get(int index) {
            return rows.get(index);
        }

        @Override
        public int size() {
            return rows.size();
        }

        @Override
        public Iterator<T> iterator() {
            Iterator<T> it = rows.iterator();
            return new Iterator<>() {
                @Override
                public boolean hasNext() {
                    return it.hasNext();
                }

                @Override
                public T next() {
                    poll.tick();
                    return it.next();
                }
            };
        }
    }
}
