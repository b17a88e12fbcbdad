package io.ferry.core.gen;

import java.util.List;
import java.util.SplittableRandom;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.storage.PartitionScheme;
import io.ferry.core.types.Column;
import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.LongVector;

/**
 * The rows of one table of {@link SkewWorkload}: row i has {@code pk = i + 1}, a payload uniform in [0, 1000) and a
 * foreign key into the next table — for a, a key of b in the partition drawn from the spec's distribution. Each
 * morsel draws from a generator seeded by the spec's seed, the table and the morsel's number, so morsels are made
 * in any order and a spec always gives the same rows, loaded or selected. What every morsel shares — a's
 * cumulative partition shares and b's partition key — is made once, here. Equal by spec and table.
 */
public final class SkewRows implements RowGenerator {
    private static final int PAYLOADS = 1000;
    /** Far apart, odd: morsel seeds of one table never meet another table's. */
    private static final long TABLE_STRIDE = 0x9E3779B97F4A7C15L;

    private final SkewWorkload.Spec spec;
    private final String table;
    /** For a: the cumulative share of each partition, and the key whose parts the partitions are; else null. */
    private final double[] cumulative;
    private final PartitionScheme.Key key;

    public SkewRows(SkewWorkload.Spec spec, String table) {
        SkewWorkload workload = new SkewWorkload(spec);
        workload.partitioning(table); // refuses a table the workload does not have
        this.spec = spec;
        this.table = table;
        this.cumulative = table.equals("a") ? cumulative(spec) : null;
        this.key = table.equals("a") ? workload.partitioning("b").keys().get(0) : null;
    }

    public SkewWorkload.Spec spec() {
        return spec;
    }

    public String table() {
        return table;
    }

    @Override
    public List<String> names() {
        return SkewWorkload.schema().columns().stream().map(Column::name).toList();
    }

    @Override
    public List<FerryType> types() {
        return SkewWorkload.schema().columns().stream().map(Column::type).toList();
    }

    @Override
    public long rows() {
        return table.equals("a") ? spec.rows() : spec.innerRows();
    }

    @Override
    public Batch morsel(int m) {
        int n = morselRows(m);
        long seed = (spec.seed() * 31 + SkewWorkload.TABLES.indexOf(table)) * TABLE_STRIDE + m;
        SplittableRandom random = new SplittableRandom(seed);
        long first = (long) m * MORSEL_ROWS + 1;
        long[] pk = new long[n];
        long[] payload = new long[n];
        long[] fk = new long[n];
        for (int i = 0; i < n; i++) {
            pk[i] = first + i;
            payload[i] = random.nextInt(PAYLOADS);
            fk[i] = cumulative == null ? 1 + random.nextLong(spec.innerRows())
                    : keyInPart(part(cumulative, random.nextDouble()), random);
        }
        return Batch.of(new LongVector(pk, null), new LongVector(payload, null), new LongVector(fk, null));
    }

    /** The distribution of a's partitions as a cumulative share per partition. */
    private static double[] cumulative(SkewWorkload.Spec spec) {
        int n = spec.partitions();
        double[] out = new double[n];
        double sum = 0;
        for (int p = 0; p < n; p++) {
            sum += spec.distribution() == SkewWorkload.Distribution.UNIFORM ? 1 : 1 / Math.pow(p + 1, spec.z());
            out[p] = sum;
        }
        for (int p = 0; p < n; p++) {
            out[p] /= sum;
        }
        return out;
    }

    private static int part(double[] cumulative, double u) {
        int lo = 0;
        int hi = cumulative.length - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (cumulative[mid] < u) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** A key of b (in 1..inner rows) that falls in part {@code part} of the domain: drawn until one does. */
    private long keyInPart(int part, SplittableRandom random) {
        for (int tries = 0; tries < 1_000_000; tries++) {
            long k = 1 + random.nextLong(spec.innerRows());
            if (key.partOf(k) == part) {
                return k;
            }
        }
        throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "skew workload: no key of b in 1.."
                + spec.innerRows() + " falls in partition " + part + " of " + spec.partitions() + "; use fewer "
                + "partitions or more rows");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SkewRows r && r.spec.equals(spec) && r.table.equals(table);
    }

    @Override
    public int hashCode() {
        return spec.hashCode() * 31 + table.hashCode();
    }

    @Override
    public String toString() {
        return "skew_workload('" + table + "', " + spec + ")";
    }
}
