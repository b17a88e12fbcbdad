package io.ferry.sql.schema;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;

import io.ferry.core.storage.ZoneMapIndex;
import io.ferry.core.types.Column;
import io.ferry.core.types.FerryType;
import io.ferry.sql.FerryEngine;

/** The {@code sys} schema: what the engine tells about itself (nodes, tables, where blocks live). */
public final class SystemSchema extends AbstractSchema {
    public static final String NAME = "sys";

    private final FerryEngine engine;

    public SystemSchema(FerryEngine engine) {
        this.engine = engine;
    }

    /**
     * {@code sys.indexes}: the indexes CREATE INDEX made, one row per index (each covers one column). The SQL standard
     * has no index table in information_schema; ferry-jdbc's getIndexInfo reads this one.
     */
    public static SystemTable indexes(FerryEngine engine) {
        List<Column> columns = new ArrayList<>();
        for (String name : List.of("index_name", "table_schema", "table_name", "column_name", "index_type")) {
            columns.add(new Column(name, FerryType.VARCHAR, false));
        }
        return SystemTable.perUser(columns, reader -> {
            List<Object[]> rows = new ArrayList<>();
            for (io.ferry.core.storage.Table t : engine.catalog().tables()) {
                if (!engine.access().maySee(reader, t.name())) {
                    continue;
                }
                for (ZoneMapIndex i : t.indexes()) {
                    rows.add(new Object[] {i.name(), FerrySchema.NAME, t.name(),
                        t.schema().columns().get(i.column()).name(), "zonemap"});
                }
            }
            return rows;
        });
    }

    @Override
    protected Map<String, Table> getTableMap() {
        return Map.copyOf(engine.systemTables());
    }
}
