package io.ferry.sql.jdbc;

import java.lang.reflect.Type;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.jdbc.CalciteSchema;

import io.ferry.sql.access.TableAccess;

/**
 * Plans of queries a connection already prepared, reused while the catalog has not changed since.
 *
 * <p>Calcite spends 5–30 ms parsing, validating and optimizing a statement (a five-way star join takes the
 * longest), as long as Ferry then takes to run it. Dashboards send the same SQL text again and again, so a plan is
 * kept under its text, the connection's settings (Calcite's, and the session's {@code SET} values, which EXPLAIN
 * reports on) and the {@link io.ferry.core.storage.Catalog#version() catalog version}. Any CREATE, DROP or committed INSERT or load changes the version, and the next execution plans anew
 * (join order follows row counts, so new rows are a reason to replan). A cached plan gives exactly the answer a new
 * plan would: scans take their table snapshot when they run, and samples without REPEATABLE draw their seed then.
 *
 * <p>Entries belong to one connection (its root schema), because a plan refers to that connection's schema
 * objects; {@link FerryDriver} drops a connection's entries when it closes. Only queries are cached: DDL runs while
 * it is being prepared, and DML is cheap to plan next to the write it does.
 */
public final class PlanCache {
    private static final int CAPACITY = 512;

    /** What a plan depends on besides the catalog. */
    record Key(CalciteSchema connection, String sql, List<String> schemaPath, long maxRowCount, Type elementType,
            String settings, String session, long catalogVersion) {
    }

    /**
     * A plan, the privileges it needs (checked each time it runs), and the row-engine operators in it
     * ({@link io.ferry.sql.rel.RowEngineOperators}), or null.
     */
    record Planned<T>(CalcitePrepare.CalciteSignature<T> plan, TableAccess access, String rowEngine) {
    }

    private final Map<Key, Planned<?>> plans = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, Planned<?>> eldest) {
            return size() > CAPACITY;
        }
    };
    private final AtomicLong hits = new AtomicLong();
    private final AtomicLong misses = new AtomicLong();

    static Key key(CalcitePrepare.Context context, String sql, Type elementType, long maxRowCount, long catalogVersion,
            String session) {
        CalciteConnectionConfig c = context.config();
        String settings = c.caseSensitive() + "," + c.unquotedCasing() + "," + c.quotedCasing() + "," + c.quoting()
                + "," + c.conformance() + "," + c.timeZone() + "," + c.lex();
        return new Key(context.getMutableRootSchema(), sql, List.copyOf(context.getDefaultSchemaPath()), maxRowCount,
                elementType, settings, session, catalogVersion);
    }

    @SuppressWarnings("unchecked")
    synchronized <T> Planned<T> get(Key key) {
        Planned<?> plan = plans.get(key);
        (plan == null ? misses : hits).incrementAndGet();
        return (Planned<T>) plan;
    }

    synchronized void put(Key key, Planned<?> plan) {
        plans.put(key, plan);
    }

    /** Drops every plan of the connection whose root schema is {@code connection}. */
    synchronized void forget(CalciteSchema connection) {
        plans.keySet().removeIf(k -> k.connection() == connection);
    }

    public synchronized int size() {
        return plans.size();
    }

    /** Executions that reused a plan. */
    public long hits() {
        return hits.get();
    }

    /** Executions that had to plan. */
    public long misses() {
        return misses.get();
    }
}
