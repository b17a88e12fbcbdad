package io.ferry.core.storage;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.expr.CastKernels;
import io.ferry.core.types.TableSchema;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * The key values of one {@link UniqueConstraint} over a set of rows, to find a duplicate with one hash lookup per
 * row. Keys are boxed: this runs for writes to constrained tables, never in a query's scan.
 */
final class UniqueKeys {
    private final String table;
    private final TableSchema schema;
    private final UniqueConstraint constraint;
    private final Set<Key> keys = new HashSet<>();

    UniqueKeys(String table, TableSchema schema, UniqueConstraint constraint) {
        this.table = table;
        this.schema = schema;
        this.constraint = constraint;
    }

    /** The same keys, for the table under another name or with renamed columns. */
    UniqueKeys copyFor(String tableName, TableSchema tableSchema) {
        UniqueKeys copy = new UniqueKeys(tableName, tableSchema, constraint);
        copy.keys.addAll(keys);
        return copy;
    }

    /** Adds every key of {@code batch}; fails with 23505 on the first that is already here. */
    void addAll(Batch batch) {
        for (int row = 0; row < batch.rowCount(); row++) {
            Key key = key(batch, row);
            if (key != null && !keys.add(key)) {
                throw duplicate(batch, row);
            }
        }
    }

    /** Fails with 23505 if one of {@code other}'s keys is here too. */
    void checkDisjoint(UniqueKeys other) {
        Set<Key> smaller = other.keys.size() < keys.size() ? other.keys : keys;
        Set<Key> larger = smaller == keys ? other.keys : keys;
        for (Key k : smaller) {
            if (larger.contains(k)) {
                throw duplicate(k.describe(constraint, schema, table));
            }
        }
    }

    /** Adds {@code other}'s keys, known to be disjoint from these ({@link #checkDisjoint}). */
    void addDisjoint(UniqueKeys other) {
        keys.addAll(other.keys);
    }

    /** The key of {@code row}, or null if one of its columns is NULL (such a row is never a duplicate). */
    private Key key(Batch batch, int row) {
        Object[] values = new Object[constraint.columns().size()];
        for (int k = 0; k < values.length; k++) {
            Vector v = batch.column(constraint.columns().get(k));
            if (v.isNull(row)) {
                return null;
            }
            if (v instanceof LongVector l) {
                values[k] = l.get(row);
            } else if (v instanceof DoubleVector d) {
                // -0.0 and 0.0 are one value in SQL; every NaN is one value too, as in Double.equals
                values[k] = d.get(row) == 0.0 ? 0.0 : d.get(row);
            } else {
                values[k] = new BytesKey(((BytesVector) v).getBytes(row));
            }
        }
        return new Key(values);
    }

    private FerryException duplicate(Batch batch, int row) {
        return duplicate(key(batch, row).describe(constraint, schema, table));
    }

    private static FerryException duplicate(String message) {
        return new FerryException(SqlStates.UNIQUE_VIOLATION, message);
    }

    private record Key(Object[] values) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Arrays.equals(values, k.values);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(values);
        }

        /** The message for a second row with this key, its values written as SQL text. */
        String describe(UniqueConstraint constraint, TableSchema schema, String table) {
            List<String> shown = new ArrayList<>();
            for (int k = 0; k < values.length; k++) {
                Vector one = values[k] instanceof Long l ? LongVector.constant(l, 1)
                        : values[k] instanceof Double d ? new DoubleVector(new double[] {d}, null, 1)
                        : BytesVector.constant(((BytesKey) values[k]).bytes(), 1);
                shown.add(CastKernels.format(one, 0, schema.type(constraint.columns().get(k))));
            }
            return "duplicate key (" + constraint.columnNames(schema) + ")=(" + String.join(", ", shown)
                    + ") violates " + constraint.describe(schema) + " of table '" + table + "'; the statement "
                    + "changed nothing. Give the row another key, or UPDATE the row that has it";
        }
    }

    private record BytesKey(byte[] bytes) {
        @Override
        public boolean equals(Object o) {
            return o instanceof BytesKey b && Arrays.equals(bytes, b.bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }
    }
}
