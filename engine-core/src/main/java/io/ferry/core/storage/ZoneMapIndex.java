package io.ferry.core.storage;

import static java.util.Objects.requireNonNull;

/**
 * An index made by CREATE INDEX: it lets scans of its table skip the blocks whose {@link ZoneMap} shows that no row
 * can pass a filter on {@code column}. Every block keeps a zone map of every column whatever the indexes; the index
 * says which columns' zone maps scans use (docs/sql.md, "Indexes").
 *
 * @param name   lower-case, unique in the catalog
 * @param column the column's position in its table's schema
 */
public record ZoneMapIndex(String name, int column) {
    public ZoneMapIndex {
        requireNonNull(name, "name is null");
        if (column < 0) {
            throw new IllegalArgumentException("column " + column);
        }
    }
}
