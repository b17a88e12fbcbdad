package io.ferry.bench.fuzz;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.ferry.bench.fuzz.Expr.Call;
import io.ferry.bench.fuzz.Expr.Column;
import io.ferry.bench.fuzz.Expr.Form;
import io.ferry.bench.fuzz.Expr.Literal;
import io.ferry.bench.fuzz.Expr.SortItem;
import io.ferry.bench.fuzz.Expr.SubqueryKind;
import io.ferry.bench.fuzz.Query.Join;
import io.ferry.bench.fuzz.Query.JoinType;
import io.ferry.bench.fuzz.Query.Select;
import io.ferry.bench.fuzz.Query.SetOperation;
import io.ferry.bench.fuzz.Query.SortKey;
import io.ferry.bench.fuzz.Query.TableRef;

/**
 * Random queries over a {@link Dataset}, typed so that every expression is valid where it is put, and kept to the
 * part of SQL on which Ferry (Calcite's semantics) and DuckDB agree. Where they do not, the generator avoids the
 * difference instead of reporting it on every query:
 * <ul>
 * <li>Division: DuckDB's {@code /} of integers gives a DOUBLE, Calcite's an integer, and DuckDB's of decimals a
 * DOUBLE where Calcite keeps a DECIMAL of its own scale; so both operands are cast to DOUBLE, and the divisor is
 * guarded with NULLIF(x, 0) since DuckDB's x/0 differs from Ferry's division-by-zero error (Form.DIVIDE).</li>
 * <li>Overflow: DuckDB raises an error where Calcite's Java arithmetic may wrap; arithmetic takes only PLAIN
 * columns and small literals, and an expression whose magnitude bound could leave its type is not built.</li>
 * <li>NULL ordering: Calcite sorts NULLs high, DuckDB last in both directions; every ORDER BY says NULLS
 * FIRST/LAST.</li>
 * <li>LIMIT: only after an ORDER BY of every output column, so that both engines keep the same rows.</li>
 * <li>Casts: no DOUBLE or DECIMAL to integer (DuckDB rounds, Calcite truncates), no DOUBLE, BOOLEAN or DECIMAL to
 * VARCHAR (each spells them its own way), no VARCHAR to anything (what parses differs).</li>
 * <li>LIKE and a VARCHAR IN list never test a NULLIF or CASE: DuckDB 2.0.0 filters those wrong (stringSubject).</li>
 * <li>SUBSTRING's start is at least 1 and its length at least 0: both dialects define other bounds differently.</li>
 * <li>Bare NULL has no type in Calcite's validator: NULLs are typed (CAST(NULL AS t)).</li>
 * <li>EXTRACT: YEAR, MONTH, DAY, HOUR, MINUTE, SECOND only (DOW and friends number days differently); DAY to
 * SECOND also of the interval between two timestamps.</li>
 * <li>Window functions: ROW_NUMBER, NTILE, LAG, LEAD, FIRST_VALUE, NTH_VALUE and aggregates over a ROWS frame order
 * by the ids of every table in FROM (a total order); RANK, DENSE_RANK and aggregates over the default RANGE frame or a
 * RANGE frame with offsets (over one numeric key) are deterministic under any order. An explicit frame excludes the
 * current row, its peers or its ties one time in three.</li>
 * </ul>
 */
public final class QueryGenerator {
    private static final int MAX_DEPTH = 3;
    /** Largest join the generator builds, by its estimated rows: keeps each query in milliseconds. */
    private static final double MAX_JOIN_ROWS = 30_000;
    /** Rows an aggregate may sum over, for the magnitude bound of SUM. */
    private static final double SUM_ROWS = 1e5;
    private static final List<String> SET_OPERATORS = List.of("UNION", "UNION ALL", "INTERSECT", "INTERSECT ALL",
            "EXCEPT", "EXCEPT ALL");
    private static final List<String> COMPARISONS = List.of("=", "<>", "<", "<=", ">", ">=", "IS DISTINCT FROM",
            "IS NOT DISTINCT FROM");
    private static final List<String> LIKE_PATTERNS = List.of("%", "a%", "%a%", "_", "__%", "%c", "A_", "%✓%",
            "Z%", "%'%", "%b_", "");
    private static final Pattern INTEGER_LITERAL = Pattern.compile("^(?:CAST\\(')?(-?\\d+)(?:' AS BIGINT\\))?$");
    private static final Pattern CAST_NUMBER = Pattern.compile("^CAST\\((-?[\\d.]+(?:E-?\\d+)?) AS \\w+\\)$");

    private final Dataset data;
    private final Constructs on;
    private Random rnd;

    public QueryGenerator(Dataset data, Constructs constructs) {
        this.data = requireNonNull(data, "data is null");
        this.on = requireNonNull(constructs, "constructs is null");
    }

    /** The query for {@code seed}: the same seed gives the same query over the same dataset. */
    public Query generate(long seed) {
        rnd = new Random(seed);
        if (on.has(Construct.SET_OPERATIONS) && chance(0.12)) {
            Select left = select(0, null, false);
            Select right = select(0, left.items().stream().map(Expr::type).toList(), false);
            return new SetOperation(pick(SET_OPERATORS), left, right);
        }
        return select(0, null, true);
    }

    /**
     * What an expression may refer to; {@code enclosing} are the columns of enclosing queries a subquery here may
     * correlate with (of a grouped one, its keys that are columns).
     */
    private record Scope(List<Column> columns, List<Expr> groupKeys, boolean grouped, boolean aggregates,
            boolean subqueries, int depth, List<TableRef> tables, List<Column> enclosing) {
        /** The scope inside an aggregate's argument: rows again, no aggregate, no subquery. */
        Scope rows() {
            return new Scope(columns, List.of(), false, false, false, depth, tables, enclosing);
        }

        Scope withoutSubqueries() {
            return new Scope(columns, groupKeys, grouped, aggregates, false, depth, tables, enclosing);
        }

        /** The columns a subquery of this scope may correlate with: this query's (its group keys if grouped) and those of enclosing ones. */
        List<Column> correlatable() {
            List<Column> all = new ArrayList<>(enclosing);
            if (grouped) {
                groupKeys.stream().filter(Column.class::isInstance).map(Column.class::cast).forEach(all::add);
            } else {
                all.addAll(columns);
            }
            return all;
        }
    }

    private Select select(int depth, List<SqlType> wanted, boolean top) {
        String prefix = String.valueOf((char) ('a' + depth));
        List<TableRef> tables = new ArrayList<>();
        List<Join> joins = new ArrayList<>();
        TableRef first = new TableRef(pick(data.tables()).name(), prefix + "0");
        tables.add(first);
        double rows = data.table(first.table()).rows().size();
        boolean joinsOn = on.has(Construct.JOINS) || on.has(Construct.OUTER_JOINS);
        int wantTables = joinsOn && chance(depth == 0 ? 0.5 : 0.15) ? 2 + rnd.nextInt(3) : 1;
        while (tables.size() < wantTables) {
            TableDef next = pick(data.tables());
            TableRef ref = new TableRef(next.name(), prefix + tables.size());
            boolean onText = chance(0.3);
            double estimate = rows * next.rows().size() / (onText ? Dataset.GROUP_KEYS.size() : Dataset.KEY_DOMAIN);
            if (estimate > MAX_JOIN_ROWS) {
                break;
            }
            rows = Math.max(estimate, rows);
            TableRef other = tables.get(rnd.nextInt(tables.size()));
            String key = onText ? "g" : "k";
            List<Expr> conjuncts = new ArrayList<>();
            conjuncts.add(compare("=", column(other, key), column(ref, key)));
            if (chance(0.2)) {
                String second = onText ? "k" : "g";
                conjuncts.add(compare("=", column(other, second), column(ref, second)));
            }
            JoinType type = !on.has(Construct.JOINS) || on.has(Construct.OUTER_JOINS) && chance(0.5)
                    ? pick(List.of(JoinType.LEFT, JoinType.RIGHT, JoinType.FULL)) : JoinType.INNER;
            if (on.has(Construct.SCALAR) && chance(0.15)) {
                Scope two = scope(List.of(other, ref), depth).withoutSubqueries();
                conjuncts.add(expr(SqlType.BOOLEAN, two, 1));
            }
            joins.add(new Join(type, ref, and(conjuncts)));
            tables.add(ref);
        }
        Scope scope = scope(tables, depth);
        List<Expr> where = new ArrayList<>();
        if (on.has(Construct.FILTERS) && chance(depth == 0 ? 0.6 : 0.4)) {
            for (int n = 1 + rnd.nextInt(3); n > 0; n--) {
                where.add(expr(SqlType.BOOLEAN, scope, 1));
            }
        }
        List<Expr> items = new ArrayList<>();
        List<Expr> groupBy = new ArrayList<>();
        List<Expr> having = new ArrayList<>();
        if (on.has(Construct.AGGREGATES) && chance(0.4)) {
            for (int n = rnd.nextInt(4); n > 0; n--) {
                groupBy.add(chance(0.8) ? pick(scope.columns()) : key(expr(anyType(), scope.rows(), 2), scope));
            }
            // a subquery of the grouped SELECT reads its keys (and, nested, reads them two levels up)
            Scope grouped = new Scope(scope.columns(), groupBy, true, true, scope.subqueries() && chance(0.3), depth,
                    tables, scope.enclosing());
            if (wanted != null) {
                wanted.forEach(t -> items.add(expr(t, grouped, 1)));
            } else {
                for (Expr key : groupBy) {
                    if (chance(0.6)) {
                        items.add(key);
                    }
                }
                for (int n = 1 + rnd.nextInt(3); n > 0; n--) {
                    items.add(expr(anyType(), grouped, 1));
                }
            }
            if (chance(0.3)) {
                having.add(expr(SqlType.BOOLEAN, grouped, 1));
            }
        } else if (wanted != null) {
            wanted.forEach(t -> items.add(expr(t, scope, 0)));
        } else {
            for (int n = 1 + rnd.nextInt(4); n > 0; n--) {
                items.add(expr(anyType(), scope, 0));
            }
            if (on.has(Construct.WINDOWS) && chance(0.3)) {
                items.add(rnd.nextInt(items.size() + 1), window(scope));
            }
        }
        boolean distinct = on.has(Construct.DISTINCT) && chance(0.2);
        List<SortKey> orderBy = new ArrayList<>();
        Integer limit = null;
        Integer offset = null;
        if (top && on.has(Construct.ORDER_LIMIT) && chance(0.35)) {
            for (int i = 1; i <= items.size(); i++) {
                orderBy.add(new SortKey(i, chance(0.4), chance(0.5)));
            }
            if (chance(0.6)) {
                limit = 1 + rnd.nextInt(30);
                offset = chance(0.3) ? rnd.nextInt(10) : null;
            }
        }
        List<Expr> groupByClause = !groupBy.isEmpty() && on.has(Construct.GROUPING_SETS) && chance(0.25)
                ? groupingSets(groupBy) : groupBy;
        return new Select(distinct, items, first, joins, where, groupByClause, having, orderBy, limit, offset);
    }

    /**
     * A GROUP BY clause of the keys {@code groupBy} (which the select list may read) with the first one to three in
     * ROLLUP, CUBE or GROUPING SETS and the rest grouped by as they are. Each grouping set is a call named ""
     * ({@code (a, b)}, or {@code ()} for the grand total), so the shrinker treats them as expressions.
     */
    private List<Expr> groupingSets(List<Expr> groupBy) {
        int n = 1 + rnd.nextInt(Math.min(3, groupBy.size()));
        List<Expr> keys = new ArrayList<>(groupBy.subList(0, n));
        List<Expr> rest = new ArrayList<>(groupBy.subList(n, groupBy.size()));
        SqlType type = keys.get(0).type();
        Expr sets;
        int kind = rnd.nextInt(5);
        if (kind < 2) {
            sets = new Call("ROLLUP", Form.FUNCTION, keys, type, Construct.GROUPING_SETS);
        } else if (kind < 4) {
            sets = new Call("CUBE", Form.FUNCTION, keys, type, Construct.GROUPING_SETS);
        } else {
            List<Expr> chosen = new ArrayList<>();
            chosen.add(new Call("", Form.FUNCTION, keys, type, Construct.GROUPING_SETS));
            for (Expr k : keys) {
                if (keys.size() > 1 && chance(0.5)) {
                    chosen.add(new Call("", Form.FUNCTION, List.of(k), type, Construct.GROUPING_SETS));
                }
            }
            if (chance(0.6)) {
                chosen.add(new Call("", Form.FUNCTION, List.of(), type, Construct.GROUPING_SETS));
            }
            sets = new Call("GROUPING SETS", Form.FUNCTION, chosen, type, Construct.GROUPING_SETS);
        }
        List<Expr> clause = new ArrayList<>(List.of(sets));
        clause.addAll(rest);
        return clause;
    }

    private Scope scope(List<TableRef> tables, int depth) {
        return scope(tables, depth, List.of());
    }

    private Scope scope(List<TableRef> tables, int depth, List<Column> enclosing) {
        List<Column> columns = new ArrayList<>();
        for (TableRef t : tables) {
            data.table(t.table()).columns().forEach(c -> columns.add(new Column(t.alias(), c)));
        }
        return new Scope(columns, List.of(), false, on.has(Construct.AGGREGATES), on.has(Construct.SUBQUERIES)
                && depth < 2, depth, List.copyOf(tables), enclosing);
    }

    private Column column(TableRef t, String name) {
        return new Column(t.alias(), data.table(t.table()).column(name));
    }

    private Expr expr(SqlType t, Scope s, int depth) {
        if (depth >= MAX_DEPTH || chance(0.35)) {
            return leaf(t, s);
        }
        List<Supplier<Expr>> options = new ArrayList<>();
        boolean scalar = on.has(Construct.SCALAR);
        boolean strings = on.has(Construct.STRINGS);
        boolean dates = on.has(Construct.DATES);
        int d = depth + 1;
        if (scalar && t != SqlType.BOOLEAN) {
            options.add(() -> caseOf(t, s, d));
            options.add(() -> call("COALESCE", Form.FUNCTION, t, Construct.SCALAR, expr(t, s, d), expr(t, s, d)));
        }
        if (scalar && t != SqlType.BOOLEAN && t != SqlType.TIMESTAMP) {
            options.add(() -> call("NULLIF", Form.FUNCTION, t, Construct.SCALAR, expr(t, s, d), expr(t, s, d)));
        }
        if (s.subqueries() && t != SqlType.BOOLEAN) {
            options.add(() -> scalarSubquery(t, s));
        }
        switch (t) {
            case BOOLEAN -> {
                if (scalar) {
                    options.add(() -> comparison(s, d));
                    options.add(() -> comparison(s, d));
                    options.add(() -> call(chance(0.5) ? "AND" : "OR", Form.INFIX, t, Construct.SCALAR,
                            expr(t, s, d), expr(t, s, d)));
                    options.add(() -> call("NOT", Form.PREFIX, t, Construct.SCALAR, expr(t, s, d)));
                    options.add(() -> call(chance(0.5) ? "IS NULL" : "IS NOT NULL", Form.POSTFIX, t,
                            Construct.SCALAR, expr(anyType(), s, d)));
                    options.add(() -> call(pick(List.of("IS TRUE", "IS NOT TRUE", "IS FALSE")), Form.POSTFIX, t,
                            Construct.SCALAR, expr(t, s, d)));
                    options.add(() -> inList(s, d));
                    options.add(() -> between(s, d));
                }
                if (strings) {
                    options.add(() -> call(chance(0.8) ? "LIKE" : "NOT LIKE", Form.INFIX, t, Construct.STRINGS,
                            stringSubject(s, d), new Literal(Value.quote(pick(LIKE_PATTERNS)), SqlType.VARCHAR)));
                }
                if (s.subqueries()) {
                    options.add(() -> existsOrIn(s));
                }
            }
            case INTEGER, BIGINT, DECIMAL, DOUBLE -> {
                if (scalar) {
                    options.add(() -> arithmetic(t, s, d));
                    options.add(() -> arithmetic(t, s, d));
                    options.add(() -> bounded(t, call("-", Form.PREFIX, t, Construct.SCALAR, plainOperand(t, s, d))));
                    options.add(() -> bounded(t, call("ABS", Form.FUNCTION, t, Construct.SCALAR,
                            plainOperand(t, s, d))));
                    if (t == SqlType.DOUBLE) {
                        options.add(() -> call("/", Form.DIVIDE, t, Construct.SCALAR, expr(numericType(), s, d),
                                expr(numericType(), s, d)));
                        options.add(() -> call("DOUBLE", Form.CAST, t, Construct.SCALAR, expr(numericType(), s, d)));
                    }
                    if (t == SqlType.BIGINT) {
                        options.add(() -> call("BIGINT", Form.CAST, t, Construct.SCALAR, expr(SqlType.INTEGER, s, d)));
                    }
                    if (t == SqlType.DECIMAL) {
                        // double to DECIMAL rounds in both (half away from zero); integers convert exactly
                        options.add(() -> bounded(t, call("DECIMAL(12,2)", Form.CAST, t, Construct.SCALAR,
                                plainOperand(pick(List.of(SqlType.INTEGER, SqlType.DOUBLE)), s, d))));
                    }
                }
                if (strings && t == SqlType.INTEGER) {
                    options.add(() -> call("CHAR_LENGTH", Form.FUNCTION, t, Construct.STRINGS,
                            expr(SqlType.VARCHAR, s, d)));
                }
                if (dates && t == SqlType.BIGINT) {
                    options.add(() -> chance(0.5)
                            ? call(pick(List.of("YEAR", "MONTH", "DAY")), Form.EXTRACT, t, Construct.DATES,
                                    expr(SqlType.DATE, s, d))
                            : call(pick(List.of("YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND")), Form.EXTRACT, t,
                                    Construct.DATES, expr(SqlType.TIMESTAMP, s, d)));
                    // a field of the interval between two timestamps (the subtraction is typed by its operands:
                    // shrinking may put a TIMESTAMP in its place, which EXTRACT reads as well)
                    options.add(() -> call(pick(List.of("DAY", "HOUR", "MINUTE", "SECOND")), Form.EXTRACT, t,
                            Construct.DATES, call("-", Form.INFIX, SqlType.TIMESTAMP, Construct.DATES,
                                    expr(SqlType.TIMESTAMP, s, d), expr(SqlType.TIMESTAMP, s, d))));
                }
            }
            case VARCHAR -> {
                if (strings) {
                    options.add(() -> call(chance(0.5) ? "UPPER" : "LOWER", Form.FUNCTION, t, Construct.STRINGS,
                            expr(t, s, d)));
                    options.add(() -> call("FROM " + (1 + rnd.nextInt(4)) + " FOR " + rnd.nextInt(5), Form.SUBSTRING,
                            t, Construct.STRINGS, expr(t, s, d)));
                    options.add(() -> call("||", Form.INFIX, t, Construct.STRINGS, expr(t, s, d), expr(t, s, d)));
                }
                if (scalar) {
                    options.add(() -> call("VARCHAR", Form.CAST, t, Construct.SCALAR,
                            expr(pick(List.of(SqlType.INTEGER, SqlType.BIGINT)), s, d)));
                }
                if (dates) {
                    options.add(() -> call("VARCHAR", Form.CAST, t, Construct.DATES, expr(SqlType.DATE, s, d)));
                }
            }
            case DATE -> {
                if (dates) {
                    options.add(() -> call("DATE", Form.CAST, t, Construct.DATES, expr(SqlType.TIMESTAMP, s, d)));
                }
            }
            case TIMESTAMP -> {
                if (dates) {
                    options.add(() -> call("TIMESTAMP", Form.CAST, t, Construct.DATES, expr(SqlType.DATE, s, d)));
                }
            }
        }
        return options.isEmpty() ? leaf(t, s) : pick(options).get();
    }

    private Expr leaf(SqlType t, Scope s) {
        if (s.grouped()) {
            List<Expr> keys = s.groupKeys().stream().filter(k -> k.type() == t).toList();
            if (!keys.isEmpty() && chance(0.5)) {
                return pick(keys);
            }
            return s.aggregates() && chance(0.8) ? aggregate(t, s) : literal(t);
        }
        List<Column> columns = s.columns().stream().filter(c -> c.type() == t).toList();
        return !columns.isEmpty() && chance(0.75) ? pick(columns) : literal(t);
    }

    /** An operand of arithmetic: any expression whose magnitude is bounded, else a PLAIN column or a literal. */
    private Expr plainOperand(SqlType t, Scope s, int depth) {
        Expr e = expr(t, s, depth);
        if (bound(e) <= limit(t) / 1e3) {
            return e;
        }
        List<Column> plain = s.columns().stream().filter(c -> c.type() == t && c.column().role()
                != ColumnDef.Role.EDGE).toList();
        return !plain.isEmpty() && !s.grouped() && chance(0.7) ? pick(plain) : literal(t);
    }

    private Expr arithmetic(SqlType t, Scope s, int depth) {
        String op = pick(List.of("+", "-", "*"));
        // the other operand's type: no BIGINT beside a DECIMAL (a 19-digit DECIMAL is past Ferry's 18)
        SqlType other = switch (t) {
            case INTEGER -> SqlType.INTEGER;
            case BIGINT -> pick(List.of(SqlType.INTEGER, SqlType.BIGINT));
            case DECIMAL -> pick(List.of(SqlType.INTEGER, SqlType.DECIMAL));
            default -> numericType();
        };
        Expr a = plainOperand(t, s, depth);
        Expr b = plainOperand(other, s, depth);
        if (op.equals("*") && t == SqlType.DECIMAL && other == SqlType.DECIMAL
                && !(isLeaf(a) && isLeaf(b))) {
            // a product's scale is the sum of its factors': nested decimal products would pass 18 digits
            op = "+";
        }
        Expr e = chance(0.5) ? call(op, Form.INFIX, t, Construct.SCALAR, a, b)
                : call(op, Form.INFIX, t, Construct.SCALAR, b, a);
        return bounded(t, e);
    }

    private static boolean isLeaf(Expr e) {
        return e instanceof Column || e instanceof Literal;
    }

    /** {@code e} if its magnitude fits its type, else the literal 1 of that type. */
    private static Expr bounded(SqlType t, Expr e) {
        if (bound(e) <= limit(t)) {
            return e;
        }
        return literal(t, switch (t) {
            case BIGINT -> "CAST(1 AS BIGINT)";
            case DECIMAL -> "1.0";
            case DOUBLE -> "1.0E0";
            default -> "1";
        });
    }

    private static double limit(SqlType t) {
        return switch (t) {
            case INTEGER -> 2e9;
            case BIGINT -> 9e18;
            case DECIMAL -> 1e11;
            default -> 1e200;
        };
    }

    /** An upper bound of |value| of a numeric expression (infinite for EDGE columns and what computes on them). */
    static double bound(Expr e) {
        if (e instanceof Column c) {
            return switch (c.column().role()) {
                case EDGE -> Double.POSITIVE_INFINITY;
                case ID -> 1e5;
                case KEY -> Dataset.KEY_DOMAIN;
                case PLAIN -> switch (c.type()) {
                    case INTEGER -> 100;
                    case BIGINT -> 1e6;
                    default -> 1e4;
                };
            };
        }
        if (e instanceof Literal l) {
            String sql = l.sql();
            Matcher m = CAST_NUMBER.matcher(sql);
            if (m.matches()) {
                sql = m.group(1);
            }
            Matcher i = INTEGER_LITERAL.matcher(sql);
            if (i.matches()) {
                return Math.abs(Double.parseDouble(i.group(1)));
            }
            try {
                return Math.abs(Double.parseDouble(sql));
            } catch (NumberFormatException notNumber) {
                return 0;
            }
        }
        if (e instanceof Expr.Subquery sub) {
            return sub.kind() == SubqueryKind.SCALAR ? bound(sub.query().items().get(0)) : 1;
        }
        if (e instanceof Expr.Window w) {
            return switch (w.function().name()) {
                case "ROW_NUMBER", "RANK", "DENSE_RANK", "NTILE", "COUNT" -> 1e6;
                case "SUM" -> bound(w.function().args().get(0)) * SUM_ROWS;
                default -> bound(w.function().args().get(0));
            };
        }
        Call c = (Call) e;
        List<Double> args = c.args().stream().map(QueryGenerator::bound).toList();
        double max = args.stream().mapToDouble(Double::doubleValue).max().orElse(0);
        return switch (c.form()) {
            case INFIX -> switch (c.name()) {
                case "+", "-" -> args.get(0) + args.get(1);
                case "*" -> args.get(0) * args.get(1);
                default -> 1;
            };
            // the days between two timestamps reach 10^6 (years 1 to 9999: 3.65 10^6)
            case EXTRACT -> c.args().get(0) instanceof Call between && between.form() == Form.INFIX ? 4e6 : 1e4;
            case DIVIDE -> 1e12;
            case AGGREGATE, AGGREGATE_DISTINCT -> switch (c.name()) {
                case "COUNT" -> 1e6;
                case "SUM" -> max * SUM_ROWS;
                default -> max;
            };
            case FUNCTION -> c.name().equals("CHAR_LENGTH") ? 100 : max;
            default -> max;
        };
    }

    private Expr comparison(Scope s, int depth) {
        SqlType t = anyType();
        SqlType u = t.numeric() ? numericType() : t;
        return call(pick(COMPARISONS), Form.INFIX, SqlType.BOOLEAN, Construct.SCALAR, expr(t, s, depth),
                expr(u, s, depth));
    }

    private static Expr compare(String op, Expr a, Expr b) {
        return new Call(op, Form.INFIX, List.of(a, b), SqlType.BOOLEAN, Construct.SCALAR);
    }

    private static Expr and(List<Expr> conjuncts) {
        return conjuncts.size() == 1 ? conjuncts.get(0)
                : new Call("AND", Form.INFIX, conjuncts, SqlType.BOOLEAN, Construct.SCALAR);
    }

    private Expr inList(Scope s, int depth) {
        SqlType t = anyType();
        List<Expr> args = new ArrayList<>();
        args.add(t == SqlType.VARCHAR ? stringSubject(s, depth) : expr(t, s, depth));
        for (int n = 1 + rnd.nextInt(4); n > 0; n--) {
            args.add(chance(0.1) ? Literal.nullOf(t) : literal(t));
        }
        return new Call(chance(0.7) ? "IN" : "NOT IN", Form.IN_LIST, args, SqlType.BOOLEAN, Construct.SCALAR);
    }

    private Expr between(Scope s, int depth) {
        SqlType t = anyType();
        return call(chance(0.8) ? "BETWEEN" : "NOT BETWEEN", Form.BETWEEN, SqlType.BOOLEAN, Construct.SCALAR,
                expr(t, s, depth), literal(t), literal(t));
    }

    /**
     * What LIKE matches, and a VARCHAR IN list's operand: not a NULLIF or CASE, which DuckDB 2.0.0 (its JDBC driver
     * 2.0.0.1) gets wrong in a WHERE clause, {@code NULLIF('abc', s) LIKE '%c'} and {@code NULLIF('abc', s) IN
     * ('abc', 'q')} dropping rows where s is NULL (2.0.1 answers the LIKE right; seed 49 query 5118 and seed 54
     * query 1569 were the IN).
     */
    private Expr stringSubject(Scope s, int depth) {
        Expr e = expr(SqlType.VARCHAR, s, depth);
        return e instanceof Call c && (c.name().equals("NULLIF") || c.name().equals("CASE")) ? leaf(SqlType.VARCHAR, s)
                : e;
    }

    private Expr caseOf(SqlType t, Scope s, int depth) {
        List<Expr> args = new ArrayList<>();
        for (int n = 1 + rnd.nextInt(2); n > 0; n--) {
            args.add(expr(SqlType.BOOLEAN, s, depth));
            args.add(expr(t, s, depth));
        }
        if (chance(0.7)) {
            args.add(expr(t, s, depth));
        }
        return new Call("CASE", Form.CASE, args, t, Construct.SCALAR);
    }

    private Expr aggregate(SqlType t, Scope s) {
        Scope rows = s.rows();
        List<Supplier<Expr>> options = new ArrayList<>();
        options.add(() -> call(chance(0.5) ? "MIN" : "MAX", Form.AGGREGATE, t, Construct.AGGREGATES,
                expr(t, rows, 2)));
        switch (t) {
            case BIGINT -> {
                options.add(() -> new Call("COUNT", Form.AGGREGATE, List.of(), t, Construct.AGGREGATES));
                options.add(() -> call("COUNT", Form.AGGREGATE, t, Construct.AGGREGATES, expr(anyType(), rows, 2)));
                options.add(() -> call("COUNT", Form.AGGREGATE_DISTINCT, t, Construct.AGGREGATES,
                        expr(anyType(), rows, 2)));
                options.add(() -> sum(pick(List.of(SqlType.INTEGER, SqlType.BIGINT)), t, rows));
            }
            case DOUBLE -> {
                options.add(() -> call("AVG", Form.AGGREGATE, t, Construct.AGGREGATES, expr(numericType(), rows, 2)));
                options.add(() -> sum(SqlType.DOUBLE, t, rows));
            }
            case DECIMAL -> options.add(() -> sum(SqlType.DECIMAL, t, rows));
            default -> {
            }
        }
        return pick(options).get();
    }

    /**
     * SUM of a bare column may sum edge values: DuckDB sums integers into a HUGEINT, Ferry into a BIGINT that should
     * report overflow (22003) rather than wrap. SUM of anything else is bounded like arithmetic.
     */
    private Expr sum(SqlType argType, SqlType t, Scope rows) {
        Expr arg = expr(argType, rows, 2);
        if (!(arg instanceof Column) && bound(arg) * SUM_ROWS > limit(t)) {
            arg = literal(argType);
        }
        Call sum = call("SUM", Form.AGGREGATE, t, Construct.AGGREGATES, arg);
        return t == SqlType.DECIMAL ? withinDuckDbDigits(sum) : sum;
    }

    /**
     * A SUM of DECIMALs, a DECIMAL(38, s) in both engines, cast to DECIMAL(18, 3). Where the common type of such a
     * sum and a DECIMAL of a larger scale would need more than 38 digits (a CASE, COALESCE, IN list or UNION of
     * both), DuckDB drops fraction digits and Ferry drops integral ones, which the values never need: DuckDB's
     * answer is then not the oracle's ("DuckDB's scale cuts", docs/fuzzing.md; seeds 41 to 51 found 20). Sums stay
     * far below 15 integral digits ({@link #limit}), and a scale above 3 rounds alike in both.
     */
    private static Expr withinDuckDbDigits(Expr decimalSum) {
        return call("DECIMAL(18,3)", Form.CAST, SqlType.DECIMAL, Construct.SCALAR, decimalSum);
    }

    /** ROWS frames, which need a total order (the rows a frame holds depend on the order of ties). */
    private static final List<String> ROWS_FRAMES = List.of("ROWS BETWEEN 2 PRECEDING AND CURRENT ROW",
            "ROWS UNBOUNDED PRECEDING", "ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW",
            "ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING");

    /**
     * RANGE frames with offsets, over one numeric ORDER BY key: peers share their frame, so any order of ties gives
     * the same answers. Whole offsets: DuckDB wants an offset of the key's type.
     */
    private static final List<String> RANGE_FRAMES = List.of("RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING",
            "RANGE BETWEEN 5 PRECEDING AND CURRENT ROW", "RANGE BETWEEN CURRENT ROW AND 3 FOLLOWING",
            "RANGE BETWEEN UNBOUNDED PRECEDING AND 2 PRECEDING", "RANGE BETWEEN 2 FOLLOWING AND 100 FOLLOWING",
            "RANGE BETWEEN 10 PRECEDING AND UNBOUNDED FOLLOWING");

    /**
     * A window function. Functions whose answer depends on the order of ties (ROW_NUMBER, NTILE, LAG, LEAD,
     * FIRST_VALUE, NTH_VALUE, and any aggregate over a ROWS frame) order by the ids of every table in FROM after their
     * own key, a total order; RANK, DENSE_RANK and aggregates over the default RANGE frame or one with offsets are
     * deterministic under any order.
     */
    private Expr window(Scope s) {
        Scope rows = s.rows();
        List<Expr> partition = new ArrayList<>();
        for (int n = rnd.nextInt(3); n > 0; n--) {
            partition.add(chance(0.8) ? pick(s.columns()) : key(expr(anyType(), rows, 2), s));
        }
        List<SortItem> order = new ArrayList<>();
        List<String> constants = new ArrayList<>();
        boolean total = false;
        String frame = "";
        Call function;
        switch (rnd.nextInt(9)) {
            case 0 -> {
                function = windowFunction(chance(0.5) ? "ROW_NUMBER" : "NTILE", SqlType.BIGINT);
                if (function.name().equals("NTILE")) {
                    constants.add(pick(List.of("1", "2", "3", "7")));
                }
                total = true;
            }
            case 1 -> {
                function = windowFunction(chance(0.5) ? "RANK" : "DENSE_RANK", SqlType.BIGINT);
                for (int n = 1 + rnd.nextInt(2); n > 0; n--) {
                    order.add(sortItem(expr(anyType(), rows, 2), s));
                }
            }
            case 2 -> function = new Call("COUNT", Form.AGGREGATE, List.of(), SqlType.BIGINT, Construct.WINDOWS);
            case 3 -> {
                SqlType t = pick(List.of(SqlType.INTEGER, SqlType.BIGINT, SqlType.DOUBLE, SqlType.DECIMAL));
                Expr arg = plainOperand(t, rows, 2);
                function = new Call("SUM", Form.AGGREGATE, List.of(arg),
                        t == SqlType.INTEGER ? SqlType.BIGINT : t, Construct.WINDOWS);
            }
            case 4 -> function = new Call("AVG", Form.AGGREGATE, List.of(plainOperand(numericType(), rows, 2)),
                    SqlType.DOUBLE, Construct.WINDOWS);
            case 5, 6 -> {
                SqlType t = anyType();
                String name = pick(List.of("LAG", "LEAD", "FIRST_VALUE", "NTH_VALUE"));
                function = new Call(name, Form.FUNCTION, List.of(expr(t, rows, 2)), t, Construct.WINDOWS);
                if (name.equals("NTH_VALUE")) {
                    constants.add(pick(List.of("1", "2", "3")));
                } else if (!name.equals("FIRST_VALUE") && chance(0.6)) {
                    constants.add(pick(List.of("1", "2", "3")));
                    // a default only of a type whose literals both dialects type alike
                    if ((t == SqlType.INTEGER || t == SqlType.VARCHAR) && chance(0.5)) {
                        constants.add(literal(t).sql());
                    }
                }
                total = true;
            }
            default -> {
                SqlType t = anyType();
                function = new Call(chance(0.5) ? "MIN" : "MAX", Form.AGGREGATE, List.of(expr(t, rows, 2)), t,
                        Construct.WINDOWS);
            }
        }
        boolean aggregate = function.form() == Form.AGGREGATE;
        boolean framed = aggregate || function.name().equals("FIRST_VALUE") || function.name().equals("NTH_VALUE");
        if (framed && chance(0.3)) {
            frame = pick(ROWS_FRAMES);
            total = true;
        } else if (aggregate && !total && order.isEmpty() && chance(0.3)) {
            Expr key = plainOperand(numericType(), rows, 2);
            if (!Expr.positionLike(key)) {
                order.add(new SortItem(key, chance(0.3), chance(0.5)));
                frame = pick(RANGE_FRAMES);
            }
        }
        if (total) {
            if (chance(0.5)) {
                order.add(sortItem(expr(anyType(), rows, 2), s));
            }
            for (TableRef t : s.tables()) {
                order.add(sortItem(column(t, "id"), s));
            }
        }
        if (order.isEmpty() && chance(0.6)) {
            order.add(sortItem(expr(anyType(), rows, 2), s));
        }
        if (!frame.isEmpty() && chance(0.3)) {
            // which rows are excluded is fixed by the frame's kind and the row's peers: as deterministic as the frame
            frame += pick(List.of(" EXCLUDE CURRENT ROW", " EXCLUDE GROUP", " EXCLUDE TIES"));
        }
        Expr.Window w = new Expr.Window(function, partition, order, constants, frame);
        return function.name().equals("SUM") && function.type() == SqlType.DECIMAL ? withinDuckDbDigits(w) : w;
    }

    private static Call windowFunction(String name, SqlType type) {
        return new Call(name, Form.FUNCTION, List.of(), type, Construct.WINDOWS);
    }

    /**
     * A grouping or sort key that is not a literal, nor a negated one: DuckDB reads an integer literal in GROUP BY
     * or ORDER BY as a column position, Calcite as a constant ({@link Expr#positionLike}).
     */
    private Expr key(Expr e, Scope s) {
        return Expr.positionLike(e) ? pick(s.columns()) : e;
    }

    private SortItem sortItem(Expr e, Scope s) {
        return new SortItem(key(e, s), chance(0.3), chance(0.5));
    }

    /**
     * A subquery's FROM, and its WHERE: a filter, and (half the time) a correlation on a join key of the enclosing
     * query or of one enclosing it.
     */
    private Select subquery(Scope outer, java.util.function.Function<Scope, Expr> item, boolean aggregateItem) {
        int depth = outer.depth() + 1;
        TableRef t = new TableRef(pick(data.tables()).name(), (char) ('a' + depth) + "0");
        List<Column> correlatable = outer.correlatable();
        Scope inner = scope(List.of(t), depth, correlatable);
        List<Expr> where = new ArrayList<>();
        if (chance(0.5)) {
            String key = chance(0.7) ? "k" : "g";
            List<Column> outerKeys = correlatable.stream().filter(c -> c.column().name().equals(key)).toList();
            if (!outerKeys.isEmpty()) {
                where.add(compare("=", column(t, key), pick(outerKeys)));
            }
        }
        if (on.has(Construct.FILTERS) && chance(0.5)) {
            where.add(expr(SqlType.BOOLEAN, inner, 1));
        }
        Scope itemScope = aggregateItem ? new Scope(inner.columns(), List.of(), true, true, false, depth, List.of(t),
                correlatable)
                : inner.withoutSubqueries();
        return new Select(false, List.of(item.apply(itemScope)), t, List.of(), where, List.of(), List.of(), List.of(),
                null, null);
    }

    private Expr existsOrIn(Scope s) {
        if (chance(0.4)) {
            Select q = subquery(s, x -> new Literal("1", SqlType.INTEGER), false);
            return new Expr.Subquery(chance(0.6) ? SubqueryKind.EXISTS : SubqueryKind.NOT_EXISTS, null, q,
                    SqlType.BOOLEAN);
        }
        SqlType t = pick(List.of(SqlType.INTEGER, SqlType.INTEGER, SqlType.VARCHAR, SqlType.BIGINT, SqlType.DATE,
                SqlType.DECIMAL, SqlType.DOUBLE));
        Select q = subquery(s, x -> expr(t, x, 2), chance(0.25));
        return new Expr.Subquery(chance(0.65) ? SubqueryKind.IN : SubqueryKind.NOT_IN, expr(t, s.withoutSubqueries(),
                2), q, SqlType.BOOLEAN);
    }

    /** A subquery that gives one row: a global aggregate. */
    private Expr scalarSubquery(SqlType t, Scope s) {
        Select q = subquery(s, x -> aggregate(t, x), true);
        return new Expr.Subquery(SubqueryKind.SCALAR, null, q, t);
    }

    private Literal literal(SqlType t) {
        if (chance(0.05)) {
            return Literal.nullOf(t);
        }
        return switch (t) {
            case BOOLEAN -> literal(t, chance(0.5) ? "TRUE" : "FALSE");
            case INTEGER -> literal(t, pick(List.of("0", "1", "-1", "2", "3", "5", "7", "10", "39", "42", "100",
                    "-100", "2147483647")));
            case BIGINT -> literal(t, pick(List.of("CAST(0 AS BIGINT)", "CAST(7 AS BIGINT)", "3000000000",
                    "-3000000000", "CAST(-500000 AS BIGINT)", "CAST('9223372036854775807' AS BIGINT)")));
            case DECIMAL -> literal(t, pick(List.of("0.5", "-1.25", "0.00", "12.345", "100.0", "-0.001", "3")));
            case DOUBLE -> literal(t, pick(List.of("0.5E0", "-2.25E0", "0.0E0", "1.0E3", "CAST('-0.0' AS DOUBLE)",
                    "1.0E300", "-7.75E0")));
            case DATE -> literal(t, "DATE '" + pick(List.of(Dataset.EDGE_DATES.get(rnd.nextInt(5)).toString(),
                    "1995-06-15", "2010-01-01", "2024-12-31")) + "'");
            case TIMESTAMP -> literal(t, "TIMESTAMP '" + pick(List.of("1500-03-01 00:00:00", "1970-01-01 00:00:00",
                    "1999-12-31 23:59:59", "2010-06-01 12:30:00", "2999-12-31 23:59:59")) + "'");
            case VARCHAR -> {
                // strings outside Latin-1 one time in ten: Ferry's parser refuses them (reported as a bug), and
                // more often would hide what else a query finds
                List<String> latin1 = Dataset.STRINGS.stream().filter(Value::latin1).toList();
                yield literal(t, Value.quote(chance(0.1) ? pick(Dataset.STRINGS) : pick(latin1)));
            }
        };
    }

    private static Literal literal(SqlType t, String sql) {
        return new Literal(sql, t);
    }

    private static Call call(String name, Form form, SqlType type, Construct family, Expr... args) {
        return new Call(name, form, List.of(args), type, family);
    }

    private SqlType anyType() {
        return pick(List.of(SqlType.values()));
    }

    private SqlType numericType() {
        return pick(List.of(SqlType.INTEGER, SqlType.BIGINT, SqlType.DECIMAL, SqlType.DOUBLE));
    }

    private boolean chance(double p) {
        return rnd.nextDouble() < p;
    }

    private <T> T pick(List<T> options) {
        return options.get(rnd.nextInt(options.size()));
    }
}
