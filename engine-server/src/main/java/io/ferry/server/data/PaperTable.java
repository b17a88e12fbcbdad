package io.ferry.server.data;

import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.storage.Catalog;
import io.ferry.core.storage.Table;
import io.ferry.core.storage.TableAppender;
import io.ferry.core.types.Column;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TableSchema;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * The ship-or-not paper's table R (section III): two long attributes, {@code a} the primary key from 1 to the
 * cardinality and {@code b} with a chosen number of distinct values, queried as
 * {@code SELECT b, COUNT(*) FROM r GROUP BY b}. The result has one row per distinct b, so that one knob sets the
 * result size and with it the better shipping mode (figure 1 sweeps it from 10^3 to 10^9).
 *
 * <p>Row i (0-based) holds {@code a = i + 1} and {@code b = (i * step) mod D}, where D is the requested number of
 * distinct values and {@code step} is the integer nearest to {@code D * (sqrt(5) - 1) / 2} that is coprime to D. As
 * multiplication by a unit of Z/D, {@code i -> b} is a bijection on every run of D consecutive rows, so b takes
 * exactly {@code min(N, D)} distinct values in [0, D), each {@code floor(N / D)} or {@code ceil(N / D)} times —
 * the same uniform histogram as {@code a mod D} — but neighbouring rows land far apart in the key space (a Weyl
 * sequence), as they would in real data, instead of walking a hash table in order. The data is a pure function of
 * (N, D).
 */
public final class PaperTable {
    public static final TableSchema SCHEMA = TableSchema.of(
            new Column("a", FerryType.BIGINT, false),
            new Column("b", FerryType.BIGINT, false));

    /** b is computed with additions below 2·D, which must not overflow. */
    public static final long MAX_DISTINCT = 1L << 62;

    private PaperTable() {
    }

    /** Creates table {@code name} and fills it with {@code rows} rows whose b has {@code distinct} values. */
    public static Table load(Catalog catalog, String name, long rows, long distinct, ProgressListener progress) {
        checkArguments(rows, distinct);
        Table table = catalog.createToFill(name, SCHEMA);
        boolean committed = false;
        try (TableAppender appender = table.appender()) {
            generate(rows, distinct, appender::append, progress, "load " + table.name());
            appender.commit();
            committed = true;
        } finally {
            if (!committed) {
                catalog.drop(table.name(), true);
            }
        }
        return table;
    }

    /** Writes the table to a CSV file with a header line. */
    public static void writeCsv(Path file, long rows, long distinct, ProgressListener progress) throws IOException {
        checkArguments(rows, distinct);
        try (CsvExporter csv = CsvExporter.open(file, SCHEMA)) {
            generate(rows, distinct, csv::write, progress, "write " + file.getFileName());
        }
    }

    /** Hands the rows to {@code sink} in order, as batches of at most {@link Vector#MAX_ROWS} rows. */
    public static void generate(long rows, long distinct, Consumer<Batch> sink, ProgressListener progress) {
        checkArguments(rows, distinct);
        generate(rows, distinct, sink, progress, "generate r");
    }

    /** The Weyl step for {@code distinct} values: near D over the golden ratio, and coprime to D. */
    public static long step(long distinct) {
        if (distinct == 1) {
            return 0;
        }
        long step = Math.max(1, Math.round(distinct * 0.6180339887498949));
        while (gcd(step, distinct) != 1) {
            step++;
        }
        return step;
    }

    private static void generate(long rows, long distinct, Consumer<Batch> sink, ProgressListener progress,
            String task) {
        long step = step(distinct);
        // b advances by step modulo D; written as a compare and one subtraction so it cannot overflow.
        long wrap = distinct - step;
        long a = 1;
        long b = 0;
        progress.start(task, rows, ProgressListener.Unit.ROWS);
        try {
            while (a <= rows) {
                int n = (int) Math.min(Vector.MAX_ROWS, rows - a + 1);
                long[] as = new long[n];
                long[] bs = new long[n];
                for (int i = 0; i < n; i++) {
                    as[i] = a + i;
                    bs[i] = b;
                    b = b >= wrap ? b - wrap : b + step;
                }
                a += n;
                sink.accept(new Batch(n, new Vector[] {new LongVector(as, null, n), new LongVector(bs, null, n)}));
                progress.update(a - 1);
            }
        } finally {
            progress.finish();
        }
    }

    private static void checkArguments(long rows, long distinct) {
        if (rows < 0) {
            throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "the row count must not be negative, got "
                    + rows);
        }
        if (distinct < 1 || distinct > MAX_DISTINCT) {
            throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "the number of distinct values of b must be "
                    + "between 1 and 2^62, got " + distinct);
        }
    }

    private static long gcd(long x, long y) {
        while (y != 0) {
            long t = x % y;
            x = y;
            y = t;
        }
        return x;
    }
}
