package io.ferry.core.gen;

import java.util.List;
import java.util.Locale;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.storage.PartitionScheme;
import io.ferry.core.storage.Placement;
import io.ferry.core.types.Column;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TableSchema;

/**
 * The workload of the I-Store skew paper (section 4): four tables {@code a, b, c, d} of {@code (pk, payload, fk)}
 * rows — three BIGINTs, 24 bytes — chained by foreign keys ({@code a.fk → b.pk}, {@code b.fk → c.pk},
 * {@code c.fk → d.pk}), {@code a} and {@code b} co-partitioned by that join key (the shared-nothing baseline's
 * layout) into {@code partitions} parts. The partition key of {@code a} follows a uniform distribution (every
 * partition the same size, up to sampling) or a Zipf distribution with parameter {@code z} (partition p holds a
 * share ∝ 1/(p+1)^z: one dominates). Payloads are uniform in [0, 1000), so {@code payload < x} selects x‰ of a
 * table. The paper's query is {@link #QUERY}. Rows are drawn from a seeded generator: the same spec gives the same
 * tables.
 */
public final class SkewWorkload {
    /** The tables, in load order. */
    public static final List<String> TABLES = List.of("a", "b", "c", "d");
    /** The join key domain of a and b: a's partition is the part of its fk, b's the part of its pk. */
    public static final String DOMAIN = "bkey";
    /** A ⋈ σB ⋈ σC ⋈ σD, each selection keeping a tenth of its table. */
    public static final String QUERY = query("");

    /** {@link #QUERY} over the tables of {@code prefix}. */
    public static String query(String prefix) {
        return String.format(Locale.ROOT, "SELECT COUNT(*), SUM(a.payload) FROM %1$sa a JOIN %1$sb b ON a.fk = b.pk "
                + "JOIN %1$sc c ON b.fk = c.pk JOIN %1$sd d ON c.fk = d.pk WHERE b.payload < 100 AND c.payload < 100 "
                + "AND d.payload < 100", prefix);
    }

    /** How a's partition key is distributed. */
    public enum Distribution {
        UNIFORM, ZIPF
    }

    /**
     * @param rows         rows of a
     * @param innerRows    rows of b, c and d (the paper: as many as a)
     * @param distribution of a's partition key
     * @param z            the Zipf parameter (the paper: 1.25); ignored for uniform
     * @param partitions   parts a and b are split into
     * @param placement    where a cluster puts the partitions: partition p on memory server p mod M (the
     *                     shared-nothing layout), or round-robin over all of them (NAM-partitioning)
     * @param seed         of the row generator
     */
    public record Spec(long rows, long innerRows, Distribution distribution, double z, int partitions,
            Placement placement, long seed, String prefix) {
        public Spec {
            if (innerRows < 1 || innerRows > rows) {
                throw bad("inner must be between 1 and rows, got " + innerRows);
            }
            if (!prefix.matches("[a-z0-9_]{0,32}")) {
                throw bad("prefix must be up to 32 lower-case letters, digits or _, got '" + prefix + "'");
            }
            if (rows < 1 || rows > 2_000_000_000L) {
                throw bad("rows must be between 1 and 2,000,000,000, got " + rows);
            }
            if (partitions < 1 || partitions > PartitionScheme.MAX_PARTITIONS) {
                throw bad("partitions must be between 1 and " + PartitionScheme.MAX_PARTITIONS + ", got " + partitions);
            }
            if (!(z > 0 && z <= 10)) {
                throw bad("z must be above 0 and at most 10, got " + z);
            }
        }

        /**
         * Reads {@code rows=N,inner=M,distribution=uniform|zipf,z=1.25,partitions=P,placement=partition|nam,seed=S,
         * prefix=X}; every item but rows may be left out (inner = rows, zipf, 1.25, 4, partition, 1, none). A
         * prefix names the tables {@code Xa, Xb, Xc, Xd}, so several datasets can be loaded side by side.
         */
        public static Spec parse(String spec) {
            return parse(spec, true);
        }

        /**
         * The same items but placement and prefix, which belong to a load: the rows of table function
         * {@code skew_workload} are placed and named by the statement that stores them.
         */
        public static Spec parseRows(String spec) {
            return parse(spec, false);
        }

        private static Spec parse(String spec, boolean load) {
            long rows = -1;
            long inner = -1;
            Distribution distribution = Distribution.ZIPF;
            double z = 1.25;
            int partitions = 4;
            Placement placement = Placement.PARTITION;
            long seed = 1;
            String prefix = "";
            for (String item : spec.split(",")) {
                if (item.isBlank()) {
                    continue;
                }
                String[] kv = item.trim().split("=", 2);
                if (kv.length != 2) {
                    throw bad("'" + item.trim() + "' is not name=value");
                }
                String v = kv[1].trim();
                try {
                    switch (kv[0].trim().toLowerCase(Locale.ROOT)) {
                        case "rows" -> rows = Long.parseLong(v.replace("_", ""));
                        case "inner" -> inner = Long.parseLong(v.replace("_", ""));
                        case "distribution" -> distribution = Distribution.valueOf(v.toUpperCase(Locale.ROOT));
                        case "z" -> z = Double.parseDouble(v);
                        case "partitions" -> partitions = Integer.parseInt(v);
                        case "seed" -> seed = Long.parseLong(v);
                        case "placement" -> placement = Placement.named(load ? v : loadOnly(kv[0]));
                        case "prefix" -> prefix = (load ? v : loadOnly(kv[0])).toLowerCase(Locale.ROOT);
                        default -> throw bad("unknown item '" + kv[0].trim() + "'");
                    }
                } catch (IllegalArgumentException e) { // a number or distribution that does not parse
                    throw bad("'" + v + "' is not a value of " + kv[0].trim());
                }
            }
            if (rows < 0) {
                throw bad("rows is missing");
            }
            return new Spec(rows, inner < 0 ? rows : inner, distribution, z, partitions, placement, seed, prefix);
        }

        private static String loadOnly(String item) {
            throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "skew_workload: '" + item.trim() + "' "
                    + "belongs to bin/ferry load --generate skew; the table function's rows are named and placed by "
                    + "the statement that stores them, e.g. CREATE TABLE a WITH (partition_by = 'fk=bkey:4', "
                    + "placement = 'nam') AS SELECT * FROM skew_workload('a', 'rows=1000000')");
        }

        private static FerryException bad(String what) {
            return new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "skew workload: " + what + "; write e.g. "
                    + "rows=1000000,distribution=zipf,z=1.25,partitions=4,placement=partition,seed=1,prefix=z_");
        }
    }

    private final Spec spec;

    public SkewWorkload(Spec spec) {
        this.spec = spec;
    }

    public static TableSchema schema() {
        return new TableSchema(List.of(new Column("pk", FerryType.BIGINT, false),
                new Column("payload", FerryType.BIGINT, false), new Column("fk", FerryType.BIGINT, false)));
    }

    /** How {@code table} is partitioned: a by fk and b by pk in {@link #DOMAIN}, c and d not at all. */
    public PartitionScheme partitioning(String table) {
        return switch (table) {
            case "a" -> PartitionScheme.parse("fk=" + DOMAIN + ":" + spec.partitions(), schema());
            case "b" -> PartitionScheme.parse("pk=" + DOMAIN + ":" + spec.partitions(), schema());
            case "c", "d" -> PartitionScheme.NONE;
            default -> throw new FerryException(SqlStates.UNDEFINED_TABLE, "the skew workload has tables a, b, c "
                    + "and d, not '" + table + "'");
        };
    }

    /** The rows of {@code table}: a, b, c or d. */
    public SkewRows rows(String table) {
        return new SkewRows(spec, table);
    }

    public Spec spec() {
        return spec;
    }
}
