package io.ferry.bench.fuzz;

/** How Ferry's answer to a query compares with DuckDB's. */
public enum Outcome {
    MATCH("match", false),
    /** Both answered, differently: a wrong answer. */
    MISMATCH("mismatch", true),
    /** Ferry failed with SQLSTATE XX000, none, or a Java exception's name in its message. */
    INTERNAL_ERROR("internal error", true),
    /** Both refused the query (an overflow, say): nothing to compare. */
    BOTH_ERROR("both error", false),
    /** Only Ferry refused it, with a SQLSTATE that says it does not support it (0A000, 42883). */
    UNSUPPORTED("unsupported", false),
    /** Only Ferry refused it, with another SQLSTATE. */
    FERRY_ERROR("only Ferry errors", false),
    /** Only DuckDB refused it. */
    DUCKDB_ERROR("only DuckDB errors", false),
    /** Ferry did not answer within the per-query timeout. */
    TIMEOUT("timeout", false),
    /**
     * Both answered, differently, where the query sums DOUBLEs that may hold edge values, and the same query with
     * the huge values left out of those sums matches: a difference of the order of the additions
     * ({@link OverflowSums}).
     */
    ORDER_DEPENDENT("order-dependent sum", false);

    private final String label;
    private final boolean failure;

    Outcome(String label, boolean failure) {
        this.label = label;
        this.failure = failure;
    }

    public String label() {
        return label;
    }

    /** Whether this outcome fails a run (exit code 1). */
    public boolean failure() {
        return failure;
    }
}
