package io.ferry.sql.schema;

import java.util.Map;

import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;

import io.ferry.sql.FerryEngine;

/** The {@code sys} schema: what the engine tells about itself (nodes, tables, where blocks live). */
public final class SystemSchema extends AbstractSchema {
    public static final String NAME = "sys";

    private final FerryEngine engine;

    public SystemSchema(FerryEngine engine) {
        this.engine = engine;
    }

    @Override
    protected Map<String, Table> getTableMap() {
        return Map.copyOf(engine.systemTables());
    }
}
