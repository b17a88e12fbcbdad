package io.ferry.core.types;

import static java.util.Objects.requireNonNull;

/** A named, typed column of a table or of an intermediate result. */
public record Column(String name, FerryType type, boolean nullable) {
    public Column {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
    }
}
