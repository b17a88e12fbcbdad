package io.ferry.bench.fuzz;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

import io.ferry.bench.fuzz.Expr.Call;
import io.ferry.bench.fuzz.Expr.Form;
import io.ferry.bench.fuzz.Expr.Literal;
import io.ferry.bench.fuzz.Query.Join;
import io.ferry.bench.fuzz.Query.JoinType;
import io.ferry.bench.fuzz.Query.Select;
import io.ferry.bench.fuzz.Query.SetOperation;
import io.ferry.bench.fuzz.Query.SortKey;

/**
 * Greedy reduction of a failing query on its AST: tries one simplification at a time — drop a join, a WHERE or
 * HAVING conjunct, a select item, a GROUP BY key, DISTINCT, LIMIT; make an outer join inner; replace an expression by
 * a child of its type or by a literal — keeps the first that still fails, and starts over until none does. Every
 * accepted step makes the SQL strictly shorter, so it ends. The rewrites only remove or replace nodes, so the
 * generator's dialect guards (Form.DIVIDE, fixed window orderings, sort keys over every column) stay in place;
 * GROUP BY and PARTITION BY keys never become literals or negated ones, which DuckDB would read as column positions.
 */
public final class Shrinker {
    private final Predicate<Query> reproduces;
    private final int maxTries;
    private int tries;

    /** {@code reproduces} says whether a candidate still fails the same way; it is asked at most maxTries times. */
    public Shrinker(Predicate<Query> reproduces, int maxTries) {
        this.reproduces = requireNonNull(reproduces, "reproduces is null");
        this.maxTries = maxTries;
    }

    public Query shrink(Query query) {
        Query current = query;
        Set<String> tried = new HashSet<>();
        boolean progress = true;
        while (progress && tries < maxTries) {
            progress = false;
            for (Query candidate : candidates(current)) {
                String sql = candidate.sql();
                if (sql.length() >= current.sql().length() || !tried.add(sql)) {
                    continue;
                }
                if (tries++ >= maxTries) {
                    break;
                }
                if (reproduces.test(candidate)) {
                    current = candidate;
                    progress = true;
                    break;
                }
            }
        }
        return current;
    }

    /** How many candidates were run. */
    public int tries() {
        return tries;
    }

    static List<Query> candidates(Query q) {
        if (q instanceof SetOperation s) {
            List<Query> out = new ArrayList<>(List.of(s.left(), s.right()));
            for (int i = 0; i < s.left().items().size() && s.left().items().size() > 1; i++) {
                out.add(new SetOperation(s.operator(), dropItem(s.left(), i), dropItem(s.right(), i)));
            }
            selectCandidates(s.left()).forEach(l -> out.add(new SetOperation(s.operator(), l, s.right())));
            selectCandidates(s.right()).forEach(r -> out.add(new SetOperation(s.operator(), s.left(), r)));
            return out;
        }
        return new ArrayList<>(selectCandidates((Select) q));
    }

    static List<Select> selectCandidates(Select s) {
        List<Select> out = new ArrayList<>();
        for (int j = s.joins().size() - 1; j >= 0; j--) {
            out.add(s.with(s.items(), without(s.joins(), j), s.where(), s.groupBy(), s.having(), s.orderBy()));
        }
        for (int j = 0; j < s.joins().size(); j++) {
            Join join = s.joins().get(j);
            if (join.type() != JoinType.INNER) {
                out.add(s.with(s.items(), replace(s.joins(), j, new Join(JoinType.INNER, join.table(), join.on())),
                        s.where(), s.groupBy(), s.having(), s.orderBy()));
            }
        }
        for (int i = 0; i < s.where().size(); i++) {
            out.add(s.with(s.items(), s.joins(), without(s.where(), i), s.groupBy(), s.having(), s.orderBy()));
        }
        for (int i = 0; i < s.having().size(); i++) {
            out.add(s.with(s.items(), s.joins(), s.where(), s.groupBy(), without(s.having(), i), s.orderBy()));
        }
        for (int i = 0; s.items().size() > 1 && i < s.items().size(); i++) {
            out.add(dropItem(s, i));
        }
        for (int i = 0; i < s.groupBy().size(); i++) {
            out.add(s.with(s.items(), s.joins(), s.where(), without(s.groupBy(), i), s.having(), s.orderBy()));
        }
        if (s.distinct()) {
            out.add(new Select(false, s.items(), s.from(), s.joins(), s.where(), s.groupBy(), s.having(), s.orderBy(),
                    s.limit(), s.offset()));
        }
        if (s.offset() != null) {
            out.add(new Select(s.distinct(), s.items(), s.from(), s.joins(), s.where(), s.groupBy(), s.having(),
                    s.orderBy(), s.limit(), null));
        }
        if (s.limit() != null) {
            out.add(new Select(s.distinct(), s.items(), s.from(), s.joins(), s.where(), s.groupBy(), s.having(),
                    s.orderBy(), null, null));
        } else if (!s.orderBy().isEmpty()) {
            // without LIMIT the order may go: the answers are then compared as multisets
            out.add(s.with(s.items(), s.joins(), s.where(), s.groupBy(), s.having(), List.of()));
        }
        List<Expr> slots = Query.expressions(s);
        int firstKey = s.items().size() + s.joins().size() + s.where().size();
        for (int slot = 0; slot < slots.size(); slot++) {
            boolean key = slot >= firstKey && slot < firstKey + s.groupBy().size();
            for (Expr e : exprCandidates(slots.get(slot))) {
                if (!(key && Expr.positionLike(e))) {
                    out.add(replaceSlot(s, slot, e));
                }
            }
        }
        return out;
    }

    /** Without item i, and its sort key; the other keys renumbered. */
    private static Select dropItem(Select s, int i) {
        List<SortKey> order = new ArrayList<>();
        for (SortKey k : s.orderBy()) {
            if (k.ordinal() != i + 1) {
                order.add(new SortKey(k.ordinal() > i + 1 ? k.ordinal() - 1 : k.ordinal(), k.descending(),
                        k.nullsFirst()));
            }
        }
        return s.with(without(s.items(), i), s.joins(), s.where(), s.groupBy(), s.having(), order);
    }

    /** The SELECT with its slot-th expression (in {@link Query#expressions} order) replaced. */
    private static Select replaceSlot(Select s, int slot, Expr e) {
        int n = slot;
        if (n < s.items().size()) {
            return s.with(replace(s.items(), n, e), s.joins(), s.where(), s.groupBy(), s.having(), s.orderBy());
        }
        n -= s.items().size();
        if (n < s.joins().size()) {
            Join j = s.joins().get(n);
            return s.with(s.items(), replace(s.joins(), n, new Join(j.type(), j.table(), e)), s.where(), s.groupBy(),
                    s.having(), s.orderBy());
        }
        n -= s.joins().size();
        if (n < s.where().size()) {
            return s.with(s.items(), s.joins(), replace(s.where(), n, e), s.groupBy(), s.having(), s.orderBy());
        }
        n -= s.where().size();
        if (n < s.groupBy().size()) {
            return s.with(s.items(), s.joins(), s.where(), replace(s.groupBy(), n, e), s.having(), s.orderBy());
        }
        n -= s.groupBy().size();
        return s.with(s.items(), s.joins(), s.where(), s.groupBy(), replace(s.having(), n, e), s.orderBy());
    }

    /** Simpler versions of {@code e}: itself replaced whole first, then each of its children simplified. */
    static List<Expr> exprCandidates(Expr e) {
        List<Expr> out = new ArrayList<>();
        for (Expr child : e.children()) {
            if (child.type() == e.type() && !(e instanceof Expr.Window)) {
                out.add(child);
            }
        }
        if (!(e instanceof Literal)) {
            out.addAll(simplest(e.type()));
        }
        if (e instanceof Call c && variadic(c)) {
            int first = c.form() == Form.IN_LIST ? 1 : 0;
            int step = c.form() == Form.CASE ? 2 : 1;
            // what stays is still a call: an operand and one IN element, one WHEN pair, two operands
            for (int i = first; i + step <= c.args().size() && c.args().size() - step >= 2; i += step) {
                List<Expr> args = new ArrayList<>(c.args());
                args.subList(i, i + step).clear();
                out.add(c.withChildren(args));
            }
        }
        if (e instanceof Expr.Subquery sub) {
            for (Select q : selectCandidates(sub.query())) {
                out.add(sub.withQuery(q));
            }
        }
        List<Expr> children = e.children();
        // a window's partition keys follow its function's arguments; every argument of ROLLUP, CUBE and a
        // grouping set is a key
        int firstKey = e instanceof Expr.Window w ? w.function().args().size()
                : e instanceof Call c && c.family() == Construct.GROUPING_SETS ? 0 : children.size();
        for (int i = 0; i < children.size(); i++) {
            for (Expr c : exprCandidates(children.get(i))) {
                if (!(i >= firstKey && Expr.positionLike(c))) {
                    out.add(e.withChildren(replace(children, i, c)));
                }
            }
        }
        return out;
    }

    private static boolean variadic(Call c) {
        return switch (c.form()) {
            case IN_LIST, CASE -> true;
            case INFIX -> c.name().equals("AND") || c.name().equals("OR");
            case FUNCTION -> c.name().equals("COALESCE") || c.family() == Construct.GROUPING_SETS;
            default -> false;
        };
    }

    /** The literals an expression of type t may become: the simplest value(s), then NULL. */
    static List<Expr> simplest(SqlType t) {
        List<String> values = switch (t) {
            case BOOLEAN -> List.of("TRUE", "FALSE");
            case INTEGER -> List.of("0", "1");
            case BIGINT -> List.of("CAST(0 AS BIGINT)");
            case DECIMAL -> List.of("0.0");
            case DOUBLE -> List.of("0.0E0");
            case DATE -> List.of("DATE '2000-01-01'");
            case TIMESTAMP -> List.of("TIMESTAMP '2000-01-01 00:00:00'");
            case VARCHAR -> List.of("''", "'a'");
        };
        List<Expr> out = new ArrayList<>();
        values.forEach(v -> out.add(new Literal(v, t)));
        out.add(Literal.nullOf(t));
        return out;
    }

    private static <T> List<T> without(List<T> list, int i) {
        List<T> out = new ArrayList<>(list);
        out.remove(i);
        return out;
    }

    private static <T> List<T> replace(List<T> list, int i, T value) {
        List<T> out = new ArrayList<>(list);
        out.set(i, value);
        return out;
    }
}
