package io.ferry.core.storage;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.types.TableSchema;

/** The tables of one node, by lower-case name, all stored in one {@link BlockStore}. */
public final class Catalog {
    private final BlockStorage store;
    private final Map<String, Table> tables = new ConcurrentSkipListMap<>();
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
        String key = normalize(name);
        Table table = new Table(key, schema, store, version::incrementAndGet);
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

    public boolean drop(String name, boolean ifExists) {
        Table t = tables.remove(normalize(name));
        if (t == null) {
            if (ifExists) {
                return false;
            }
            throw new FerryException(SqlStates.UNDEFINED_TABLE, "table '" + normalize(name) + "' does not exist; "
                    + "use DROP TABLE IF EXISTS to ignore that");
        }
        t.drop();
        version.incrementAndGet();
        return true;
    }

    public List<Table> tables() {
        return List.copyOf(tables.values());
    }

    /** Drops every table; the store can then be closed with nothing live. */
    public void clear() {
        for (String name : List.copyOf(tables.keySet())) {
            drop(name, true);
        }
    }
}
