package io.ferry.sql;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

import io.ferry.core.exec.QueryExecutor;
import io.ferry.core.storage.BlockStore;
import io.ferry.core.storage.Catalog;
import io.ferry.sql.jdbc.FerryDriver;
import io.ferry.sql.jdbc.PlanCache;

/**
 * An embedded Ferry engine: off-heap storage, the catalog, the executor's threads, and a JDBC URL
 * ({@code jdbc:ferry:embedded:engine=NAME}) through which Calcite plans SQL against it. Everything a local
 * node needs; the server wraps one of these and serves it over the network.
 */
public final class FerryEngine implements AutoCloseable {
    private static final Map<String, FerryEngine> ENGINES = new ConcurrentHashMap<>();
    private static final AtomicInteger IDS = new AtomicInteger();

    private final String name;
    private final EngineConfig config;
    private final BufferAllocator allocator;
    private final BufferAllocator storageAllocator;
    private final BlockStore store;
    private final Catalog catalog;
    private final QueryExecutor executor;
    private final PlanCache plans = new PlanCache();

    private FerryEngine(String name, EngineConfig config) {
        this.name = name;
        this.config = config;
        this.allocator = new RootAllocator(config.memoryLimit());
        this.storageAllocator = allocator.newChildAllocator("storage", 0, config.memoryLimit());
        this.store = new BlockStore(storageAllocator, config.blockSize(), 256L << 20);
        this.catalog = new Catalog(store);
        this.executor = new QueryExecutor(config.threads());
    }

    public static FerryEngine start(EngineConfig config) {
        FerryDriver.ensureRegistered();
        String name = "ferry" + IDS.incrementAndGet();
        FerryEngine engine = new FerryEngine(name, config);
        ENGINES.put(name, engine);
        return engine;
    }

    /** The engine registered under {@code name}, for the embedded driver. */
    public static FerryEngine lookup(String name) {
        return ENGINES.get(name);
    }

    public String name() {
        return name;
    }

    public EngineConfig config() {
        return config;
    }

    public Catalog catalog() {
        return catalog;
    }

    /** Plans of repeated queries, reused while the catalog is unchanged. */
    public PlanCache plans() {
        return plans;
    }

    public QueryExecutor executor() {
        return executor;
    }

    public BufferAllocator allocator() {
        return allocator;
    }

    public String jdbcUrl() {
        return FerryDriver.PREFIX + "engine=" + name;
    }

    public Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl(), new Properties());
    }

    /** Drops all tables and frees all memory; fails if any Arrow memory leaked. */
    @Override
    public void close() {
        ENGINES.remove(name);
        executor.close();
        catalog.clear();
        store.close();
        storageAllocator.close();
        allocator.close();
    }
}
