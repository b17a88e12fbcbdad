package io.ferry.bench.tpcds;

import static java.util.Objects.requireNonNull;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.trino.tpcds.Results;
import io.trino.tpcds.Session;
import io.trino.tpcds.Table;

/**
 * Writes the TPC-DS tables at a scale factor as '|'-separated files, one per table, with Trino's Java port of dsdgen
 * ({@code io.trino.tpcds}): the same rows for the same scale on every machine, so a directory made once is reused.
 *
 * <p>NULL and the empty string stay apart: NULL is an empty unquoted field and the empty string is {@code ""}
 * (time_dim's t_meal_time has both), which both loaders read that way (see {@link TpcdsLoader}).
 */
public final class TpcdsData {
    private static final String MARKER = "complete";

    private final double scale;
    private final Path dir;

    public TpcdsData(double scale, Path dir) {
        if (!(scale > 0)) {
            throw new IllegalArgumentException("the scale factor must be positive, got " + scale);
        }
        this.scale = scale;
        this.dir = requireNonNull(dir, "dir is null");
    }

    public Path file(Table table) {
        return dir.resolve(table.getName() + ".dat");
    }

    /** Generates the files unless an earlier run left a complete set for this scale in the directory. */
    public void generate(int threads) throws IOException {
        Path marker = dir.resolve(MARKER);
        String stamp = "io.trino.tpcds 1.4, scale " + scale;
        if (Files.isRegularFile(marker) && Files.readString(marker).equals(stamp)) {
            return;
        }
        Files.createDirectories(dir);
        Files.deleteIfExists(marker);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            // the largest tables first, so that the pool's threads finish together
            for (Table t : TpcdsTables.ALL.stream().sorted((a, b) -> Boolean.compare(a.isSmall(), b.isSmall()))
                    .toList()) {
                done.add(pool.submit(() -> write(t)));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while generating TPC-DS data", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof UncheckedIOException u ? u.getCause()
                    : new IOException("generating TPC-DS data failed", e.getCause());
        } finally {
            pool.shutdownNow();
        }
        Files.writeString(marker, stamp);
    }

    private void write(Table table) {
        Session session = Session.getDefaultSession().withScale(scale).withTable(table).withNoSexism(false);
        try (Writer out = new BufferedWriter(Files.newBufferedWriter(file(table), StandardCharsets.UTF_8), 1 << 16)) {
            StringBuilder line = new StringBuilder(256);
            for (List<List<String>> rows : Results.constructResults(table, session)) {
                // a parent table's generator can also return its child's rows; the first row is the table's own
                List<String> row = rows.get(0);
                line.setLength(0);
                for (int i = 0; i < row.size(); i++) {
                    if (i > 0) {
                        line.append('|');
                    }
                    appendField(line, row.get(i));
                }
                out.append(line).append('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException("writing " + file(table), e);
        }
    }

    static void appendField(StringBuilder line, String value) {
        if (value == null) {
            return;
        }
        if (value.isEmpty() || value.indexOf('|') >= 0 || value.indexOf('"') >= 0 || value.indexOf('\n') >= 0
                || value.indexOf('\r') >= 0) {
            line.append('"').append(value.replace("\"", "\"\"")).append('"');
        } else {
            line.append(value);
        }
    }

    @Override
    public String toString() {
        return "TPC-DS SF " + BigDecimal.valueOf(scale).stripTrailingZeros().toPlainString() + " in " + dir;
    }
}
