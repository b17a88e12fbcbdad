package io.ferry.sql;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plans and runs a corpus of everyday statements, once per JVM and in the background, when the JVM's first engine
 * starts. A JVM fresh from start runs Calcite's and Ferry's planning code, and Ferry's operators and kernels,
 * interpreted until the JIT compiles them: the first TPC-DS statements took 150–250 ms to plan (p95) and the very
 * first 1.0–1.4 s, against 30–50 ms once the planner had seen a few hundred statements; a scan and count of 73,000
 * rows took 4–6 ms to execute after 200 runs and 0.2 ms after 3,000. The corpus is not any benchmark's: a star schema
 * of its own, in a private engine that is closed after (its tables never appear in the users' catalog), with the
 * shapes analysts write — star joins, CTEs, subqueries of every kind, windows, set operations, grouping sets, string
 * and date functions. It plans and runs the corpus up to 30 times over ({@link #ROUNDS}), 10–15 s of one core (at
 * the lowest thread priority, which Linux ignores: statements sent in those seconds share the cores with it), and
 * does not run with {@code --no-planner-warmup} ({@link EngineConfig#plannerWarmup()}). docs/sql.md (Planning) has
 * the measurements.
 */
public final class PlannerWarmup {
    private static final Logger LOG = LoggerFactory.getLogger(PlannerWarmup.class);
    private static final AtomicBoolean STARTED = new AtomicBoolean();

    /**
     * Passes over the corpus at most: the JIT compiles a method after thousands of calls, and each pass makes more.
     * A pass took 2.0 s of CPU first, 0.3 s second, 0.14 s by the tenth, 0.11 s by the twentieth and 0.09 s by the
     * thirtieth, and no less after (29 November 2026, this machine). {@code -Dferry.planner-warmup.rounds=n} or the
     * environment's {@code FERRY_PLANNER_WARMUP_ROUNDS} sets another bound (the build's tests: 3).
     */
    static final int ROUNDS = Integer.getInteger("ferry.planner-warmup.rounds",
            Integer.parseInt(System.getenv().getOrDefault("FERRY_PLANNER_WARMUP_ROUNDS", "30")));

    /**
     * The time after which no pass starts, counted as the warm-up thread's CPU (planning) plus the time its statements
     * took to run (on the engine's own thread): on a slow machine, the bound on what the warm-up costs.
     */
    static final Duration BUDGET = Duration.ofSeconds(12);

    /**
     * The corpus's tables, with rows: planning over empty tables skipped the statistics a join order and a scan's
     * estimates read (distinct counts, value ranges), and the first TPC-DS statements then compiled those paths.
     * With 35,000 rows, the first pass over the 103 TPC-DS statements after the warm-up planned in 1,921 and 1,694
     * ms where it took 1,991 and 1,888 (two JVMs each, alternating; the second pass 1,315 and 1,253 against 1,493
     * and 1,368).
     */
    private static final List<String> TABLES = List.of(
            "CREATE TABLE sales (id BIGINT NOT NULL, item INTEGER, customer INTEGER, store INTEGER, sold DATE, "
                    + "quantity INTEGER, price DECIMAL(7, 2), discount DOUBLE, channel VARCHAR)",
            "CREATE TABLE item (id INTEGER NOT NULL, brand VARCHAR, category VARCHAR, price DECIMAL(7, 2))",
            "CREATE TABLE customer (id INTEGER NOT NULL, name VARCHAR, city VARCHAR, born DATE)",
            "CREATE TABLE store (id INTEGER NOT NULL, name VARCHAR, state VARCHAR)",
            "INSERT INTO sales SELECT i, CAST(i % 997 AS INTEGER), CAST(i % 4001 AS INTEGER), CAST(i % 23 AS INTEGER), "
                    + "DATE '2024-01-01' + CAST(i % 730 AS INTEGER) * INTERVAL '1' DAY, CAST(i % 50 AS INTEGER), "
                    + "CAST((i % 10000) / 100.0 AS DECIMAL(7, 2)), (i % 7) / 10.0, CASE i % 3 WHEN 0 THEN 'web' "
                    + "WHEN 1 THEN 'store' ELSE 'mail' END FROM generate_series(1, 30000) AS g(i)",
            "INSERT INTO item SELECT CAST(i AS INTEGER), 'brand ' || CAST(i % 101 AS VARCHAR), CASE i % 4 WHEN 0 "
                    + "THEN 'Books' WHEN 1 THEN 'Music' WHEN 2 THEN 'Home' ELSE 'Sports' END, CAST(i % 90 AS "
                    + "DECIMAL(7, 2)) FROM generate_series(0, 996) AS g(i)",
            "INSERT INTO customer SELECT CAST(i AS INTEGER), 'name ' || CAST(i AS VARCHAR), 'city ' || CAST(i % 300 "
                    + "AS VARCHAR), DATE '1950-01-01' + CAST(i % 18000 AS INTEGER) * INTERVAL '1' DAY FROM "
                    + "generate_series(0, 4000) AS g(i)",
            "INSERT INTO store SELECT CAST(i AS INTEGER), 'store ' || CAST(i AS VARCHAR), CASE WHEN i < 10 THEN 'TN' "
                    + "ELSE 'CA' END FROM generate_series(0, 22) AS g(i)");

    /** The statements planned, each a shape users send every day. */
    static final List<String> STATEMENTS = List.of(
            "SELECT c.city, i.category, SUM(s.price * s.quantity) AS revenue FROM sales s JOIN item i ON s.item = "
                    + "i.id JOIN customer c ON s.customer = c.id JOIN store t ON s.store = t.id WHERE t.state = 'TN' "
                    + "AND s.sold BETWEEN DATE '2024-01-01' AND DATE '2024-03-31' GROUP BY c.city, i.category "
                    + "ORDER BY revenue DESC LIMIT 100",
            "SELECT i.brand, COUNT(*), AVG(s.quantity), MIN(s.price), MAX(s.discount) FROM sales s, item i, store t "
                    + "WHERE s.item = i.id AND s.store = t.id AND i.category IN ('Books', 'Music') "
                    + "GROUP BY i.brand HAVING COUNT(*) > 10 ORDER BY 2 DESC",
            "WITH totals AS (SELECT customer, SUM(price) AS spent FROM sales GROUP BY customer) SELECT c.name, "
                    + "t.spent FROM totals t JOIN customer c ON t.customer = c.id WHERE t.spent > (SELECT AVG(spent) "
                    + "* 1.2 FROM totals) ORDER BY t.spent DESC LIMIT 10",
            "SELECT name FROM store t WHERE EXISTS (SELECT 1 FROM sales s WHERE s.store = t.id AND s.discount > 0.1) "
                    + "AND state NOT IN (SELECT city FROM customer WHERE born < DATE '1970-01-01')",
            "SELECT s.id FROM sales s WHERE s.price > (SELECT AVG(price) FROM sales x WHERE x.item = s.item) "
                    + "AND s.customer IN (SELECT id FROM customer WHERE city LIKE 'Ma%')",
            "SELECT item, sold, SUM(quantity) OVER (PARTITION BY item ORDER BY sold ROWS BETWEEN 6 PRECEDING AND "
                    + "CURRENT ROW), RANK() OVER (PARTITION BY item ORDER BY price DESC), LAG(price) OVER (PARTITION "
                    + "BY item ORDER BY sold) FROM sales",
            "SELECT * FROM (SELECT i.category, i.brand, SUM(s.price) AS total, ROW_NUMBER() OVER (PARTITION BY "
                    + "i.category ORDER BY SUM(s.price) DESC) AS rk FROM sales s JOIN item i ON s.item = i.id GROUP "
                    + "BY i.category, i.brand) t WHERE rk <= 3",
            "SELECT 'web' AS channel, item, SUM(price) FROM sales WHERE channel = 'web' GROUP BY item UNION ALL "
                    + "SELECT 'store', item, SUM(price) FROM sales WHERE channel = 'store' GROUP BY item",
            "SELECT customer FROM sales WHERE sold >= DATE '2024-01-01' INTERSECT SELECT id FROM customer WHERE "
                    + "city = 'Paris' EXCEPT SELECT customer FROM sales WHERE discount > 0.5",
            "SELECT t.state, i.category, COUNT(DISTINCT s.customer), GROUPING(t.state) FROM sales s JOIN store t "
                    + "ON s.store = t.id JOIN item i ON s.item = i.id GROUP BY ROLLUP(t.state, i.category)",
            "SELECT c.city, CASE WHEN SUM(s.quantity) > 100 THEN 'many' WHEN SUM(s.quantity) > 10 THEN 'some' "
                    + "ELSE 'few' END, COALESCE(MAX(s.channel), 'none') FROM customer c LEFT JOIN sales s ON c.id = "
                    + "s.customer GROUP BY c.city",
            "SELECT UPPER(SUBSTRING(name, 1, 3)) || '-' || LOWER(city), TRIM(name), LENGTH(city), POSITION('a' IN "
                    + "name), REPLACE(city, ' ', '_') FROM customer WHERE name LIKE '%son' AND city <> ''",
            "SELECT EXTRACT(YEAR FROM sold), EXTRACT(MONTH FROM sold), COUNT(*), SUM(CAST(quantity AS DOUBLE) * "
                    + "(1 - discount)) FROM sales WHERE sold > CURRENT_DATE - INTERVAL '90' DAY GROUP BY 1, 2 "
                    + "ORDER BY 1, 2",
            "SELECT s.id, i.brand FROM sales s, item i WHERE (s.item = i.id AND i.category = 'Books' AND "
                    + "s.quantity < 10) OR (s.item = i.id AND i.category = 'Music' AND s.quantity > 20)",
            "SELECT i.category, STDDEV_SAMP(s.price), PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY s.price), "
                    + "STRING_AGG(DISTINCT i.brand, ',') FROM sales s JOIN item i ON s.item = i.id GROUP BY "
                    + "i.category",
            "SELECT c.name, (SELECT COUNT(*) FROM sales s WHERE s.customer = c.id) AS orders FROM customer c "
                    + "ORDER BY orders DESC NULLS LAST LIMIT 20",
            "SELECT DISTINCT t.name FROM store t FULL JOIN sales s ON t.id = s.store AND s.quantity > 5 WHERE "
                    + "t.name IS NOT NULL OR s.id IS NULL",
            "SELECT s1.item, s2.item, COUNT(*) FROM sales s1 JOIN sales s2 ON s1.customer = s2.customer AND "
                    + "s1.item < s2.item GROUP BY s1.item, s2.item ORDER BY 3 DESC LIMIT 10",
            // the large ones: report-style CTEs over channels, a join of eight, EXISTS beside NOT EXISTS with ORs
            "WITH web AS (SELECT t.id AS store, SUM(s.price) AS sales, SUM(s.discount) AS returns FROM sales s, "
                    + "store t, item i WHERE s.store = t.id AND s.item = i.id AND s.channel = 'web' AND i.price > 50 "
                    + "GROUP BY t.id), shop AS (SELECT t.id AS store, SUM(s.price) AS sales, SUM(s.discount) AS "
                    + "returns FROM sales s, store t, customer c WHERE s.store = t.id AND s.customer = c.id AND "
                    + "s.channel = 'store' GROUP BY t.id), mail AS (SELECT s.store, SUM(s.price) AS sales, 0.0 AS "
                    + "returns FROM sales s WHERE s.channel = 'mail' GROUP BY s.store) SELECT channel, store, "
                    + "SUM(sales), SUM(returns) FROM (SELECT 'web' AS channel, store, sales, returns FROM web UNION "
                    + "ALL SELECT 'store', store, sales, returns FROM shop UNION ALL SELECT 'mail', store, sales, "
                    + "returns FROM mail) x GROUP BY ROLLUP(channel, store) ORDER BY channel, store LIMIT 100",
            "SELECT i.brand, c1.city, c2.city, t1.state, COUNT(*), SUM(s1.price), SUM(s2.price) FROM sales s1, "
                    + "sales s2, item i, customer c1, customer c2, store t1, store t2, item j WHERE s1.item = i.id "
                    + "AND s1.customer = c1.id AND s2.customer = c2.id AND s1.store = t1.id AND s2.store = t2.id "
                    + "AND s2.item = j.id AND s1.item = s2.item AND c1.born < c2.born AND t1.state <> t2.state AND "
                    + "i.category = 'Books' AND j.price BETWEEN 10 AND 20 GROUP BY i.brand, c1.city, c2.city, "
                    + "t1.state",
            "SELECT c.city, COUNT(*) FROM customer c WHERE EXISTS (SELECT 1 FROM sales s WHERE s.customer = c.id "
                    + "AND s.sold > DATE '2024-01-01') AND (EXISTS (SELECT 1 FROM sales s WHERE s.customer = c.id "
                    + "AND s.channel = 'web') OR EXISTS (SELECT 1 FROM sales s WHERE s.customer = c.id AND "
                    + "s.channel = 'mail')) AND NOT EXISTS (SELECT 1 FROM sales s JOIN store t ON s.store = t.id "
                    + "WHERE s.customer = c.id AND t.state = 'TN') GROUP BY c.city ORDER BY 2 DESC");

    private PlannerWarmup() {
    }

    /** Starts the warm-up in the background unless this JVM has started it before. */
    static void startOnce() {
        if (!STARTED.compareAndSet(false, true)) {
            return;
        }
        Thread thread = new Thread(() -> {
            long start = System.nanoTime();
            try {
                List<String> failed = new ArrayList<>();
                int rounds = run(ROUNDS, BUDGET, failed);
                LOG.info("planner warmed up: {} statements planned and run in {} ms{}", rounds * STATEMENTS.size(),
                        (System.nanoTime() - start) / 1_000_000, failed.isEmpty() ? "" : "; failed: " + failed);
            } catch (SQLException | RuntimeException e) {
                LOG.info("planner warm-up stopped: {}", e.toString());
            }
        }, "ferry-planner-warmup");
        thread.setDaemon(true);
        thread.setPriority(Thread.MIN_PRIORITY);
        thread.start();
    }

    /**
     * Plans and runs the corpus {@code rounds} times in a private engine, closed after.
     *
     * @return the statements that failed, with their errors: none, unless the corpus no longer fits the engine (a
     *         test checks)
     */
    static List<String> run(int rounds) throws SQLException {
        List<String> failed = new ArrayList<>();
        run(rounds, Duration.ofDays(1), failed);
        return failed;
    }

    /**
     * Plans and runs the corpus up to {@code rounds} times in a private engine, closed after, no pass started once
     * {@code budget} is spent ({@link #BUDGET}); adds the statements that failed to {@code failed}.
     *
     * @return the passes made
     */
    private static int run(int rounds, Duration budget, List<String> failed) throws SQLException {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpuStart = threads.getCurrentThreadCpuTime();
        long executing = 0;
        int round = 0;
        try (FerryEngine engine = FerryEngine.start(EngineConfig.defaults().withThreads(1).withPlannerWarmup(false)
                .withSpillDirectory(null));
             Connection c = engine.connect()) {
            try (Statement s = c.createStatement()) {
                for (String ddl : TABLES) {
                    s.execute(ddl);
                }
            }
            for (; round < rounds && threads.getCurrentThreadCpuTime() - cpuStart + executing < budget.toNanos();
                    round++) {
                for (String sql : STATEMENTS) {
                    // a new text each round: the plan cache would answer the same one
                    try (PreparedStatement p = c.prepareStatement("/* warm-up " + round + " */ " + sql)) {
                        long start = System.nanoTime();
                        try (ResultSet rs = p.executeQuery()) {
                            while (rs.next()) {
                                // drained: reading the rows is part of what a user's first statement does
                            }
                        }
                        executing += System.nanoTime() - start;
                    } catch (SQLException e) {
                        failed.add(e.getSQLState() + " " + e.getMessage() + ": " + sql);
                    }
                }
            }
        }
        return round;
    }
}
