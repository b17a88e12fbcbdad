package io.ferry.core.storage;

import static java.util.Objects.requireNonNull;

import io.ferry.core.types.TableSchema;

/**
 * A view: its query's text and the columns it gives, as found when it was created. The query is expanded afresh
 * wherever the view is used, so it sees the tables as they are then.
 */
public record ViewDefinition(String name, String sql, TableSchema schema) {
    public ViewDefinition {
        requireNonNull(name, "name is null");
        requireNonNull(sql, "sql is null");
        requireNonNull(schema, "schema is null");
    }
}
