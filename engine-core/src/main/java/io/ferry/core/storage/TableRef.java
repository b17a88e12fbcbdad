package io.ferry.core.storage;

import static java.util.Objects.requireNonNull;

import io.ferry.core.types.TableSchema;

/** A table named by a plan that arrived from another node: only its name and schema travel with the plan. */
public record TableRef(String name, TableSchema schema) implements TableHandle {
    public TableRef {
        requireNonNull(name, "name is null");
        requireNonNull(schema, "schema is null");
    }
}
