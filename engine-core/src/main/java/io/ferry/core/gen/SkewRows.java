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
 * in any order and a spec always gives the same rows, loaded or selected.
 */
public record SkewRows(SkewWorkload.Spec spec, String table) implements RowGenerator {
    private static final int PAYLOADS = 1000;
    /** Far apart, odd: morsel seeds of one table never meet another table's. */
    private static final long TABLE_STRIDE = 0x9E3779B97F4A7C15L;

    public SkewRows {
        if (!SkewWorkload.TABLES.contains(table)) {
            throw new FerryException(SqlStates.UNDEFINED_TABLE, "the skew workload has tables a, b, c and d, not '"
                    + table + "'");
        }
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
        double[] cumulative = table.equals("a") ? cumulative() : null;
        PartitionScheme.Key key = cumulative == null ? null
                : new SkewWorkload(spec).partitioning("b").keys().get(0);
        long first = (long) m * MORSEL_ROWS + 1;
        long[] pk = new long[n];
        long[] payload = new long[n];
        long[] fk = new long[n];
        for (int i = 0; i < n; i++) {
            pk[i] = first + i;
            payload[i] = random.nextInt(PAYLOADS);
            fk[i] = cumulative == null ? 1 + random.nextLong(spec.innerRows())
                    : keyInPart(key, part(cumulative, random.nextDouble()), random);
        }
        return Batch.of(new LongVector(pk, null), new LongVector(payload, null), new LongVector(fk, null));
    }

    /** The distribution of a's partitions as a cumulative share per partition. */
    private double[] cumulative() {
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
    private long keyInPart(PartitionScheme.Key key, int part, SplittableRandom random) {
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
}
