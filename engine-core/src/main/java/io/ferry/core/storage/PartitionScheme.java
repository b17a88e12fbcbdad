package io.ferry.core.storage;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.types.Column;
import io.ferry.core.types.Physical;
import io.ferry.core.types.TableSchema;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.Fmix64;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * How a table is split into partitions by its join keys: I-Store's multiway partitioning (DPE section 3). Each key
 * names a join-key <em>domain</em> ({@code custkey}, {@code partkey}) with one hash function and a number of parts;
 * a row's partition id is the mixed-radix number of its keys' parts, the first key the most significant digit.
 * LINEORDER partitioned by custkey:4 and partkey:2 has 8 partitions, CUSTOMER by custkey:4 has 4, and a lineorder
 * row of partition (c, p) meets only the customers of partition c: every table that partitions a domain into the
 * same number of parts splits it the same way, since the domain, not the table, picks the hash function.
 *
 * <p>Hashing: murmur3's 64-bit finalizer of the value xor a seed made from the domain's name. SSB's keys are dense
 * and sequential, and plain {@code key mod n} would alias with how rows are laid out; a finalizer spreads every
 * input bit over the hash. Keys are compared as the engine stores them: an INTEGER and a BIGINT of the same value
 * land in the same part (both are longs), a DATE by its day number, a VARCHAR by its UTF-8 bytes. A NULL key joins
 * nothing and goes to part 0. DOUBLE keys are refused: equal doubles may have different bits (0.0, -0.0).
 *
 * @param keys the partitioning keys, most significant first; none for a table kept in one partition
 */
public record PartitionScheme(List<Key> keys) {
    /** One partition: what a table without join keys has. */
    public static final PartitionScheme NONE = new PartitionScheme(List.of());
    /** The most partitions a table may have. */
    public static final int MAX_PARTITIONS = 4096;

    /**
     * One digit of the partition id.
     *
     * @param column the table column holding the key
     * @param domain the join-key domain, which picks the hash function
     * @param parts  how many parts the domain is split into (1 to 1024)
     */
    public record Key(int column, String domain, int parts) {
        public Key {
            if (parts < 1 || parts > 1024) {
                throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "a partitioning key splits its domain "
                        + "into 1 to 1024 parts, not " + parts);
            }
            domain = domain.toLowerCase(Locale.ROOT);
        }

        /** The part a non-NULL integral key value falls in: the digit this key contributes to a row's partition. */
        public int partOf(long value) {
            return part(value, seed(), parts);
        }

        long seed() {
            byte[] name = domain.getBytes(StandardCharsets.UTF_8);
            long h = 0x9E37_79B9_7F4A_7C15L;
            for (byte b : name) {
                h = Fmix64.mix(h ^ (b & 0xFF));
            }
            return h;
        }
    }

    public PartitionScheme {
        keys = List.copyOf(keys);
        long product = 1;
        Set<String> domains = new HashSet<>();
        for (Key k : keys) {
            product *= k.parts();
            if (!domains.add(k.domain())) {
                throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "domain '" + k.domain() + "' is named "
                        + "twice; a table is split once per join-key domain");
            }
        }
        if (product > MAX_PARTITIONS) {
            throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "the partitioning makes " + product
                    + " partitions, more than " + MAX_PARTITIONS + "; split the domains into fewer parts");
        }
    }

    /** Whether the table is kept in one partition. */
    public boolean isNone() {
        return keys.isEmpty();
    }

    /** How many partitions the table has: the product of its keys' parts. */
    public int partitions() {
        int n = 1;
        for (Key k : keys) {
            n *= k.parts();
        }
        return n;
    }

    /**
     * Reads a scheme as {@code bin/ferry load --partition-by} and {@code WITH (partition_by = '...')} write it:
     * {@code [column=]domain:parts, ...}. Without a column, the domain's column is the one named like it
     * ({@code custkey}) or, failing that, the only one ending in {@code _domain} ({@code lo_custkey}). {@code none}
     * (what {@link #describe} writes for no partitioning) is none.
     */
    public static PartitionScheme parse(String spec, TableSchema schema) {
        if (spec == null || spec.isBlank() || spec.trim().equalsIgnoreCase("none")) {
            return NONE;
        }
        List<Key> keys = new ArrayList<>();
        for (String part : spec.split(",")) {
            String item = part.trim();
            int colon = item.lastIndexOf(':');
            if (colon < 0) {
                throw syntax(item);
            }
            String name = item.substring(0, colon).trim();
            int parts;
            try {
                parts = Integer.parseInt(item.substring(colon + 1).trim());
            } catch (NumberFormatException e) {
                throw syntax(item);
            }
            int eq = name.indexOf('=');
            String domain = (eq < 0 ? name : name.substring(eq + 1)).trim();
            if (domain.isEmpty()) {
                throw syntax(item);
            }
            int column = eq < 0 ? columnOf(domain, schema) : column(name.substring(0, eq).trim(), schema);
            Column c = schema.column(column);
            if (c.type().physical() == Physical.DOUBLE) {
                throw new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, "column '" + c.name() + "' is "
                        + c.type().sqlName() + "; partition by an integer, date, decimal or text column (equal "
                        + "doubles need not have equal bits)");
            }
            keys.add(new Key(column, domain, parts));
        }
        return new PartitionScheme(keys);
    }

    /**
     * As {@link #parse}, keeping only the keys whose domain {@code schema} has a column for: one scheme for a whole
     * star schema ({@code custkey:4,partkey:2} partitions LINEORDER by both, CUSTOMER by custkey, PART by partkey,
     * and leaves DATE whole).
     */
    public static PartitionScheme parseFor(String spec, TableSchema schema) {
        if (spec == null || spec.isBlank()) {
            return NONE;
        }
        List<String> own = new ArrayList<>();
        for (String item : spec.split(",")) {
            try {
                parse(item, schema);
                own.add(item);
            } catch (FerryException e) {
                if (!e.sqlState().equals(SqlStates.UNDEFINED_COLUMN)) {
                    throw e;
                }
            }
        }
        return parse(String.join(",", own), schema);
    }

    private static FerryException syntax(String item) {
        return new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "'" + item + "' is not a partitioning key; "
                + "write domain:parts or column=domain:parts, e.g. custkey:4,partkey:2");
    }

    private static int column(String name, TableSchema schema) {
        int i = schema.indexOf(name.toLowerCase(Locale.ROOT));
        if (i < 0) {
            throw new FerryException(SqlStates.UNDEFINED_COLUMN, "the table has no column '" + name
                    + "' to partition by; its columns: " + names(schema));
        }
        return i;
    }

    private static int columnOf(String domain, TableSchema schema) {
        String d = domain.toLowerCase(Locale.ROOT);
        int exact = schema.indexOf(d);
        if (exact >= 0) {
            return exact;
        }
        int found = -1;
        for (int i = 0; i < schema.size(); i++) {
            if (schema.column(i).name().endsWith("_" + d)) {
                if (found >= 0) {
                    throw new FerryException(SqlStates.AMBIGUOUS_COLUMN, "both '" + schema.column(found).name()
                            + "' and '" + schema.column(i).name() + "' could hold domain '" + domain + "'; name the "
                            + "column: column=" + domain + ":parts");
                }
                found = i;
            }
        }
        if (found < 0) {
            throw new FerryException(SqlStates.UNDEFINED_COLUMN, "no column holds domain '" + domain + "' (none is "
                    + "named " + d + " or *_" + d + "); name it: column=" + domain + ":parts; columns: "
                    + names(schema));
        }
        return found;
    }

    private static List<String> names(TableSchema schema) {
        return schema.columns().stream().map(Column::name).toList();
    }

    /** The key on table column {@code column}, or null when the column does not partition the table. */
    public Key keyOn(int column) {
        for (Key k : keys) {
            if (k.column() == column) {
                return k;
            }
        }
        return null;
    }

    /** The key of {@code domain}, or null when the domain does not partition the table. */
    public Key keyFor(String domain) {
        for (Key k : keys) {
            if (k.domain().equals(domain)) {
                return k;
            }
        }
        return null;
    }

    /** The part of partition {@code partition} in {@code domain}'s digit, or -1 when the domain is not a key. */
    public int digit(int partition, String domain) {
        int stride = 1;
        for (int i = keys.size() - 1; i >= 0; i--) {
            Key k = keys.get(i);
            if (k.domain().equals(domain)) {
                return (partition / stride) % k.parts();
            }
            stride *= k.parts();
        }
        return -1;
    }

    /** The scheme as {@link #parse} reads it, with every column named: {@code lo_custkey=custkey:4, ...}. */
    public String describe(TableSchema schema) {
        if (keys.isEmpty()) {
            return "none";
        }
        StringBuilder out = new StringBuilder();
        for (Key k : keys) {
            out.append(out.length() == 0 ? "" : ", ").append(schema.column(k.column()).name()).append('=')
                    .append(k.domain()).append(':').append(k.parts());
        }
        return out.toString();
    }

    /** The partition of each of the batch's rows, into {@code out} (at least {@code batch.rowCount()} long). */
    public void partitionIds(Batch batch, int[] out) {
        int n = batch.rowCount();
        java.util.Arrays.fill(out, 0, n, 0);
        Batch b = batch.materialize();
        for (Key k : keys) {
            Vector v = b.column(k.column());
            long seed = k.seed();
            int parts = k.parts();
            boolean[] nulls = v.nulls();
            if (v instanceof LongVector l) {
                long[] values = l.values();
                for (int i = 0; i < n; i++) {
                    int digit = nulls != null && nulls[i] ? 0 : part(values[i], seed, parts);
                    out[i] = out[i] * parts + digit;
                }
            } else {
                BytesVector s = (BytesVector) v;
                byte[] data = s.data();
                for (int i = 0; i < n; i++) {
                    int digit = nulls != null && nulls[i] ? 0 : part(bytesHash(data, s.start(i), s.length(i)), seed,
                            parts);
                    out[i] = out[i] * parts + digit;
                }
            }
        }
    }

    /** The part of {@code parts} a key value falls in, under the domain's {@code seed}. */
    static int part(long value, long seed, int parts) {
        return (int) Long.remainderUnsigned(Fmix64.mix(value ^ seed), parts);
    }

    private static long bytesHash(byte[] data, int from, int length) {
        long h = length;
        for (int i = 0; i < length; i++) {
            h = h * 0x100000001B3L ^ (data[from + i] & 0xFF);
        }
        return Fmix64.mix(h);
    }
}
