package io.ferry.bench.fuzz;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A scalar expression of a generated query. Every node renders to SQL that Ferry (Calcite's parser) and DuckDB read
 * alike, and exposes the children the shrinker may rewrite; what must not change for the query to stay valid in both
 * dialects (a SUBSTRING's bounds, a division's guards, a window's ordering) is part of the node, not a child.
 */
public sealed interface Expr permits Expr.Column, Expr.Literal, Expr.Call, Expr.Window, Expr.Subquery {
    SqlType type();

    String sql();

    /** The subexpressions the shrinker may replace. */
    List<Expr> children();

    Expr withChildren(List<Expr> children);

    /**
     * Whether {@code e} as a GROUP BY or PARTITION BY key may be read as a column position: a literal, or a negated
     * one. DuckDB reads an integer literal there as a position, and {@code GROUP BY (- 39)} too ("GROUP BY term out
     * of range"), and Ferry refused {@code GROUP BY …, (- 0.5)} with 42P10 (fuzzer, seeds 55 and 62): such keys
     * are kept out, and the shrinker does not make them.
     */
    static boolean positionLike(Expr e) {
        return e instanceof Literal || e instanceof Call c && c.form() == Form.PREFIX && c.args().size() == 1
                && positionLike(c.args().get(0));
    }

    /** A column of a FROM item, always qualified by its alias. */
    record Column(String alias, ColumnDef column) implements Expr {
        public Column {
            requireNonNull(alias, "alias is null");
            requireNonNull(column, "column is null");
        }

        @Override
        public SqlType type() {
            return column.type();
        }

        @Override
        public String sql() {
            return alias + "." + column.name();
        }

        @Override
        public List<Expr> children() {
            return List.of();
        }

        @Override
        public Expr withChildren(List<Expr> children) {
            return this;
        }
    }

    record Literal(String sql, SqlType type) implements Expr {
        public Literal {
            requireNonNull(sql, "sql is null");
            requireNonNull(type, "type is null");
        }

        /** A typed NULL: a bare NULL has no type in Calcite's validator where DuckDB would infer one. */
        public static Literal nullOf(SqlType type) {
            return new Literal("CAST(NULL AS " + type.castName() + ")", type);
        }

        @Override
        public List<Expr> children() {
            return List.of();
        }

        @Override
        public Expr withChildren(List<Expr> children) {
            return this;
        }
    }

    /** How a {@link Call} is spelled. */
    enum Form {
        /** {@code (a op b [op c ...])} */
        INFIX,
        /** {@code (op a)} */
        PREFIX,
        /** {@code (a op)}, e.g. IS NULL */
        POSTFIX,
        /** {@code name(a, b, ...)} */
        FUNCTION,
        /** {@code CAST(a AS name)} */
        CAST,
        /** {@code (a name (b, c, ...))}, name IN or NOT IN */
        IN_LIST,
        /** {@code (a name b AND c)}, name BETWEEN or NOT BETWEEN */
        BETWEEN,
        /** {@code CASE WHEN a THEN b ... [ELSE z] END} */
        CASE,
        /** {@code EXTRACT(name FROM a)} */
        EXTRACT,
        /** {@code SUBSTRING(a name)}, name "FROM 2 FOR 3": constant bounds of at least 1, see QueryGenerator */
        SUBSTRING,
        /** {@code (CAST(a AS DOUBLE) / NULLIF(CAST(b AS DOUBLE), 0))}, see QueryGenerator */
        DIVIDE,
        /** {@code name(a)} or {@code name(*)} without arguments */
        AGGREGATE,
        /** {@code name(DISTINCT a)} */
        AGGREGATE_DISTINCT
    }

    /** An operator, function or aggregate; {@code family} is the construct family it belongs to. */
    record Call(String name, Form form, List<Expr> args, SqlType type, Construct family) implements Expr {
        public Call {
            requireNonNull(name, "name is null");
            requireNonNull(form, "form is null");
            args = List.copyOf(args);
            requireNonNull(type, "type is null");
            requireNonNull(family, "family is null");
        }

        public boolean aggregate() {
            return form == Form.AGGREGATE || form == Form.AGGREGATE_DISTINCT;
        }

        @Override
        public String sql() {
            List<String> a = args.stream().map(Expr::sql).toList();
            return switch (form) {
                case INFIX -> "(" + String.join(" " + name + " ", a) + ")";
                case PREFIX -> "(" + name + " " + a.get(0) + ")";
                case POSTFIX -> "(" + a.get(0) + " " + name + ")";
                case FUNCTION -> name + "(" + String.join(", ", a) + ")";
                case CAST -> "CAST(" + a.get(0) + " AS " + name + ")";
                case IN_LIST -> "(" + a.get(0) + " " + name + " (" + String.join(", ", a.subList(1, a.size())) + "))";
                case BETWEEN -> "(" + a.get(0) + " " + name + " " + a.get(1) + " AND " + a.get(2) + ")";
                case CASE -> caseSql(a);
                case EXTRACT -> "EXTRACT(" + name + " FROM " + a.get(0) + ")";
                case SUBSTRING -> "SUBSTRING(" + a.get(0) + " " + name + ")";
                case DIVIDE -> "(CAST(" + a.get(0) + " AS DOUBLE) / NULLIF(CAST(" + a.get(1) + " AS DOUBLE), 0))";
                case AGGREGATE -> name + "(" + (a.isEmpty() ? "*" : a.get(0)) + ")";
                case AGGREGATE_DISTINCT -> name + "(DISTINCT " + a.get(0) + ")";
            };
        }

        private static String caseSql(List<String> a) {
            StringBuilder sb = new StringBuilder("CASE");
            int i = 0;
            for (; i + 1 < a.size(); i += 2) {
                sb.append(" WHEN ").append(a.get(i)).append(" THEN ").append(a.get(i + 1));
            }
            if (i < a.size()) {
                sb.append(" ELSE ").append(a.get(i));
            }
            return sb.append(" END").toString();
        }

        @Override
        public List<Expr> children() {
            return args;
        }

        @Override
        public Expr withChildren(List<Expr> children) {
            return new Call(name, form, children, type, family);
        }
    }

    /** A sort key of a window. */
    record SortItem(Expr expr, boolean descending, boolean nullsFirst) {
        public String sql() {
            // NULLS FIRST/LAST always: Calcite sorts NULLs high (last ascending), DuckDB last in both directions
            return expr.sql() + (descending ? " DESC" : " ASC") + (nullsFirst ? " NULLS FIRST" : " NULLS LAST");
        }
    }

    /**
     * {@code function(args, constants) OVER (PARTITION BY ... ORDER BY ... frame)}. Only the function's arguments and
     * the partition keys are children: the ordering is fixed, since ROW_NUMBER, NTILE, LAG, LEAD, FIRST_VALUE and ROWS
     * frames are deterministic only under a total order (the ids of every table in FROM), and RANK and SUM OVER with
     * the default RANGE frame only when the order stays as built. {@code constants} (NTILE's bucket count, LAG's
     * offset and default) are not children either: both dialects want constants there. {@code frame} is a ROWS or
     * RANGE clause, or empty.
     */
    record Window(Call function, List<Expr> partitionBy, List<SortItem> orderBy, List<String> constants,
            String frame) implements Expr {
        public Window {
            requireNonNull(function, "function is null");
            partitionBy = List.copyOf(partitionBy);
            orderBy = List.copyOf(orderBy);
            constants = List.copyOf(constants);
            requireNonNull(frame, "frame is null");
        }

        @Override
        public SqlType type() {
            return function.type();
        }

        @Override
        public String sql() {
            String call = function.sql();
            if (!constants.isEmpty()) {
                call = call.substring(0, call.length() - 1) + (function.args().isEmpty() ? "" : ", ")
                        + String.join(", ", constants) + ")";
            }
            StringBuilder sb = new StringBuilder(call).append(" OVER (");
            if (!partitionBy.isEmpty()) {
                sb.append("PARTITION BY ").append(partitionBy.stream().map(Expr::sql).collect(Collectors.joining(", ")));
            }
            if (!orderBy.isEmpty()) {
                sb.append(partitionBy.isEmpty() ? "" : " ").append("ORDER BY ")
                        .append(orderBy.stream().map(SortItem::sql).collect(Collectors.joining(", ")));
            }
            if (!frame.isEmpty()) {
                sb.append(" ").append(frame);
            }
            return sb.append(")").toString();
        }

        @Override
        public List<Expr> children() {
            List<Expr> out = new ArrayList<>(function.args());
            out.addAll(partitionBy);
            return out;
        }

        @Override
        public Expr withChildren(List<Expr> children) {
            int n = function.args().size();
            return new Window((Call) function.withChildren(children.subList(0, n)), children.subList(n, children.size()),
                    orderBy, constants, frame);
        }
    }

    enum SubqueryKind {
        EXISTS, NOT_EXISTS, IN, NOT_IN, SCALAR
    }

    /** EXISTS, [NOT] IN or a scalar subquery; {@code operand} is IN's left side, else null. */
    record Subquery(SubqueryKind kind, Expr operand, Query.Select query, SqlType type) implements Expr {
        public Subquery {
            requireNonNull(kind, "kind is null");
            requireNonNull(query, "query is null");
            requireNonNull(type, "type is null");
        }

        @Override
        public String sql() {
            String sub = "(" + query.sql() + ")";
            return switch (kind) {
                case EXISTS -> "(EXISTS " + sub + ")";
                case NOT_EXISTS -> "(NOT EXISTS " + sub + ")";
                case IN -> "(" + operand.sql() + " IN " + sub + ")";
                case NOT_IN -> "(" + operand.sql() + " NOT IN " + sub + ")";
                case SCALAR -> sub;
            };
        }

        @Override
        public List<Expr> children() {
            return operand == null ? List.of() : List.of(operand);
        }

        @Override
        public Expr withChildren(List<Expr> children) {
            return new Subquery(kind, children.isEmpty() ? null : children.get(0), query, type);
        }

        public Subquery withQuery(Query.Select q) {
            return new Subquery(kind, operand, q, type);
        }
    }
}
