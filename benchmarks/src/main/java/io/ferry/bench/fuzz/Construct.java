package io.ferry.bench.fuzz;

/** A family of SQL constructs the generator can use; a run enables any subset (bin/ferry fuzz --constructs). */
public enum Construct {
    SCALAR("scalar", "arithmetic, comparisons, AND/OR/NOT, CASE, CAST, COALESCE/NULLIF, IS [NOT] NULL, IN lists, BETWEEN"),
    STRINGS("strings", "LIKE, UPPER, LOWER, SUBSTRING, CHAR_LENGTH, ||"),
    DATES("dates", "EXTRACT, DATE/TIMESTAMP casts"),
    FILTERS("filters", "WHERE"),
    JOINS("joins", "INNER joins of 2-4 tables on equality keys"),
    OUTER_JOINS("outer-joins", "LEFT, RIGHT and FULL joins"),
    AGGREGATES("aggregates", "GROUP BY, HAVING, COUNT/SUM/MIN/MAX/AVG, COUNT(DISTINCT)"),
    GROUPING_SETS("grouping-sets", "GROUP BY ROLLUP, CUBE and GROUPING SETS"),
    DISTINCT("distinct", "SELECT DISTINCT"),
    SUBQUERIES("subqueries", "IN, EXISTS and scalar subqueries, correlated or not"),
    SET_OPERATIONS("set-ops", "UNION, INTERSECT, EXCEPT [ALL]"),
    WINDOWS("windows", "ROW_NUMBER, RANK, SUM/COUNT/MIN/MAX OVER (PARTITION BY ... ORDER BY ...)"),
    ORDER_LIMIT("order-limit", "a total ORDER BY, LIMIT, OFFSET");

    private final String cliName;
    private final String description;

    Construct(String cliName, String description) {
        this.cliName = cliName;
        this.description = description;
    }

    public String cliName() {
        return cliName;
    }

    public String description() {
        return description;
    }

    /** The families' names on the command line, for its help. */
    public static final class CliNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return java.util.Arrays.stream(values()).map(Construct::cliName).iterator();
        }
    }

    public static Construct fromCliName(String name) {
        for (Construct c : values()) {
            if (c.cliName.equalsIgnoreCase(name.trim())) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown construct family '" + name + "'; choose from " + Constructs.ALL);
    }
}
