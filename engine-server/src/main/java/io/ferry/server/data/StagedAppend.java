package io.ferry.server.data;

import java.io.IOException;

import io.ferry.core.storage.Catalog;
import io.ferry.core.storage.Table;
import io.ferry.core.storage.TableAppender;
import io.ferry.core.types.TableSchema;

/**
 * How every loader makes a load all or nothing: rows are staged in a {@link TableAppender} and published by one
 * commit, so a failure anywhere leaves an existing table exactly as it was; a table the load created is dropped
 * again.
 */
public final class StagedAppend {
    /** What fills the appender; returns the rows it appended. */
    public interface Rows {
        long appendTo(TableAppender appender) throws IOException;
    }

    private StagedAppend() {
    }

    /**
     * Appends {@code rows} to {@code table}, or, when that is null, to a new table {@code name} with {@code schema}.
     * Returns the rows added.
     */
    public static long run(Catalog catalog, Table table, String name, TableSchema schema, Rows rows)
            throws IOException {
        boolean created = false;
        if (table == null) {
            table = catalog.createToFill(name, schema);
            created = true;
        }
        boolean committed = false;
        try (TableAppender appender = table.appender()) {
            long added = rows.appendTo(appender);
            appender.commit();
            committed = true;
            return added;
        } finally {
            if (!committed && created) {
                catalog.drop(table.name(), true);
            }
        }
    }
}
