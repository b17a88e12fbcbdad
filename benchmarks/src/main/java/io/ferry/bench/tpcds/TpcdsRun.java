package io.ferry.bench.tpcds;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import io.ferry.bench.InProcessCluster;
import io.ferry.bench.tpcds.QueryResult.Outcome;
import io.ferry.server.cluster.Role;
import io.ferry.sql.EngineConfig;
import io.ferry.sql.FerryEngine;
import io.ferry.sql.QueryLog;
import io.ferry.sql.SqlErrors;
import io.ferry.sql.rel.MemoryMeter;
import io.trino.tpcds.Table;

/**
 * Ferry in local mode and DuckDB in this JVM over the same TPC-DS rows: loads the tables, then runs each statement
 * on both and compares ({@link ResultComparison}).
 *
 * <p>Every Ferry statement gets a fresh connection, so its plan is never one the connection's plan cache kept, and
 * {@code prepareStatement} times a first planning. Queries run with {@code setQueryTimeout}; a watchdog thread also
 * cancels a statement that overruns it by half the timeout, at most 10 s (the timeout covers execution only, and a
 * planner that does not stop must not stop the run), and gives up on one that does not stop after being cancelled:
 * that statement's thread is left behind and the run goes on on a new one.
 */
public final class TpcdsRun implements AutoCloseable {
    /**
     * Ferry as a cluster in this JVM (tcp fabric): memory and compute servers, TPC-DS partitioned for its star joins
     * into {@code partitions} parts per key (0: not), every statement run under {@code SET execution}.
     */
    public record Cluster(int memory, int compute, String execution, int partitions) {
        String describe() {
            return String.format(Locale.ROOT, "on %d memory and %d compute servers in this JVM (tcp fabric), "
                    + "execution = '%s'%s", memory, compute, execution, partitions == 0 ? ""
                            : ", the sales tables, ITEM and CUSTOMER partitioned " + partitions + " ways by item and "
                                    + "customer");
        }

        String name() {
            return execution + "-" + memory + "x" + compute;
        }
    }

    private final TpcdsData data;
    private final FerryEngine ferry;
    /** The cluster Ferry runs on, or null in local mode. */
    private final InProcessCluster cluster;
    private final Cluster shape;
    private final Connection duck;
    private final int timeoutSeconds;
    /** The watchdog's margin: it cancels this long after the timeout, and gives up this long after cancelling. */
    private final int graceSeconds;
    /** The thread statements run on; replaced when the watchdog gives one up. */
    private final AtomicReference<Thread> workerThread = new AtomicReference<>();
    private ExecutorService worker = newWorker();
    /** The statement of Ferry's that ended last (one runs at a time). */
    private final AtomicReference<QueryLog.Entry> lastEnded = new AtomicReference<>();

    private TpcdsRun(TpcdsData data, FerryEngine ferry, InProcessCluster cluster, Cluster shape,
            Connection duck, int timeoutSeconds) {
        this.data = data;
        this.ferry = ferry;
        this.cluster = cluster;
        this.shape = shape;
        this.duck = duck;
        this.timeoutSeconds = timeoutSeconds;
        this.graceSeconds = Math.max(1, Math.min(10, timeoutSeconds / 2));
        ferry.queries().onEnded(lastEnded::set);
    }

    /**
     * Starts both engines with {@code threads} threads each — Ferry in local mode, or as {@code shape} when not
     * null; nothing is loaded yet.
     */
    public static TpcdsRun start(TpcdsData data, EngineConfig config, int timeoutSeconds, Cluster shape)
            throws SQLException {
        requireNonNull(data, "data is null");
        InProcessCluster cluster = shape == null ? null : startCluster(config, shape);
        FerryEngine ferry = cluster == null ? FerryEngine.start(config) : cluster.engine();
        try {
            Connection duck = DriverManager.getConnection("jdbc:duckdb:");
            try (Statement s = duck.createStatement()) {
                s.execute("SET threads TO " + config.threads());
                // The standard leaves where NULLs sort to the implementation. Ferry sorts them as Calcite does by
                // default, as if larger than any value (last when ascending, first when descending), as
                // PostgreSQL does; DuckDB's default puts them last either way.
                s.execute("SET default_null_order = 'nulls_last_on_asc_first_on_desc'");
                // The standard makes the quotient of two exact numbers exact, with an implementation-defined scale:
                // Ferry (Calcite) and PostgreSQL give an INTEGER / INTEGER quotient scale 0 and truncate; DuckDB's /
                // divides in floating point unless told otherwise.
                s.execute("SET integer_division = true");
            }
            return new TpcdsRun(data, ferry, cluster, shape, duck, timeoutSeconds);
        } catch (SQLException | RuntimeException e) {
            if (cluster != null) {
                cluster.close();
            } else {
                ferry.close();
            }
            throw e;
        }
    }

    private static InProcessCluster startCluster(EngineConfig config, Cluster shape) {
        List<InProcessCluster.Node> nodes = new ArrayList<>();
        for (int i = 1; i <= shape.memory(); i++) {
            nodes.add(new InProcessCluster.Node(Role.MEMORY, "m" + i, 1,
                    2L << 30, 256L << 20));
        }
        for (int i = 1; i <= shape.compute(); i++) {
            nodes.add(new InProcessCluster.Node(Role.COMPUTE, "c" + i, 1,
                    0, 1L << 30));
        }
        return InProcessCluster.start(config, nodes, Duration.ofSeconds(30));
    }

    /** A connection to Ferry with the run's session settings. */
    private Connection connect() throws SQLException {
        Connection c = ferry.connect();
        if (shape != null) {
            try (Statement s = c.createStatement()) {
                s.execute("SET execution = '" + shape.execution() + "'");
            } catch (SQLException e) {
                c.close();
                throw e;
            }
        }
        return c;
    }

    /** Loads one table into both engines; returns its rows. */
    public long load(Table table) throws IOException, SQLException {
        return TpcdsLoader.load(data, table, shape == null ? 0 : shape.partitions(), ferry, duck);
    }

    /**
     * What each engine held, for the report: Ferry's Arrow memory (its tables) now and at its peak, the JVM heap's
     * peak since {@link #resetMemoryPeaks} (Ferry's working memory, and the rows of both engines' results that this
     * harness holds to compare them), and DuckDB's memory as {@code duckdb_memory()} reports it now and at its most
     * after any statement (DuckDB keeps no peak).
     */
    public record Memory(long ferryArrow, long ferryArrowPeak, long heapPeak, long duckNow, long duckMostAfter) {
        public String line() {
            return String.format(Locale.ROOT, "Memory: Ferry's tables take %.0f MiB of Arrow memory (peak "
                    + "%.0f MiB); the JVM heap peaked at %.0f MiB while the statements ran (Ferry's operators, and "
                    + "both engines' result rows held here to compare them); DuckDB holds %.0f MiB (duckdb_memory()), "
                    + "at most %.0f MiB after any statement.", ferryArrow / MIB, ferryArrowPeak / MIB, heapPeak / MIB,
                    duckNow / MIB, duckMostAfter / MIB);
        }

        private static final double MIB = 1 << 20;
    }

    private volatile long duckMostAfter;

    /** Forgets the JVM heap's peaks so far (the load's), so that {@link #memory} reports the statements'. */
    public void resetMemoryPeaks() {
        heapPools().forEach(MemoryPoolMXBean::resetPeakUsage);
    }

    private static List<MemoryPoolMXBean> heapPools() {
        return ManagementFactory.getMemoryPoolMXBeans().stream().filter(p -> p.getType() == MemoryType.HEAP)
                .toList();
    }

    public Memory memory() throws SQLException {
        long heapPeak = heapPools().stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum();
        return new Memory(ferry.allocator().getAllocatedMemory(), ferry.allocator().getPeakMemoryAllocation(),
                heapPeak, duckMemory(), duckMostAfter);
    }

    private long duckMemory() throws SQLException {
        try (Statement s = duck.createStatement();
                ResultSet rs = s.executeQuery("SELECT SUM(memory_usage_bytes) FROM duckdb_memory()")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    public String duckDbVersion() throws SQLException {
        try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery("SELECT version()")) {
            rs.next();
            return rs.getString(1);
        }
    }

    /**
     * Statements of the shapes TPC-DS is made of (star joins, grouping, sorting with a limit, subqueries, set
     * operations, windows), written for this warm-up and none of them a TPC-DS query: {@link #warmUp()} plans them
     * so that the first measured planning is not also the planner's class loading and JIT compilation, as on a
     * server that has been answering queries for a while.
     */
    private static final List<String> WARM_UP = List.of(
            "SELECT d_year, COUNT(*) FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk "
                    + "WHERE d_moy = %d GROUP BY d_year ORDER BY d_year",
            "SELECT i_brand, s_state, SUM(ss_net_paid), AVG(ss_quantity) FROM store_sales, item, store, date_dim "
                    + "WHERE ss_item_sk = i_item_sk AND ss_store_sk = s_store_sk AND ss_sold_date_sk = d_date_sk "
                    + "AND d_year = 2000 + %d GROUP BY i_brand, s_state ORDER BY 3 DESC LIMIT 10",
            "SELECT c_last_name FROM customer WHERE c_birth_month = %d AND EXISTS (SELECT 1 FROM store_sales "
                    + "WHERE ss_customer_sk = c_customer_sk) AND c_customer_sk NOT IN (SELECT cs_bill_customer_sk "
                    + "FROM catalog_sales WHERE cs_bill_customer_sk IS NOT NULL)",
            "SELECT i_category, i_class, SUM(ws_ext_sales_price), RANK() OVER (PARTITION BY i_category ORDER BY "
                    + "SUM(ws_ext_sales_price) DESC) FROM web_sales JOIN item ON ws_item_sk = i_item_sk "
                    + "WHERE i_current_price > %d GROUP BY ROLLUP (i_category, i_class)",
            "SELECT ss_customer_sk AS c FROM store_sales WHERE ss_quantity = %d UNION ALL SELECT ws_bill_customer_sk "
                    + "FROM web_sales WHERE ws_quantity = 1 INTERSECT SELECT c_customer_sk FROM customer",
            "SELECT CASE WHEN ss_quantity BETWEEN 1 AND %d THEN 'low' ELSE 'high' END, COUNT(DISTINCT ss_item_sk), "
                    + "SUM(CASE WHEN ss_net_profit > 0 THEN 1 ELSE 0 END) FROM store_sales LEFT JOIN store_returns "
                    + "ON ss_ticket_number = sr_ticket_number AND ss_item_sk = sr_item_sk GROUP BY 1");

    /** Rounds of {@link #WARM_UP}; each round changes a literal, so that no plan comes from the plan cache. */
    private static final int WARM_UP_ROUNDS = 8;

    /** Plans {@link #WARM_UP} on Ferry, untimed, and runs the first of them. */
    public void warmUp() throws SQLException {
        // on a connection of its own, without the run's settings: it only warms the planner and the engine
        try (Connection c = ferry.connect()) {
            for (int round = 1; round <= WARM_UP_ROUNDS; round++) {
                for (String shape : WARM_UP) {
                    c.prepareStatement(String.format(Locale.ROOT, shape, round)).close();
                }
            }
            try (PreparedStatement p = c.prepareStatement(String.format(Locale.ROOT, WARM_UP.get(0), 1));
                    ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    rs.getObject(1);
                }
            }
        }
    }

    /** {@link PlanningPasses}: the statements planned again, {@code passes} times, on a fresh connection. */
    public List<PlanningPasses.Pass> planningPasses(List<TpcdsQueries.Query> queries, int passes)
            throws SQLException {
        try (Connection c = connect()) {
            return PlanningPasses.measure(c, queries, passes);
        }
    }

    public QueryResult run(TpcdsQueries.Query query) {
        ResultOrder order = ResultOrder.of(query.sql());
        Attempt f = attempt(ferryRun(query.sql()));
        Attempt d = attempt(duckRun(query.sql()));
        long ferryRows = f.rows == null ? -1 : f.rows.size();
        long duckRows = d.rows == null ? -1 : d.rows.size();
        Outcome outcome;
        String detail;
        if (f.error != null && d.error != null && !f.timedOut && f.sqlState != null && f.sqlState.startsWith("22")) {
            // the data make the query fail (query 90 at SF 0.1 divides by a count of zero): DuckDB's answer is an
            // error, and a data exception (SQLSTATE class 22) is Ferry's giving the same answer
            outcome = Outcome.MATCH;
            detail = "both fail: Ferry " + f.error + "; DuckDB " + d.error;
        } else if (f.error != null) {
            outcome = f.timedOut ? Outcome.TIMEOUT : Outcome.FERRY_ERROR;
            detail = f.error + (d.error == null ? "" : "; DuckDB fails too: " + d.error);
        } else if (d.error != null) {
            outcome = Outcome.DUCKDB_ERROR;
            detail = d.error;
        } else {
            Optional<String> difference = ResultComparison.compare(f.rows, d.rows, order);
            outcome = difference.isPresent() ? Outcome.MISMATCH : Outcome.MATCH;
            detail = difference.orElse("");
        }
        return new QueryResult(query.name(), outcome, detail, f.planningMs, f.executionMs, d.executionMs, ferryRows,
                duckRows, f.peakBytes, f.spilledBytes, f.rowEngine);
    }

    /** A statement on one engine: its rows, or the error that stopped it, and the times it got as far as. */
    private static final class Attempt {
        final AtomicReference<Statement> statement = new AtomicReference<>();
        volatile double planningMs = Double.NaN;
        volatile double executionMs = Double.NaN;
        volatile long peakBytes;
        volatile long spilledBytes;
        volatile String rowEngine;
        List<List<Object>> rows;
        String error;
        String sqlState;
        boolean timedOut;
    }

    private interface Work {
        void run(Attempt attempt) throws SQLException;
    }

    private Attempt attempt(Work work) {
        Attempt a = new Attempt();
        Future<Void> f = worker.submit(() -> {
            work.run(a);
            return null;
        });
        boolean cancelled = false;
        try {
            try {
                f.get(timeoutSeconds + graceSeconds, TimeUnit.SECONDS);
            } catch (TimeoutException overran) {
                cancelled = true;
                Statement s = a.statement.get();
                if (s != null) {
                    s.cancel();
                }
                try {
                    f.get(graceSeconds, TimeUnit.SECONDS);
                } catch (TimeoutException stuck) {
                    f.cancel(true);
                    worker.shutdownNow();
                    String stopped = stop(workerThread.get());
                    worker = newWorker();
                    a.timedOut = true;
                    a.error = (s == null ? "planning did not finish in " : "no result after ")
                            + (timeoutSeconds + 2 * graceSeconds) + " s" + (s == null ? ""
                            : ", and cancel() did not stop it") + " (watchdog; " + stopped + ")";
                    return a;
                }
                a.timedOut = true;
                a.error = "the query timeout did not stop it; the watchdog cancelled it after "
                        + (timeoutSeconds + graceSeconds) + " s";
            }
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            // the SQLSTATE a client of Ferry's server gets: the server translates errors (SqlErrors), the
            // in-process connection this harness uses does not
            a.sqlState = SqlErrors.translate(cause).sqlState();
            if (cause instanceof SQLException sql) {
                a.timedOut = cancelled || sql instanceof SQLTimeoutException || "57014".equals(a.sqlState);
                a.error = (cancelled ? "cancelled by the watchdog after " + (timeoutSeconds + graceSeconds)
                        + " s: " : "") + describe(sql);
            } else {
                a.error = "unexpected " + cause;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            a.error = "interrupted";
        } catch (SQLException e) {
            a.error = "cancel() failed: " + describe(e);
        }
        return a;
    }

    private Work ferryRun(String sql) {
        return a -> {
            try (Connection c = connect()) {
                long start = System.nanoTime();
                try (PreparedStatement p = c.prepareStatement(sql)) {
                    a.planningMs = millisSince(start);
                    a.statement.set(p);
                    p.setQueryTimeout(timeoutSeconds);
                    long run = System.nanoTime();
                    // the embedded connection runs the plans in this thread, where the meter sees them
                    try (MemoryMeter meter = MemoryMeter.open(); ResultSet rs = p.executeQuery()) {
                        List<List<Object>> rows = read(rs);
                        // the statement's entry in sys.queries ended as its last row was read
                        QueryLog.Entry entry = lastEnded.get();
                        a.rowEngine = entry == null ? null : entry.rowEngine();
                        a.executionMs = millisSince(run);
                        a.rows = rows;
                        a.peakBytes = meter.peak();
                        a.spilledBytes = meter.spilled();
                    }
                }
            }
        };
    }

    private Work duckRun(String sql) {
        return a -> {
            try (Statement s = duck.createStatement()) {
                a.statement.set(s);
                s.setQueryTimeout(timeoutSeconds);
                long run = System.nanoTime();
                try (ResultSet rs = s.executeQuery(sql)) {
                    List<List<Object>> rows = read(rs);
                    a.executionMs = millisSince(run);
                    a.rows = rows;
                }
                duckMostAfter = Math.max(duckMostAfter, duckMemory());
            }
        };
    }

    private static List<List<Object>> read(ResultSet rs) throws SQLException {
        int columns = rs.getMetaData().getColumnCount();
        List<List<Object>> rows = new ArrayList<>();
        while (rs.next()) {
            List<Object> row = new ArrayList<>(columns);
            for (int c = 1; c <= columns; c++) {
                row.add(ResultComparison.normalize(rs.getObject(c)));
            }
            rows.add(row);
        }
        return rows;
    }

    private static double millisSince(long start) {
        return (System.nanoTime() - start) / 1e6;
    }

    /**
     * The SQLSTATE and first line of an error. Calcite's JDBC layer wraps planning failures in "Error while
     * preparing statement [whole SQL]", which says nothing, so the innermost cause's first line follows.
     */
    static String describe(SQLException e) {
        StringBuilder s = new StringBuilder();
        s.append(e.getSQLState() == null ? "(no SQLSTATE)" : e.getSQLState()).append(' ').append(firstLine(e));
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root != e) {
            s.append(" | cause: ").append(root.getClass().getSimpleName()).append(": ").append(firstLine(root));
        }
        return s.toString();
    }

    private static String firstLine(Throwable t) {
        String message = t.getMessage() == null ? "" : t.getMessage().strip();
        int newline = message.indexOf('\n');
        String line = newline < 0 ? message : message.substring(0, newline);
        return line.length() <= 300 ? line : line.substring(0, 300) + "...";
    }

    private ExecutorService newWorker() {
        return Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "tpcds-query");
            t.setDaemon(true);
            workerThread.set(t);
            return t;
        });
    }

    /**
     * Stops a statement's thread that neither the query timeout nor cancel() stopped. Calcite's planner heeds neither
     * (they reach only execution), and a planner left to search on takes a core from every later statement and skews
     * its times; Thread.stop is the only way left. It unwinds the planner with an error; planning holds no Arrow
     * memory and no lock of Ferry's beyond a plan-cache lookup. Gone in JDK 20+, where the thread runs on.
     */
    @SuppressWarnings("deprecation")
    private static String stop(Thread thread) {
        if (thread == null) {
            return "no thread to stop";
        }
        try {
            thread.stop();
            return "its thread was stopped";
        } catch (UnsupportedOperationException e) {
            return "its thread could not be stopped on this JDK and runs on";
        }
    }

    @Override
    public void close() throws SQLException {
        worker.shutdownNow();
        try {
            duck.close();
        } finally {
            if (cluster != null) {
                cluster.close();
            } else {
                ferry.close();
            }
        }
    }
}
