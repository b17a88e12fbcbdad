package io.ferry.bench.fuzz;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** A generated query: a SELECT, or a set operation of two. */
public sealed interface Query permits Query.Select, Query.SetOperation {
    String sql();

    /** Whether rows come in a total order (compare in order), or as a multiset. */
    boolean ordered();

    /**
     * Whether duplicate rows are removed last (SELECT DISTINCT, or UNION, INTERSECT, EXCEPT without ALL): two
     * DOUBLEs that differ in the last bits are then two rows in one engine and may be one in the other.
     */
    default boolean deduplicated() {
        return this instanceof Select s ? s.distinct() : !((SetOperation) this).operator().endsWith("ALL");
    }

    /**
     * The ORDER BY keys of an ordered answer whose ties within the comparator's tolerance may come in either order
     * ({@link ResultComparator#difference(Result.Rows, Result.Rows, boolean, boolean, List)}); empty when the answer
     * is unordered, or cut by a LIMIT or OFFSET, where such a tie at the cut decides which rows are in the answer.
     */
    default List<SortKey> tieTolerantKeys() {
        return this instanceof Select s && s.limit() == null && s.offset() == null ? s.orderBy() : List.of();
    }

    /** The construct families this query uses. */
    default Set<Construct> families() {
        Set<Construct> out = EnumSet.noneOf(Construct.class);
        collect(this, out);
        return out;
    }

    record TableRef(String table, String alias) {
        public String sql() {
            return table + " " + alias;
        }
    }

    enum JoinType {
        INNER("JOIN"), LEFT("LEFT JOIN"), RIGHT("RIGHT JOIN"), FULL("FULL JOIN");

        private final String sql;

        JoinType(String sql) {
            this.sql = sql;
        }
    }

    record Join(JoinType type, TableRef table, Expr on) {
        public Join {
            requireNonNull(type, "type is null");
            requireNonNull(table, "table is null");
            requireNonNull(on, "on is null");
        }

        public String sql() {
            return type.sql + " " + table.sql() + " ON " + on.sql();
        }
    }

    /** ORDER BY an output column by position; a query orders by all of them, so the order is total. */
    record SortKey(int ordinal, boolean descending, boolean nullsFirst) {
        public String sql() {
            // NULLS FIRST/LAST always: the dialects' defaults differ (see Expr.SortItem)
            return ordinal + (descending ? " DESC" : " ASC") + (nullsFirst ? " NULLS FIRST" : " NULLS LAST");
        }
    }

    /** WHERE and HAVING are lists of conjuncts, so that the shrinker can drop them one by one. */
    record Select(boolean distinct, List<Expr> items, TableRef from, List<Join> joins, List<Expr> where,
            List<Expr> groupBy, List<Expr> having, List<SortKey> orderBy, Integer limit, Integer offset)
            implements Query {
        public Select {
            items = List.copyOf(items);
            requireNonNull(from, "from is null");
            joins = List.copyOf(joins);
            where = List.copyOf(where);
            groupBy = List.copyOf(groupBy);
            having = List.copyOf(having);
            orderBy = List.copyOf(orderBy);
            if (items.isEmpty()) {
                throw new IllegalArgumentException("a SELECT needs an item");
            }
        }

        @Override
        public String sql() {
            StringBuilder sb = new StringBuilder("SELECT ").append(distinct ? "DISTINCT " : "")
                    .append(items.stream().map(Expr::sql).collect(Collectors.joining(", ")))
                    .append(" FROM ").append(from.sql());
            joins.forEach(j -> sb.append(' ').append(j.sql()));
            if (!where.isEmpty()) {
                sb.append(" WHERE ").append(where.stream().map(Expr::sql).collect(Collectors.joining(" AND ")));
            }
            if (!groupBy.isEmpty()) {
                sb.append(" GROUP BY ").append(groupBy.stream().map(Expr::sql).collect(Collectors.joining(", ")));
            }
            if (!having.isEmpty()) {
                sb.append(" HAVING ").append(having.stream().map(Expr::sql).collect(Collectors.joining(" AND ")));
            }
            if (!orderBy.isEmpty()) {
                sb.append(" ORDER BY ").append(orderBy.stream().map(SortKey::sql).collect(Collectors.joining(", ")));
            }
            if (limit != null) {
                sb.append(" LIMIT ").append(limit);
            }
            if (offset != null) {
                sb.append(" OFFSET ").append(offset);
            }
            return sb.toString();
        }

        @Override
        public boolean ordered() {
            return !orderBy.isEmpty();
        }

        public List<TableRef> tables() {
            List<TableRef> out = new ArrayList<>(List.of(from));
            joins.forEach(j -> out.add(j.table()));
            return out;
        }

        /** Whether this SELECT aggregates: GROUP BY, HAVING, or an aggregate among its items. */
        public boolean aggregated() {
            return !groupBy.isEmpty() || !having.isEmpty() || items.stream().anyMatch(Query::hasAggregate);
        }

        Select with(List<Expr> newItems, List<Join> newJoins, List<Expr> newWhere, List<Expr> newGroupBy,
                List<Expr> newHaving, List<SortKey> newOrderBy) {
            return new Select(distinct, newItems, from, newJoins, newWhere, newGroupBy, newHaving, newOrderBy, limit,
                    offset);
        }
    }

    record SetOperation(String operator, Select left, Select right) implements Query {
        public SetOperation {
            requireNonNull(operator, "operator is null");
            requireNonNull(left, "left is null");
            requireNonNull(right, "right is null");
        }

        @Override
        public String sql() {
            return left.sql() + " " + operator + " " + right.sql();
        }

        @Override
        public boolean ordered() {
            return false;
        }
    }

    /** Every table a query reads, subqueries included. */
    default Set<String> tableNames() {
        Set<String> out = new java.util.TreeSet<>();
        tableNames(this, out);
        return out;
    }

    private static void tableNames(Query q, Set<String> out) {
        if (q instanceof SetOperation s) {
            tableNames(s.left(), out);
            tableNames(s.right(), out);
            return;
        }
        Select s = (Select) q;
        s.tables().forEach(t -> out.add(t.table()));
        for (Expr e : expressions(s)) {
            walk(e, x -> {
                if (x instanceof Expr.Subquery sub) {
                    tableNames(sub.query(), out);
                }
            });
        }
    }

    /** Every expression directly in a SELECT (items, ON, WHERE, GROUP BY, HAVING), not inside its subqueries. */
    static List<Expr> expressions(Select s) {
        List<Expr> out = new ArrayList<>(s.items());
        s.joins().forEach(j -> out.add(j.on()));
        out.addAll(s.where());
        out.addAll(s.groupBy());
        out.addAll(s.having());
        return out;
    }

    private static boolean hasAggregate(Expr e) {
        // a window's SUM and a subquery's aggregates do not aggregate this SELECT; neither is among the children
        return e instanceof Expr.Call c && c.aggregate() || e.children().stream().anyMatch(Query::hasAggregate);
    }

    private static void walk(Expr e, java.util.function.Consumer<Expr> visit) {
        visit.accept(e);
        if (e instanceof Expr.Window w) {
            w.orderBy().forEach(o -> walk(o.expr(), visit));
        }
        e.children().forEach(c -> walk(c, visit));
    }

    private static void collect(Query q, Set<Construct> out) {
        if (q instanceof SetOperation s) {
            out.add(Construct.SET_OPERATIONS);
            collect(s.left(), out);
            collect(s.right(), out);
            return;
        }
        Select s = (Select) q;
        for (Join j : s.joins()) {
            out.add(j.type() == JoinType.INNER ? Construct.JOINS : Construct.OUTER_JOINS);
        }
        if (!s.where().isEmpty()) {
            out.add(Construct.FILTERS);
        }
        if (s.aggregated()) {
            out.add(Construct.AGGREGATES);
        }
        if (s.distinct()) {
            out.add(Construct.DISTINCT);
        }
        if (!s.orderBy().isEmpty() || s.limit() != null) {
            out.add(Construct.ORDER_LIMIT);
        }
        for (Expr e : expressions(s)) {
            walk(e, x -> {
                if (x instanceof Expr.Call c) {
                    out.add(c.family());
                } else if (x instanceof Expr.Window) {
                    out.add(Construct.WINDOWS);
                } else if (x instanceof Expr.Subquery sub) {
                    out.add(Construct.SUBQUERIES);
                    collect(sub.query(), out);
                }
            });
        }
    }
}
