package io.ferry.sql;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import io.ferry.core.types.Column;
import io.ferry.core.types.FerryType;
import io.ferry.sql.access.Principal;
import io.ferry.sql.schema.SystemTable;

/**
 * The statements an engine ran lately, for {@code sys.queries}: one entry per execution of a planned statement, and
 * one per statement that failed before it could run (a syntax error, an unknown table) or ran while it was planned
 * (DDL). An entry keeps how long planning took, whether the plan came from the plan cache and which of its operators
 * are Calcite's row engine (the slow path, {@code row_engine}), then how long the execution took until its result was
 * read to the end or closed, and how many rows it gave.
 */
public final class QueryLog {
    /** Entries kept; older ones are forgotten first. */
    static final int KEPT = 1000;

    private static final String PLANNING = "planning";

    private final AtomicLong ids = new AtomicLong();
    private final Deque<Entry> recent = new ArrayDeque<>();
    private final List<Consumer<Entry>> ended = new CopyOnWriteArrayList<>();

    /** What one statement did; updated while it runs. */
    public final class Entry {
        private final long id;
        private final String statement;
        private final Principal user;
        private final long startedMillis;
        private volatile double planningMillis;
        private final boolean planCached;
        private final String rowEngine;
        private final long startedNanos = System.nanoTime();
        private volatile String state;
        private volatile double executionMillis = Double.NaN;
        private volatile long rows;
        private volatile String sqlState;
        private volatile String error;
        private volatile AtomicBoolean cancel;

        private Entry(String statement, Principal user, String state, double planningMillis, boolean planCached,
                String rowEngine) {
            this.id = ids.incrementAndGet();
            this.state = state;
            this.statement = redacted(statement);
            this.user = user;
            this.startedMillis = System.currentTimeMillis();
            this.planningMillis = planningMillis;
            this.planCached = planCached;
            this.rowEngine = rowEngine;
        }

        public long id() {
            return id;
        }

        /** The statement's text (a note in its place if it names a password). */
        public String statement() {
            return statement;
        }

        /** The flag that cancels this execution, as {@code Statement.cancel} would ({@link QueryLog#cancel}). */
        public void cancelledBy(AtomicBoolean flag) {
            cancel = flag;
        }

        /** One more row handed to the client (by the one thread that reads the result). */
        public void row() {
            rows++;
        }

        /** The result was read to its end or closed. */
        public void finished() {
            if ("running".equals(state)) {
                executionMillis = (System.nanoTime() - startedNanos) / 1e6;
                state = "finished";
                ended(this);
            }
        }

        /** The row-engine operators in the statement's plan, comma-separated; null when Ferry's run all of it. */
        public String rowEngine() {
            return rowEngine;
        }

        /** planning, running, finished or failed. */
        public String state() {
            return state;
        }

        public double planningMillis() {
            return planningMillis;
        }

        /** How long it ran, NaN while it runs. */
        public double executionMillis() {
            return executionMillis;
        }

        /** The SQLSTATE it failed with, or null. */
        public String sqlState() {
            return sqlState;
        }

        /** The statement's plan is made: its executions are entries of their own. */
        public void planned() {
            synchronized (recent) {
                recent.remove(this);
            }
        }

        /** The statement failed while it was planned, after {@code millis}. */
        public void failed(Throwable e, double millis) {
            planningMillis = millis;
            failed(e);
            executionMillis = 0; // it never ran
        }

        /** The statement failed; {@code e} says why, in the words the client got. */
        public void failed(Throwable e) {
            if ("running".equals(state) || PLANNING.equals(state)) {
                SqlErrors.Translated t = SqlErrors.translate(e);
                executionMillis = (System.nanoTime() - startedNanos) / 1e6;
                sqlState = t.sqlState();
                error = t.message();
                state = "failed";
                ended(this);
            }
        }

        private Object[] values() {
            return new Object[] {id, statement, user.isOwner() ? null : user.user(), state, startedMillis, planningMillis, planCached,
                Double.isNaN(executionMillis) ? null : executionMillis, rows, sqlState, error, rowEngine};
        }
    }

    private static final ThreadLocal<Long> CURRENT = new ThreadLocal<>();

    /** The id of the statement this thread is starting ({@link #starting}), or 0. */
    public static long current() {
        Long id = CURRENT.get();
        return id == null ? 0 : id;
    }

    /**
     * Runs {@code work} as statement {@code id}: what it starts (a cluster's fragments, in sys.fragments) is told
     * which statement it belongs to by {@link #current}.
     */
    public static <T> T starting(long id, Supplier<T> work) {
        Long outer = CURRENT.get();
        CURRENT.set(id);
        try {
            return work.get();
        } finally {
            if (outer == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(outer);
            }
        }
    }

    /** Calls {@code listener} with each entry as it finishes or fails, on the thread that ends it. */
    public void onEnded(Consumer<Entry> listener) {
        ended.add(listener);
    }

    private void ended(Entry e) {
        for (Consumer<Entry> listener : ended) {
            listener.accept(e);
        }
    }

    /** What {@link #cancel} did. */
    public enum Cancel {
        /** The statement was told to stop; it fails with 57014. */
        CANCELLED,
        /** No kept statement has that id. */
        UNKNOWN,
        /** The statement is not running (it ended, or is being planned). */
        NOT_RUNNING,
        /** The statement is another user's, and the canceller is no admin. */
        NOT_ALLOWED
    }

    /**
     * Cancels the running statement {@code id} on behalf of {@code who}, who may cancel their own statements, or
     * anyone's if {@code admin}: it stops as if its client had cancelled it (57014).
     */
    public Cancel cancel(long id, Principal who, boolean admin) {
        Entry target = null;
        synchronized (recent) {
            for (Entry e : recent) {
                if (e.id == id) {
                    target = e;
                }
            }
        }
        if (target == null) {
            return Cancel.UNKNOWN;
        }
        if (!admin && !target.user.equals(who)) {
            return Cancel.NOT_ALLOWED;
        }
        AtomicBoolean flag = target.cancel;
        if (!"running".equals(target.state) || flag == null) {
            return Cancel.NOT_RUNNING;
        }
        flag.set(true);
        return Cancel.CANCELLED;
    }

    /** The statements being planned or run now. */
    public int active() {
        synchronized (recent) {
            int n = 0;
            for (Entry e : recent) {
                n += "running".equals(e.state) || PLANNING.equals(e.state) ? 1 : 0;
            }
            return n;
        }
    }

    /** {@code statement} is being planned; {@link Entry#planned} or {@link Entry#failed(Throwable, double)} follows. */
    public Entry planning(String statement, Principal user) {
        return add(new Entry(statement, user, PLANNING, 0, false, null));
    }

    /**
     * An execution of {@code statement} starts, with a plan that took {@code planningMillis} to make and runs
     * {@code rowEngine}'s operators in Calcite's row engine (null: none).
     */
    public Entry start(String statement, Principal user, double planningMillis, boolean planCached,
            String rowEngine) {
        return add(new Entry(statement, user, "running", planningMillis, planCached, rowEngine));
    }

    private static final Pattern PASSWORD = Pattern.compile("(?i)\\bPASSWORD\\b");

    /**
     * {@code statement}, or in its place a note if it names a password ({@code CREATE USER}, {@code ALTER USER}): the
     * log is readable over SQL, and a literal can be written too many ways (comments, escapes, continued strings) to
     * blank out reliably.
     */
    static String redacted(String statement) {
        return PASSWORD.matcher(statement).find()
                ? "(the text of a statement that names a password is not kept)" : statement;
    }

    private Entry add(Entry e) {
        synchronized (recent) {
            recent.addLast(e);
            while (recent.size() > KEPT) {
                recent.removeFirst();
            }
        }
        return e;
    }

    /**
     * {@code sys.queries}: the kept entries, oldest first; all of them for a user {@code seesAll} says may see
     * everyone's statements (an admin), else the user's own.
     */
    public SystemTable table(Predicate<Principal> seesAll) {
        List<Column> columns = List.of(new Column("query_id", FerryType.BIGINT, false),
                new Column("statement", FerryType.VARCHAR, false), new Column("user_name", FerryType.VARCHAR, true),
                new Column("state", FerryType.VARCHAR, false),
                new Column("started_at", FerryType.TIMESTAMP, false),
                new Column("planning_ms", FerryType.DOUBLE, false), new Column("plan_cached", FerryType.BOOLEAN, false),
                new Column("execution_ms", FerryType.DOUBLE, true), new Column("row_count", FerryType.BIGINT, false),
                new Column("sql_state", FerryType.VARCHAR, true), new Column("error", FerryType.VARCHAR, true),
                new Column("row_engine", FerryType.VARCHAR, true));
        return SystemTable.perUser(columns, reader -> {
            List<Entry> entries;
            synchronized (recent) {
                entries = List.copyOf(recent);
            }
            boolean all = seesAll.test(reader);
            List<Object[]> rows = new ArrayList<>(entries.size());
            for (Entry e : entries) {
                if (all || e.user.equals(reader)) {
                    rows.add(e.values());
                }
            }
            return rows;
        });
    }
}
