package io.ferry.bench.tpcds;

import static java.util.Objects.requireNonNull;

/**
 * One statement's outcome and times.
 *
 * @param query      the statement's name: "1", "14a"
 * @param outcome    what happened
 * @param detail     for anything but a match: the SQLSTATE and first line of an error, or the first difference
 * @param planningMs Ferry's {@code prepareStatement} on a fresh connection: parse, validate, optimize; NaN if it
 *                   did not finish
 * @param ferryMs    Ferry's execution, from executeQuery to the last row read; NaN if it did not finish
 * @param duckMs     DuckDB's, from executeQuery (which plans too) to the last row; NaN if it did not finish
 * @param ferryRows  rows Ferry returned, -1 if none
 * @param duckRows   rows DuckDB returned, -1 if none
 * @param ferryPeakBytes the most query memory Ferry's plans for it held at once (hash tables, sort buffers, join
 *                   build sides)
 * @param ferrySpilledBytes what they wrote to disk, compressed
 * @param rowEngine  the operators of Calcite's row engine Ferry's plan ran (sys.queries.row_engine), null if none
 */
public record QueryResult(String query, Outcome outcome, String detail, double planningMs, double ferryMs,
        double duckMs, long ferryRows, long duckRows, long ferryPeakBytes, long ferrySpilledBytes,
        String rowEngine) {

    public enum Outcome {
        MATCH("match"),
        MISMATCH("mismatch"),
        FERRY_ERROR("Ferry error"),
        TIMEOUT("timeout"),
        DUCKDB_ERROR("DuckDB error");

        private final String label;

        Outcome(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    public QueryResult {
        requireNonNull(query, "query is null");
        requireNonNull(outcome, "outcome is null");
        requireNonNull(detail, "detail is null");
    }

    /** The TPC-DS query number, which parts a and b share. */
    public int number() {
        return Integer.parseInt(query.replaceAll("[ab]$", ""));
    }
}
