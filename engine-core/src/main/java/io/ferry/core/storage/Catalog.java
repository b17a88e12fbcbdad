package io.ferry.core.storage;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.types.TableSchema;
import io.ferry.core.vector.Batch;

/**
 * The tables and views of one node, by lower-case name (one namespace for both, as in SQL), the tables stored in one
 * {@link BlockStore}. With a durable {@link Persistence}, every change is recorded in its manifest before it is made
 * visible, and {@link #restore} brings the catalog back after a restart.
 */
public final class Catalog {
    private final BlockStorage store;
    private final Persistence persistence;
    private final Map<String, Table> tables = new ConcurrentSkipListMap<>();
    private final Map<String, ViewDefinition> views = new ConcurrentSkipListMap<>();
    private final AtomicLong version = new AtomicLong();
    private final AtomicLong nextTableId = new AtomicLong(1);

    /** A catalog kept in memory only. */
    public Catalog(BlockStorage store) {
        this(store, Persistence.NONE);
    }

    public Catalog(BlockStorage store, Persistence persistence) {
        this.store = store;
        this.persistence = persistence;
    }

    /** Whether the catalog's tables outlive the process (kept in a data directory). */
    public boolean durable() {
        return persistence.durable();
    }

    /** Reads back the rows of a table's data files. */
    public interface FileReader {
        /** Checks that {@code file} is whole, before any of its parts is read. */
        void check(DataFile file);

        /** Hands part {@code part} of {@code parts} of the file's rows (consecutive, in order) to {@code sink}. */
        void read(DataFile file, TableSchema schema, int part, int parts, Consumer<Batch> sink);
    }

    /**
     * Brings back the tables and views of {@code manifest} into this empty catalog, each table's rows read from its
     * files by {@code reader} (nothing is written) on {@code threads} threads ({@link CatalogRestore});
     * {@code restored} hears of each file once its rows are in. A file whose blocks outlived the process that wrote
     * them ({@link DataFile#locations()}) is adopted where its blocks are, if they all still are. Returns how many
     * files were adopted so. If a file cannot be read, the catalog is left empty and the error names the file.
     */
    public synchronized int restore(Manifest manifest, FileReader reader, int threads, Consumer<DataFile> restored) {
        if (!tables.isEmpty() || !views.isEmpty()) {
            throw new IllegalStateException("a catalog is restored before it is used");
        }
        int adopted;
        try {
            adopted = new CatalogRestore(store, reader, threads, restored).run(manifest, this::restoredTable);
            views.putAll(manifest.views());
        } catch (RuntimeException e) {
            clear();
            throw e;
        }
        version.incrementAndGet();
        return adopted;
    }

    /** A table of the manifest, empty, put in the catalog while its rows are restored. */
    private Table restoredTable(Manifest.TableEntry e) {
        Table t = new Table(e.id(), e.name(), e.schema(), e.constraints(), e.indexes(), store, persistence,
                version::incrementAndGet);
        tables.put(e.name(), t);
        t.setPartitioning(PartitionScheme.parse(e.partitionBy(), e.schema()), e.placement());
        nextTableId.accumulateAndGet(e.id() + 1, Math::max);
        return t;
    }

    public BlockStorage store() {
        return store;
    }

    /**
     * A number that changes whenever a table is created or dropped or rows are committed to one: anything
     * derived from the catalog (a cached plan, whose join order follows row counts) is current while it holds.
     */
    public long version() {
        return version.get();
    }

    public static String normalize(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    public Table create(String name, TableSchema schema, boolean ifNotExists) {
        return create(name, schema, List.of(), ifNotExists);
    }

    /** A new empty table whose writes keep {@code constraints}. */
    public Table create(String name, TableSchema schema, List<UniqueConstraint> constraints, boolean ifNotExists) {
        return create(name, schema, constraints, ifNotExists, false);
    }

    /**
     * A new empty table that the calling statement goes on to fill (CREATE TABLE AS, a load that creates its table):
     * should the process die before its rows are committed, the restarted catalog does not have it, so the statement
     * happened whole or not at all. If the statement fails, it drops the table, as it would without a data directory.
     */
    public Table createToFill(String name, TableSchema schema) {
        return create(name, schema, List.of(), false, true);
    }

    /** Marks a table made empty by a separate statement as {@link #createToFill to be filled} by the current one. */
    public synchronized void willFill(Table table) {
        if (table.rowCount() > 0) {
            throw new IllegalStateException("table '" + table.name() + "' has rows");
        }
        table.setFilling(true);
        record(table);
    }

    private synchronized Table create(String name, TableSchema schema, List<UniqueConstraint> constraints,
            boolean ifNotExists, boolean filling) {
        String key = normalize(name);
        if (views.containsKey(key)) {
            throw new FerryException(SqlStates.DUPLICATE_TABLE, "'" + key + "' is already a view; DROP VIEW it first "
                    + "or choose another name");
        }
        Table existing = tables.get(key);
        if (existing != null) {
            if (ifNotExists) {
                return existing;
            }
            throw new FerryException(SqlStates.DUPLICATE_TABLE, "table '" + key + "' already exists; "
                    + "DROP TABLE it first or use CREATE TABLE IF NOT EXISTS");
        }
        Table table = newTable(key, schema, constraints, List.of());
        table.setFilling(filling);
        Manifest.TableEntry entry = Manifest.TableEntry.of(table, List.of());
        persistence.commit(m -> m.with(entry));
        table.setAttached(true);
        tables.put(key, table);
        version.incrementAndGet();
        return table;
    }

    private Table newTable(String key, TableSchema schema, List<UniqueConstraint> constraints,
            List<ZoneMapIndex> indexes) {
        return new Table(nextTableId.getAndIncrement(), key, schema, constraints, indexes, store, persistence,
                version::incrementAndGet);
    }

    /** The table, or null. */
    public Table get(String name) {
        return tables.get(normalize(name));
    }

    public Table require(String name) {
        Table t = get(name);
        if (t == null) {
            throw new FerryException(SqlStates.UNDEFINED_TABLE, "table '" + normalize(name) + "' does not exist");
        }
        return t;
    }

    public synchronized boolean drop(String name, boolean ifExists) {
        Table t = tables.get(normalize(name));
        if (t == null) {
            if (ifExists) {
                return false;
            }
            throw new FerryException(SqlStates.UNDEFINED_TABLE, "table '" + normalize(name) + "' does not exist"
                    + (views.containsKey(normalize(name)) ? "; it is a view: use DROP VIEW"
                            : "; use DROP TABLE IF EXISTS to ignore that"));
        }
        persistence.commit(m -> m.without(t.name(), t.id()));
        tables.remove(t.name());
        persistence.release(t.drop());
        version.incrementAndGet();
        return true;
    }

    /**
     * A table that is not (yet) in the catalog: ALTER TABLE builds the altered table aside, then {@link #swap}s it
     * in. {@link #discard} it if it never goes in.
     */
    public Table detached(String name, TableSchema schema, List<UniqueConstraint> constraints,
            List<ZoneMapIndex> indexes) {
        return newTable(normalize(name), schema, constraints, indexes);
    }

    /**
     * Puts {@code next} where {@code current} is, under next's name, in one step: a statement that looks the table
     * up finds one or the other. {@code current} keeps its rows until {@link #discard}ed, so a swap can be undone.
     */
    public synchronized void swap(Table current, Table next) {
        if (tables.get(current.name()) != current) {
            throw new FerryException(SqlStates.UNDEFINED_TABLE, "table '" + current.name() + "' was dropped or "
                    + "altered meanwhile; retry");
        }
        if (!next.name().equals(current.name()) && (tables.containsKey(next.name())
                || views.containsKey(next.name()))) {
            throw new FerryException(SqlStates.DUPLICATE_TABLE, "'" + next.name() + "' is already a "
                    + (views.containsKey(next.name()) ? "view" : "table") + "; choose another name");
        }
        for (ZoneMapIndex i : next.indexes()) {
            Table holder = indexed(i.name());
            if (holder != null && holder != current) {
                throw new FerryException(SqlStates.DUPLICATE_TABLE, "index '" + i.name() + "' already exists on table '"
                        + holder.name() + "'");
            }
        }
        // a table built aside has its rows written now, and the manifest swaps the two entries in one step
        DataFile written = next.writeUnwritten();
        Manifest.TableEntry entry = Manifest.TableEntry.of(next, next.files());
        try {
            persistence.commit(m -> m.without(current.name(), current.id()).with(entry));
        } catch (RuntimeException e) {
            if (written != null) {
                persistence.release(List.of(written));
            }
            throw e;
        }
        tables.remove(current.name());
        current.setAttached(false);
        tables.put(next.name(), next);
        next.setAttached(true);
        version.incrementAndGet();
    }

    /**
     * Records {@code table}'s definition as it now is, if it is in the catalog; throws if that cannot be done. The
     * entry is made before the manifest's lock is taken: a table's monitor is never taken inside it.
     */
    private void record(Table table) {
        Manifest.TableEntry entry = Manifest.TableEntry.of(table, table.files());
        persistence.commit(m -> m.changing(table.name(), table.id(), e -> entry));
    }

    /**
     * Declares how {@code table}, which must have no rows yet, is split into partitions and where a cluster places
     * them (CREATE TABLE ... WITH (partition_by = ...), bin/ferry load --partition-by).
     */
    public synchronized void partition(Table table, PartitionScheme scheme, Placement placement) {
        if (table.rowCount() > 0) {
            throw new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, "table " + table.name() + " has rows; a table "
                    + "is partitioned when it is made: create a new one WITH (partition_by = ...) and INSERT ... "
                    + "SELECT into it");
        }
        PartitionScheme was = table.partitioning();
        Placement wasPlaced = table.placement();
        table.setPartitioning(scheme, placement);
        try {
            record(table);
        } catch (RuntimeException e) {
            table.setPartitioning(was, wasPlaced);
            throw e;
        }
        version.incrementAndGet();
    }

    /**
     * CREATE INDEX: from now on scans of {@code table} skip blocks by the zone maps of {@code column}, which every
     * block already has; nothing is read or written. False when IF NOT EXISTS finds the name taken.
     */
    public boolean createIndex(String name, String table, String column, boolean ifNotExists) {
        String key = normalize(name);
        Table t = require(table);
        int position = t.schema().indexOf(normalize(column));
        if (position < 0) {
            throw new FerryException(SqlStates.UNDEFINED_COLUMN, "table '" + t.name() + "' has no column '"
                    + normalize(column) + "'");
        }
        // The table's write lock first, the catalog's monitor second, in the order ALTER TABLE takes them: an ALTER
        // that builds the table's next version from its index list cannot miss the index.
        try (Table.WriteLock held = t.lockWrites()) {
            synchronized (this) {
                if (tables.get(t.name()) != t) {
                    throw new FerryException(SqlStates.UNDEFINED_TABLE, "table '" + t.name() + "' was dropped or "
                            + "altered meanwhile; retry");
                }
                Table holder = indexed(key);
                if (holder != null) {
                    if (ifNotExists) {
                        return false;
                    }
                    throw new FerryException(SqlStates.DUPLICATE_TABLE, "index '" + key + "' already exists on table '"
                            + holder.name() + "'; DROP INDEX it first, choose another name or use CREATE INDEX IF NOT "
                            + "EXISTS");
                }
                List<ZoneMapIndex> next = new java.util.ArrayList<>(t.indexes());
                next.add(new ZoneMapIndex(key, position));
                setIndexes(t, next);
                return true;
            }
        }
    }

    /** DROP INDEX: scans stop using the column's zone maps (the blocks keep them). False when IF EXISTS finds none. */
    public boolean dropIndex(String name, boolean ifExists) {
        String key = normalize(name);
        Table t = indexed(key);
        if (t == null) {
            if (ifExists) {
                return false;
            }
            throw new FerryException(SqlStates.UNDEFINED_OBJECT, "index '" + key + "' does not exist; use DROP INDEX "
                    + "IF EXISTS to ignore that");
        }
        try (Table.WriteLock held = t.lockWrites()) {
            synchronized (this) {
                if (tables.get(t.name()) != t || indexed(key) != t) {
                    throw new FerryException(SqlStates.UNDEFINED_OBJECT, "index '" + key + "' was dropped, or its "
                            + "table altered, meanwhile; retry");
                }
                setIndexes(t, t.indexes().stream().filter(i -> !i.name().equals(key)).toList());
                return true;
            }
        }
    }

    private void setIndexes(Table t, List<ZoneMapIndex> next) {
        List<ZoneMapIndex> was = t.indexes();
        t.setIndexes(next);
        try {
            record(t);
        } catch (RuntimeException e) {
            t.setIndexes(was);
            throw e;
        }
        version.incrementAndGet();
    }

    /** The table that has the index named {@code key} (normalized), or null. */
    private synchronized Table indexed(String key) {
        for (Table t : tables.values()) {
            for (ZoneMapIndex i : t.indexes()) {
                if (i.name().equals(key)) {
                    return t;
                }
            }
        }
        return null;
    }

    /** Frees the rows of a table that is no longer (or never was) in the catalog. */
    public void discard(Table table) {
        if (tables.get(table.name()) == table) {
            throw new IllegalStateException("table '" + table.name() + "' is in the catalog: drop it instead");
        }
        persistence.release(table.drop());
    }

    public List<Table> tables() {
        return List.copyOf(tables.values());
    }

    /** Adds a view, or replaces one of that name with {@code replace}; a table of that name is an error. */
    public synchronized void createView(ViewDefinition view, boolean replace) {
        String key = normalize(view.name());
        if (tables.containsKey(key)) {
            throw new FerryException(SqlStates.DUPLICATE_TABLE, "'" + key + "' is already a table; choose another "
                    + "name for the view");
        }
        if (!replace && views.containsKey(key)) {
            throw new FerryException(SqlStates.DUPLICATE_TABLE, "view '" + key + "' already exists; DROP VIEW it "
                    + "first or use CREATE OR REPLACE VIEW");
        }
        persistence.commit(m -> m.with(view));
        views.put(key, view);
        version.incrementAndGet();
    }

    public synchronized boolean dropView(String name, boolean ifExists) {
        String key = normalize(name);
        if (views.containsKey(key)) {
            persistence.commit(m -> m.withoutView(key));
        }
        if (views.remove(key) == null) {
            if (ifExists) {
                return false;
            }
            throw new FerryException(SqlStates.UNDEFINED_TABLE, "view '" + key + "' does not exist"
                    + (tables.containsKey(key) ? "; it is a table: use DROP TABLE" : "; use DROP VIEW IF EXISTS to "
                    + "ignore that"));
        }
        version.incrementAndGet();
        return true;
    }

    public List<ViewDefinition> views() {
        return List.copyOf(views.values());
    }

    /**
     * Frees every table and forgets every view, as the node stops: the store can then be closed with nothing live. A
     * durable catalog's manifest still holds them all, for the next start.
     */
    public synchronized void clear() {
        views.clear();
        for (Table t : List.copyOf(tables.values())) {
            tables.remove(t.name());
            t.drop();
        }
        version.incrementAndGet();
    }
}
