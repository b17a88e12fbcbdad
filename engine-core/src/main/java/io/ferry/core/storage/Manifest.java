package io.ferry.core.storage;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.types.TableSchema;

/**
 * What a catalog holds, as a data directory records it: every table's definition and files, every view. A value:
 * each change makes a new one, which becomes durable whole or not at all (docs/storage.md).
 *
 * @param generation counts the manifests written, so a newer one is told from an older
 * @param tables     by name
 * @param views      by name
 */
public record Manifest(long generation, Map<String, TableEntry> tables, Map<String, ViewDefinition> views) {
    public static final Manifest EMPTY = new Manifest(0, Map.of(), Map.of());

    public Manifest {
        tables = unmodifiable(tables);
        views = unmodifiable(views);
    }

    private static <V> Map<String, V> unmodifiable(Map<String, V> m) {
        return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(m));
    }

    /**
     * A table as recorded: its identity (a table recreated under the same name is another table), definition and
     * files.
     *
     * @param partitionBy its partitioning as {@link PartitionScheme#describe} writes it ("none" for none)
     * @param filling     made by a statement that fills it (CREATE TABLE AS, a load) and not yet filled: a restart
     *                    drops it, so that statement's table is there whole or not at all
     */
    public record TableEntry(long id, String name, TableSchema schema, List<UniqueConstraint> constraints,
            List<ZoneMapIndex> indexes, String partitionBy, Placement placement, List<DataFile> files,
            boolean filling) {
        public TableEntry {
            requireNonNull(name, "name is null");
            requireNonNull(schema, "schema is null");
            constraints = List.copyOf(constraints);
            indexes = List.copyOf(indexes);
            requireNonNull(partitionBy, "partitionBy is null");
            requireNonNull(placement, "placement is null");
            files = List.copyOf(files);
        }

        /** {@code table}'s definition, with {@code files} its rows. */
        public static TableEntry of(Table table, List<DataFile> files) {
            return new TableEntry(table.id(), table.name(), table.schema(), table.constraints(), table.indexes(),
                    table.partitioning().describe(table.schema()), table.placement(), files, table.filling());
        }
    }

    /** The bytes of every table's files: what a restore reads. */
    public long bytes() {
        long n = 0;
        for (TableEntry t : tables.values()) {
            n += DataFile.bytes(t.files());
        }
        return n;
    }

    /** With {@code entry} under its name, in place of whatever was there. */
    public Manifest with(TableEntry entry) {
        Map<String, TableEntry> next = new LinkedHashMap<>(tables);
        next.put(entry.name(), entry);
        return new Manifest(generation, next, views);
    }

    /** Without the table named {@code name}, if it is table {@code id}. */
    public Manifest without(String name, long id) {
        TableEntry e = tables.get(name);
        if (e == null || e.id() != id) {
            return this;
        }
        Map<String, TableEntry> next = new LinkedHashMap<>(tables);
        next.remove(name);
        return new Manifest(generation, next, views);
    }

    /** With table {@code id}, named {@code name}, holding {@code files} (and so filled); fails if it is gone. */
    public Manifest withFiles(String name, long id, List<DataFile> files) {
        TableEntry e = tables.get(name);
        if (e == null || e.id() != id) {
            throw new FerryException(SqlStates.UNDEFINED_TABLE, "table '" + name + "' was dropped while it was being "
                    + "changed");
        }
        return with(new TableEntry(e.id(), e.name(), e.schema(), e.constraints(), e.indexes(), e.partitionBy(),
                e.placement(), files, false));
    }

    /** Applies {@code change} to table {@code name}'s entry, if there is one; this manifest if nothing changes. */
    public Manifest changing(String name, long id, UnaryOperator<TableEntry> change) {
        TableEntry e = tables.get(name);
        if (e == null || e.id() != id) {
            return this;
        }
        TableEntry next = change.apply(e);
        return next.equals(e) ? this : with(next);
    }

    public Manifest with(ViewDefinition view) {
        Map<String, ViewDefinition> next = new LinkedHashMap<>(views);
        next.put(view.name(), view);
        return new Manifest(generation, tables, next);
    }

    public Manifest withoutView(String name) {
        Map<String, ViewDefinition> next = new LinkedHashMap<>(views);
        next.remove(name);
        return new Manifest(generation, tables, next);
    }

    /** The next generation of this manifest. */
    public Manifest next() {
        return new Manifest(generation + 1, tables, views);
    }

    /** The names of every file the tables hold. */
    public List<String> fileNames() {
        List<String> names = new ArrayList<>();
        for (TableEntry t : tables.values()) {
            for (DataFile f : t.files()) {
                names.add(f.name());
            }
        }
        return names;
    }
}
