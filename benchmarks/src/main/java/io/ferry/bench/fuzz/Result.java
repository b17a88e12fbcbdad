package io.ferry.bench.fuzz;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** What an engine answered: rows of canonical values (see {@link ResultComparator}), or an error. */
public sealed interface Result permits Result.Rows, Result.Failure {
    String describe();

    /**
     * Rows, and for each column the scale of a DECIMAL(38, s) (-1 for other columns): the widest DECIMAL, whose
     * scale DuckDB cuts where a wider one would be needed ({@link ResultComparator#difference}).
     */
    record Rows(List<List<Object>> rows, List<Integer> widestDecimalScales) implements Result {
        public Rows {
            // rows hold NULLs, which List.copyOf refuses
            rows = rows.stream().map(r -> Collections.unmodifiableList(new ArrayList<>(r))).toList();
            widestDecimalScales = List.copyOf(widestDecimalScales);
        }

        public Rows(List<List<Object>> rows) {
            this(rows, List.of());
        }

        @Override
        public String describe() {
            int shown = Math.min(5, rows.size());
            return rows.size() + " row" + (rows.size() == 1 ? "" : "s") + (shown == 0 ? "" : ": " + rows.subList(0, shown)
                    + (shown < rows.size() ? " ..." : ""));
        }
    }

    /** An error, with the SQLSTATE a JDBC client would see (null when the engine gave none). */
    record Failure(String sqlState, String message, boolean timedOut) implements Result {
        public Failure {
            requireNonNull(message, "message is null");
        }

        @Override
        public String describe() {
            return "error " + (sqlState == null ? "(no SQLSTATE)" : sqlState) + ": " + message;
        }
    }
}
