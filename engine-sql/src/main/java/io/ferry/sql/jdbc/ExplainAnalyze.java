package io.ferry.sql.jdbc;

import static java.util.Objects.requireNonNull;

import java.sql.DatabaseMetaData;
import java.sql.Types;
import java.util.List;
import java.util.Locale;

import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.jdbc.CalcitePrepare.CalciteSignature;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.sql.SqlExplainFormat;
import org.apache.calcite.sql.SqlExplainLevel;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;

import io.ferry.core.ByteSizes;
import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.sql.rel.CancelChecks;
import io.ferry.sql.rel.MemoryMeter;

/**
 * {@code EXPLAIN ANALYZE <query>}: the plan {@code EXPLAIN PLAN FOR} shows, then how long the query took to plan
 * and to run, and how many rows it gave. The query is planned fresh (the plan cache is neither read nor filled, so
 * the planning time is real) when the statement is prepared, and run when it is executed: its rows are read to the end
 * and dropped, under the statement's cancel flag and timeout. An INSERT, UPDATE or DELETE runs too and its changes
 * are kept, as in PostgreSQL; the count is of the rows it changed.
 *
 * <p>The words are recognized in the statement's text, before Calcite's parser reads it, because Calcite parses and
 * plans in one call Ferry cannot enter between: the query is then prepared as if it were the statement, with the
 * words EXPLAIN ANALYZE blanked out so that an error's line and column still point into what the user wrote.
 */
final class ExplainAnalyze {
    /** Calcite's name for EXPLAIN's one column. */
    private static final String COLUMN = "PLAN";

    private final CalciteSignature<?> query;
    private final String plan;
    private final double planningMillis;

    private ExplainAnalyze(CalciteSignature<?> query, String plan, double planningMillis) {
        this.query = requireNonNull(query, "query is null");
        this.plan = requireNonNull(plan, "plan is null");
        this.planningMillis = planningMillis;
    }

    /**
     * The query of {@code sql} when it starts with EXPLAIN ANALYZE (or PostgreSQL's ANALYSE), the two words and any
     * comments before them replaced by spaces; null for any other statement.
     */
    static String query(String sql) {
        int afterExplain = word(sql, StatementText.afterBlanks(sql, 0), "EXPLAIN");
        if (afterExplain < 0) {
            return null;
        }
        int start = StatementText.afterBlanks(sql, afterExplain);
        int end = Math.max(word(sql, start, "ANALYZE"), word(sql, start, "ANALYSE"));
        if (end < 0) {
            return null;
        }
        char[] chars = sql.toCharArray();
        for (int i = 0; i < end; i++) {
            if (chars[i] != '\n' && chars[i] != '\r') {
                chars[i] = ' ';
            }
        }
        return new String(chars);
    }

    /**
     * PostgreSQL's, DuckDB's and Trino's {@code EXPLAIN <statement>} as Calcite's {@code EXPLAIN PLAN FOR
     * <statement>}; null when {@code sql} is not such a statement (EXPLAIN PLAN and EXPLAIN ANALYZE are left as they
     * are). An error's column on the first line then counts the nine characters added.
     */
    static String planFor(String sql) {
        int afterExplain = word(sql, StatementText.afterBlanks(sql, 0), "EXPLAIN");
        if (afterExplain < 0) {
            return null;
        }
        int next = StatementText.afterBlanks(sql, afterExplain);
        for (String kept : new String[] {"PLAN", "ANALYZE", "ANALYSE"}) {
            if (word(sql, next, kept) >= 0) {
                return null;
            }
        }
        return sql.substring(0, afterExplain) + " PLAN FOR" + sql.substring(afterExplain);
    }

    /** The index past {@code word} (in any case) at {@code i}, or -1 if it is not there as a whole word. */
    private static int word(String sql, int i, String word) {
        int end = i + word.length();
        if (!sql.regionMatches(true, i, word, 0, word.length())) {
            return -1;
        }
        if (end < sql.length()) {
            char next = sql.charAt(end);
            if (Character.isLetterOrDigit(next) || next == '_' || next == '$') {
                return -1;
            }
        }
        return end;
    }

    /**
     * Refuses, before it runs, a statement EXPLAIN ANALYZE cannot measure: DDL and SET run while they are prepared and
     * have no plan, and EXPLAIN of EXPLAIN is no query.
     */
    static void check(SqlNode statement) {
        SqlKind kind = statement.getKind();
        if (!kind.belongsTo(SqlKind.QUERY) && !kind.belongsTo(SqlKind.DML)) {
            throw new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, "EXPLAIN ANALYZE runs a query, INSERT, UPDATE "
                    + "or DELETE and shows its plan; " + kind.lowerName.replace('_', ' ').toUpperCase(Locale.ROOT)
                    + " has no plan to show: run it without EXPLAIN ANALYZE");
        }
    }

    /**
     * The statement EXPLAIN ANALYZE prepares: {@code query}, planned as {@code root} in {@code planningMillis}, run when
     * this is executed. It answers one row in one column named as EXPLAIN's, with EXPLAIN's text and the measures.
     */
    @SuppressWarnings("unchecked")
    static <T> CalciteSignature<T> signature(String sql, CalciteSignature<?> query, RelRoot root,
            double planningMillis, JavaTypeFactory types) {
        String plan = RelOptUtil.dumpPlan("", root.rel, SqlExplainFormat.TEXT, SqlExplainLevel.EXPPLAN_ATTRIBUTES);
        ExplainAnalyze analyze = new ExplainAnalyze(query, plan, planningMillis);
        List<ColumnMetaData> columns = List.of(new ColumnMetaData(0, false, true, false, false,
                DatabaseMetaData.columnNoNulls, true, -1, COLUMN, COLUMN, null, -1, 0, null, null,
                ColumnMetaData.scalar(Types.VARCHAR, "VARCHAR", ColumnMetaData.Rep.STRING), true, false, false,
                String.class.getName()));
        Meta.CursorFactory cursor = Meta.CursorFactory.deduce(columns, null);
        return new CalciteSignature<>(sql, query.parameters, query.internalParameters,
                RelOptUtil.createDmlRowType(SqlKind.EXPLAIN, types), columns, cursor, query.rootSchema, List.of(),
                -1, context -> (Enumerable<T>) analyze.rows(context, cursor), Meta.StatementType.SELECT);
    }

    /** EXPLAIN's row, computed when it is first asked for: the query runs then. */
    private Enumerable<Object> rows(DataContext context, Meta.CursorFactory cursor) {
        return new AbstractEnumerable<>() {
            @Override
            public Enumerator<Object> enumerator() {
                String text = run(context);
                Object row = cursor.style == Meta.CursorFactory.OBJECT.style ? text : new Object[] {text};
                return Linq4j.singletonEnumerable(row).enumerator();
            }
        };
    }

    /** Runs the query to the end, dropping its rows; the plan followed by what the run measured. */
    private String run(DataContext context) {
        long start = System.nanoTime();
        long rows = 0;
        Object first = null;
        Enumerable<?> result = CancelChecks.checked(query.enumerable(context), context);
        String memory;
        try (MemoryMeter meter = MemoryMeter.open(); Enumerator<?> e = result.enumerator()) {
            while (e.moveNext()) {
                if (rows++ == 0) {
                    first = e.current();
                }
            }
            memory = memory(meter);
        }
        double executionMillis = (System.nanoTime() - start) / 1e6;
        String count = query.statementType.canUpdate()
                ? "Rows Changed: " + changed(first) + " (the statement ran and its changes are kept)"
                : "Rows: " + rows;
        return plan + String.format(Locale.ROOT,
                "Planning Time: %.3f ms (planned now, not taken from the plan cache)\nExecution Time: %.3f ms\n%s%s",
                planningMillis, executionMillis, memory, count);
    }

    /** The query memory the run held at most, and what it spilled, as a line; empty when no Ferry plan ran. */
    private static String memory(MemoryMeter meter) {
        if (meter.limit() == 0) {
            return "";
        }
        String spilled = meter.spilled() == 0 ? ""
                : "; Spilled: " + ByteSizes.format(meter.spilled()) + " to disk (compressed)";
        return String.format(Locale.ROOT, "Peak Memory: %s of its %s limit (hash tables, sort buffers, join build "
                + "sides)%s\n", ByteSizes.format(meter.peak()), ByteSizes.format(meter.limit()), spilled);
    }

    /** The count an INSERT, UPDATE or DELETE answers: its one row, one column. */
    private static Object changed(Object row) {
        return row instanceof Object[] a && a.length == 1 ? a[0] : row;
    }
}
