package io.ferry.sql;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

import io.ferry.core.exec.QueryExecutor;
import io.ferry.core.storage.BlockStorage;
import io.ferry.core.storage.BlockStore;
import io.ferry.core.durable.DataDirectory;
import io.ferry.core.storage.Catalog;
import io.ferry.core.storage.DataFile;
import io.ferry.core.storage.Persistence;
import io.ferry.core.types.Column;
import io.ferry.core.types.FerryType;
import io.ferry.sql.access.AccessControl;
import io.ferry.sql.access.Principal;
import io.ferry.sql.jdbc.FerryDriver;
import io.ferry.sql.jdbc.PlanCache;
import io.ferry.sql.jdbc.SqlStateConnection;
import io.ferry.sql.schema.SystemSchema;
import io.ferry.sql.schema.SystemTable;

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
    private final DataDirectory dataDirectory;
    private final Catalog catalog;
    private final QueryExecutor executor;
    private final PlanCache plans = new PlanCache();
    private final QueryLog queries = new QueryLog();
    private final LongAdder spilledBytes = new LongAdder();
    private final Map<String, SystemTable> systemTables = new ConcurrentSkipListMap<>();
    private volatile QueryRunner runner;
    private volatile AccessControl access = AccessControl.open();
    private volatile FileCopies copies = FileCopies.NONE;

    private FerryEngine(String name, EngineConfig config, BlockStorage storage, Path dataPath) {
        this.name = name;
        this.config = config;
        this.allocator = new RootAllocator(config.memoryLimit());
        this.storageAllocator = allocator.newChildAllocator("storage", 0, config.memoryLimit());
        // Regions of 256 MiB, or a quarter of a small memory limit, so a small engine can still hold several regions.
        this.store = new BlockStore(storageAllocator, config.blockSize(),
                Math.min(256L << 20, Math.max(config.blockSize(), config.memoryLimit() / 4)));
        try {
            this.dataDirectory = dataPath == null ? null : DataDirectory.open(dataPath, allocator);
        } catch (RuntimeException e) {
            store.close();
            storageAllocator.close();
            allocator.close();
            throw e;
        }
        this.catalog = new Catalog(storage == null ? store : storage,
                dataDirectory == null ? Persistence.NONE : dataDirectory);
        this.executor = new QueryExecutor(config.threads());
        this.runner = (plan, ctx, session) -> executor.stream(plan, ctx);
        systemTables.put("queries", queries.table(reader -> access.isAdmin(reader)));
        systemTables.put("users", SystemTable.perUser(List.of(new Column("user_name", FerryType.VARCHAR, false),
                new Column("admin", FerryType.BOOLEAN, false)), reader -> access.users(reader).stream()
                        .map(u -> new Object[] {u.name(), u.admin()}).toList()));
        systemTables.put("grants", SystemTable.perUser(List.of(new Column("user_name", FerryType.VARCHAR, false),
                new Column("table_name", FerryType.VARCHAR, false), new Column("privilege", FerryType.VARCHAR,
                false)), reader -> access.grants(reader).stream()
                        .map(g -> new Object[] {g.user(), g.table(), g.privilege().sql()}).toList()));
        systemTables.put("indexes", SystemSchema.indexes(this));
    }

    /** A local engine: tables live in this JVM's memory. */
    public static FerryEngine start(EngineConfig config) {
        return start(config, null);
    }

    /** An engine whose tables keep their blocks in {@code storage} (a cluster's memory servers), or locally if null. */
    public static FerryEngine start(EngineConfig config, BlockStorage storage) {
        return start(config, storage, null);
    }

    /**
     * As {@link #start(EngineConfig, BlockStorage)}, the tables also kept in the data directory {@code dataPath}
     * (made if need be, and locked while the engine runs), unless null; {@link #restore} brings back what it holds.
     * A cluster's coordinator keeps one too: its tables' blocks are in the memory servers' memory, their rows and
     * where the blocks are in its directory.
     */
    public static FerryEngine start(EngineConfig config, BlockStorage storage, Path dataPath) {
        FerryDriver.ensureRegistered();
        String name = "ferry" + IDS.incrementAndGet();
        FerryEngine engine = new FerryEngine(name, config, storage, dataPath);
        ENGINES.put(name, engine);
        if (config.plannerWarmup()) {
            PlannerWarmup.startOnce();
        }
        return engine;
    }

    /** The data directory the engine keeps its tables in, or null when they live in memory only. */
    public DataDirectory dataDirectory() {
        return dataDirectory;
    }

    /**
     * Loads the tables and views of the data directory into the (empty) catalog; {@code progress} hears of each
     * data file once its rows are in. Does nothing for an engine without a data directory. Returns how many data
     * files' blocks were adopted where an earlier process left them ({@link io.ferry.core.storage.BlockStorage#adopt})
     * instead of read from disk.
     */
    public int restore(Consumer<DataFile> progress) {
        return dataDirectory == null ? 0 : dataDirectory.restore(catalog, config.threads(), progress);
    }

    /** Replaces how statements run (a coordinator runs them across its cluster). */
    public void setRunner(QueryRunner runner) {
        this.runner = java.util.Objects.requireNonNull(runner, "runner is null");
    }

    public QueryRunner runner() {
        return runner;
    }

    /** Users, grants and the checks statements pass; open (no authentication) unless a server sets a users file. */
    public AccessControl access() {
        return access;
    }

    public void setAccess(AccessControl access) {
        this.access = java.util.Objects.requireNonNull(access, "access is null");
    }

    /** What runs COPY: none in an embedded engine; a server sets the files it may touch and the formats. */
    public FileCopies copies() {
        return copies;
    }

    public void setCopies(FileCopies copies) {
        this.copies = java.util.Objects.requireNonNull(copies, "copies is null");
    }

    /** Bytes this engine's queries wrote to disk when they spilled, since it started (its metrics). */
    public LongAdder spilledBytes() {
        return spilledBytes;
    }

    /** The statements run lately ({@code sys.queries}). */
    public QueryLog queries() {
        return queries;
    }

    /** The tables of the {@code sys} schema, by name: {@code queries}, and those a node adds. */
    public Map<String, SystemTable> systemTables() {
        return systemTables;
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

    /**
     * Bytes of the blocks this JVM's store holds: its tables', and those of dropped or rewritten table versions a
     * running query or an open result still reads.
     */
    public long storedBytes() {
        return store.liveBytes();
    }

    public String jdbcUrl() {
        return FerryDriver.PREFIX + "engine=" + name;
    }

    /** An embedded connection, whose errors carry SQLSTATEs as over the JDBC server ({@link SqlStateConnection}). */
    public Connection connect() throws SQLException {
        return connect(Principal.owner());
    }

    /** As {@link #connect()}, running its statements as {@code who}: with their grants, not the owner's rights. */
    public Connection connect(Principal who) throws SQLException {
        Properties p = new Properties();
        if (!who.isOwner()) {
            p.setProperty(FerryDriver.USER_PROPERTY, who.user());
            p.setProperty(FerryDriver.GENERATION_PROPERTY, Long.toString(who.generation()));
        }
        return SqlStateConnection.wrap(DriverManager.getConnection(jdbcUrl(), p));
    }

    /** Drops all tables and frees all memory; fails if any Arrow memory leaked. */
    @Override
    public void close() {
        ENGINES.remove(name);
        executor.close();
        catalog.clear();
        store.close();
        if (dataDirectory != null) {
            dataDirectory.close();
        }
        storageAllocator.close();
        allocator.close();
    }
}
