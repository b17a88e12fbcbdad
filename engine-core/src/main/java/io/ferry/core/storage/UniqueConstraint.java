package io.ferry.core.storage;

import java.util.List;
import java.util.stream.Collectors;

import io.ferry.core.types.TableSchema;

/**
 * A PRIMARY KEY or UNIQUE constraint: no two rows of the table agree on every one of {@code columns} (positions in
 * the table's schema). As in the SQL standard and PostgreSQL, a row with a NULL in any of them is never a duplicate;
 * a primary key's columns are NOT NULL besides.
 */
public record UniqueConstraint(String name, boolean primaryKey, List<Integer> columns) {
    public UniqueConstraint {
        columns = List.copyOf(columns);
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("a unique constraint needs at least one column");
        }
    }

    /** {@code PRIMARY KEY (a, b)} or {@code UNIQUE (a)}, with the columns named as in {@code schema}. */
    public String describe(TableSchema schema) {
        return (primaryKey ? "PRIMARY KEY (" : "UNIQUE (") + columnNames(schema) + ")";
    }

    public String columnNames(TableSchema schema) {
        return columns.stream().map(c -> schema.column(c).name()).collect(Collectors.joining(", "));
    }
}
