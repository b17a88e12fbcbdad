package io.ferry.core.types;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/** The ordered columns of a table. Column names are stored lower-case: unquoted SQL names are case-insensitive. */
public record TableSchema(List<Column> columns) {
    public TableSchema {
        columns = List.copyOf(columns);
        var seen = new java.util.HashSet<String>();
        for (Column c : columns) {
            if (!seen.add(c.name().toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException("duplicate column name '" + c.name() + "'");
            }
        }
    }

    public static TableSchema of(Column... columns) {
        return new TableSchema(List.of(columns));
    }

    public int size() {
        return columns.size();
    }

    public Column column(int i) {
        return columns.get(i);
    }

    public FerryType type(int i) {
        return columns.get(i).type();
    }

    /** Index of the column named {@code name} (case-insensitive), or -1. */
    public int indexOf(String name) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    public List<FerryType> types() {
        List<FerryType> types = new ArrayList<>(columns.size());
        for (Column c : columns) {
            types.add(c.type());
        }
        return types;
    }

    public Schema toArrow() {
        List<Field> fields = new ArrayList<>(columns.size());
        for (Column c : columns) {
            fields.add(new Field(c.name(), new FieldType(c.nullable(), c.type().arrowType(), null), null));
        }
        return new Schema(fields);
    }

    /** The column list of a CREATE TABLE: {@code a BIGINT NOT NULL, b VARCHAR}. */
    public String columnDefinitions() {
        List<String> defs = new java.util.ArrayList<>(columns.size());
        for (Column c : columns) {
            defs.add(c.name() + " " + c.type().sqlName() + (c.nullable() ? "" : " NOT NULL"));
        }
        return String.join(", ", defs);
    }
}
