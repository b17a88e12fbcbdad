package io.ferry.core.storage;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.types.TableSchema;

/**
 * The tables and views of one node, by lower-case name (one namespace for both, as in SQL), the tables stored in one
 * {@link BlockStore}.
 */
public final class Catalog {
    private final BlockStorage store;
    private final Map<String, Table> tables = new ConcurrentSkipListMap<>();
    private final Map<String, ViewDefinition> views = new ConcurrentSkipListMap<>();
    private final AtomicLong version = new AtomicLong();

    public Catalog(BlockStorage store) {
        this.store = store;
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
    public synchronized Table create(String name, TableSchema schema, List<UniqueConstraint> constraints,
            boolean ifNotExists) {
        String key = normalize(name);
        if (views.containsKey(key)) {
            throw new FerryException(SqlStates.DUPLICATE_TABLE, "'" + key + "' is already a view; DROP VIEW it first "
                    + "or choose another name");
        }
        Table table = new Table(key, schema, constraints, List.of(), store, version::incrementAndGet);
        Table existing = tables.putIfAbsent(key, table);
        if (existing != null) {
            if (ifNotExists) {
                return existing;
            }
            throw new FerryException(SqlStates.DUPLICATE_TABLE, "table '" + key + "' already exists; "
                    + "DROP TABLE it first or use CREATE TABLE IF NOT EXISTS");
        }
        version.incrementAndGet();
        return table;
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
        Table t = tables.remove(normalize(name));
        if (t == null) {
            if (ifExists) {
                return false;
            }
            throw new FerryException(SqlStates.UNDEFINED_TABLE, "table '" + normalize(name) + "' does not exist"
                    + (views.containsKey(normalize(name)) ? "; it is a view: use DROP VIEW"
                            : "; use DROP TABLE IF EXISTS to ignore that"));
        }
        t.drop();
        version.incrementAndGet();
        return true;
    }

    /**
     * A table that is not (yet) in the catalog: ALTER TABLE builds the altered table aside, then {@link #swap}s it
     * in. {@link #discard} it if it never goes in.
     */
    public Table detached(String name, TableSchema schema, List<UniqueConstraint> constraints,
            List<ZoneMapIndex> indexes) {
        return new Table(normalize(name), schema, constraints, indexes, store, version::incrementAndGet);
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
        tables.remove(current.name());
        tables.put(next.name(), next);
        version.incrementAndGet();
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
        table.setPartitioning(scheme, placement);
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
                t.setIndexes(next);
                version.incrementAndGet();
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
                t.setIndexes(t.indexes().stream().filter(i -> !i.name().equals(key)).toList());
                version.incrementAndGet();
                return true;
            }
        }
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
        table.drop();
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
        views.put(key, view);
        version.incrementAndGet();
    }

    public synchronized boolean dropView(String name, boolean ifExists) {
        String key = normalize(name);
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

    /** Drops every table and view; the store can then be closed with nothing live. */
    public void clear() {
        views.clear();
        for (String name : List.copyOf(tables.keySet())) {
            drop(name, true);
        }
    }
}
