package io.ferry.server.data;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The thirteen Star Schema Benchmark queries (O'Neil et al., section 3), written against the tables of
 * {@link SsbGenerator} (the date dimension is {@code dwdate}). Plain SQL that Ferry, DuckDB and PostgreSQL all
 * accept, so one text serves tests, cross-checks and benchmarks.
 */
public final class SsbQueries {
    private static final String Q1 = "select sum(lo_extendedprice * lo_discount) as revenue "
            + "from lineorder, dwdate where lo_orderdate = d_datekey and ";
    private static final String Q2 = "select sum(lo_revenue) as revenue, d_year, p_brand1 "
            + "from lineorder, dwdate, part, supplier "
            + "where lo_orderdate = d_datekey and lo_partkey = p_partkey and lo_suppkey = s_suppkey and ";
    private static final String Q2_END = " group by d_year, p_brand1 order by d_year, p_brand1";
    private static final String Q3_FROM = " from customer, lineorder, supplier, dwdate "
            + "where lo_custkey = c_custkey and lo_suppkey = s_suppkey and lo_orderdate = d_datekey and ";
    private static final String Q4_FROM = " from dwdate, customer, supplier, part, lineorder "
            + "where lo_custkey = c_custkey and lo_suppkey = s_suppkey and lo_partkey = p_partkey "
            + "and lo_orderdate = d_datekey and ";

    private static final String UK_CITIES = "(c_city = 'UNITED KI1' or c_city = 'UNITED KI5') "
            + "and (s_city = 'UNITED KI1' or s_city = 'UNITED KI5') ";

    private static final Map<String, String> QUERIES = new LinkedHashMap<>();

    static {
        QUERIES.put("Q1.1", Q1 + "d_year = 1993 and lo_discount between 1 and 3 and lo_quantity < 25");
        QUERIES.put("Q1.2", Q1 + "d_yearmonthnum = 199401 and lo_discount between 4 and 6 "
                + "and lo_quantity between 26 and 35");
        QUERIES.put("Q1.3", Q1 + "d_weeknuminyear = 6 and d_year = 1994 and lo_discount between 5 and 7 "
                + "and lo_quantity between 26 and 35");
        QUERIES.put("Q2.1", Q2 + "p_category = 'MFGR#12' and s_region = 'AMERICA'" + Q2_END);
        QUERIES.put("Q2.2", Q2 + "p_brand1 between 'MFGR#2221' and 'MFGR#2228' and s_region = 'ASIA'" + Q2_END);
        QUERIES.put("Q2.3", Q2 + "p_brand1 = 'MFGR#2239' and s_region = 'EUROPE'" + Q2_END);
        QUERIES.put("Q3.1", "select c_nation, s_nation, d_year, sum(lo_revenue) as revenue" + Q3_FROM
                + "c_region = 'ASIA' and s_region = 'ASIA' and d_year >= 1992 and d_year <= 1997 "
                + "group by c_nation, s_nation, d_year order by d_year asc, revenue desc");
        QUERIES.put("Q3.2", "select c_city, s_city, d_year, sum(lo_revenue) as revenue" + Q3_FROM
                + "c_nation = 'UNITED STATES' and s_nation = 'UNITED STATES' and d_year >= 1992 and d_year <= 1997 "
                + "group by c_city, s_city, d_year order by d_year asc, revenue desc");
        QUERIES.put("Q3.3", "select c_city, s_city, d_year, sum(lo_revenue) as revenue" + Q3_FROM
                + UK_CITIES
                + "and d_year >= 1992 and d_year <= 1997 "
                + "group by c_city, s_city, d_year order by d_year asc, revenue desc");
        QUERIES.put("Q3.4", "select c_city, s_city, d_year, sum(lo_revenue) as revenue" + Q3_FROM
                + UK_CITIES
                + "and d_yearmonth = 'Dec1997' "
                + "group by c_city, s_city, d_year order by d_year asc, revenue desc");
        QUERIES.put("Q4.1", "select d_year, c_nation, sum(lo_revenue - lo_supplycost) as profit" + Q4_FROM
                + "c_region = 'AMERICA' and s_region = 'AMERICA' and (p_mfgr = 'MFGR#1' or p_mfgr = 'MFGR#2') "
                + "group by d_year, c_nation order by d_year, c_nation");
        QUERIES.put("Q4.2", "select d_year, s_nation, p_category, sum(lo_revenue - lo_supplycost) as profit" + Q4_FROM
                + "c_region = 'AMERICA' and s_region = 'AMERICA' and (d_year = 1997 or d_year = 1998) "
                + "and (p_mfgr = 'MFGR#1' or p_mfgr = 'MFGR#2') "
                + "group by d_year, s_nation, p_category order by d_year, s_nation, p_category");
        QUERIES.put("Q4.3", "select d_year, s_city, p_brand1, sum(lo_revenue - lo_supplycost) as profit" + Q4_FROM
                + "c_region = 'AMERICA' and s_nation = 'UNITED STATES' and (d_year = 1997 or d_year = 1998) "
                + "and p_category = 'MFGR#14' "
                + "group by d_year, s_city, p_brand1 order by d_year, s_city, p_brand1");
    }

    private SsbQueries() {
    }

    /** All thirteen, by name ("Q1.1" .. "Q4.3"), in the benchmark's order. */
    public static Map<String, String> all() {
        return Collections.unmodifiableMap(QUERIES);
    }

    /** Prints the thirteen as a SQL script, one statement per line after its name: for scripts and shells. */
    public static void main(String[] args) {
        for (Map.Entry<String, String> q : QUERIES.entrySet()) {
            System.out.println("-- " + q.getKey());
            System.out.println(q.getValue() + ";");
        }
    }

    public static String get(String name) {
        String sql = QUERIES.get(name);
        if (sql == null) {
            throw new IllegalArgumentException("no SSB query '" + name + "'; the queries are " + QUERIES.keySet());
        }
        return sql;
    }
}
