package io.ferry.bench.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.ferry.bench.fuzz.Expr.Call;
import io.ferry.bench.fuzz.Expr.Column;
import io.ferry.bench.fuzz.Expr.Form;
import io.ferry.bench.fuzz.Expr.Literal;
import io.ferry.bench.fuzz.Query.Join;
import io.ferry.bench.fuzz.Query.JoinType;
import io.ferry.bench.fuzz.Query.Select;
import io.ferry.bench.fuzz.Query.SortKey;
import io.ferry.bench.fuzz.Query.TableRef;

class ShrinkerTest {
    private static final ColumnDef K = new ColumnDef("k", SqlType.INTEGER, "INTEGER", ColumnDef.Role.KEY);
    private static final ColumnDef I = new ColumnDef("i", SqlType.INTEGER, "INTEGER", ColumnDef.Role.PLAIN);
    private static final ColumnDef S = new ColumnDef("s", SqlType.VARCHAR, "VARCHAR", ColumnDef.Role.PLAIN);

    private static Call call(String name, Form form, SqlType type, Expr... args) {
        return new Call(name, form, List.of(args), type, Construct.SCALAR);
    }

    /** The subexpression the fake engine trips over. */
    private static final Expr CULPRIT = call("-", Form.PREFIX, SqlType.INTEGER, new Column("a0", I));

    @Test
    void shrinksToTheOneSubexpressionThatFails() {
        Expr item = call("CASE", Form.CASE, SqlType.INTEGER,
                call(">", Form.INFIX, SqlType.BOOLEAN, new Column("a1", I), new Literal("3", SqlType.INTEGER)),
                call("+", Form.INFIX, SqlType.INTEGER, CULPRIT, new Column("a1", K)),
                new Literal("7", SqlType.INTEGER));
        Select query = new Select(true, List.of(new Column("a0", S), item, call("UPPER", Form.FUNCTION,
                SqlType.VARCHAR, new Column("a1", S))), new TableRef("t0", "a0"),
                List.of(new Join(JoinType.LEFT, new TableRef("t1", "a1"), call("=", Form.INFIX, SqlType.BOOLEAN,
                        new Column("a0", K), new Column("a1", K)))),
                List.of(call("IS NOT NULL", Form.POSTFIX, SqlType.BOOLEAN, new Column("a0", S)),
                        call("<", Form.INFIX, SqlType.BOOLEAN, new Column("a0", I), new Literal("10", SqlType.INTEGER))),
                List.of(), List.of(), List.of(new SortKey(1, false, true), new SortKey(2, true, false),
                        new SortKey(3, false, false)), 10, 2);
        // a fake oracle: the query "fails" while it is valid (no column of a dropped table) and holds the culprit
        Shrinker shrinker = new Shrinker(q -> q.sql().contains(CULPRIT.sql())
                && (q.sql().contains("JOIN t1 a1") || !q.sql().contains("a1.")), 500);
        Query small = shrinker.shrink(query);
        assertEquals("SELECT (- a0.i) FROM t0 a0", small.sql());
        assertTrue(shrinker.tries() < 500, "tries " + shrinker.tries());
    }

    @Test
    void keepsTheLimitWhileTheOrderIsTotal() {
        Select query = new Select(false, List.of(new Column("a0", I), new Column("a0", S)), new TableRef("t0", "a0"),
                List.of(), List.of(), List.of(), List.of(), List.of(new SortKey(1, true, true),
                        new SortKey(2, false, false)), 5, null);
        // fails only with the LIMIT over a0.i: the shrinker must keep a sort key on every item that remains
        Query small = new Shrinker(q -> q.sql().contains("LIMIT 5") && q.sql().contains("a0.i"), 100).shrink(query);
        assertEquals("SELECT a0.i FROM t0 a0 ORDER BY 1 DESC NULLS FIRST LIMIT 5", small.sql());
    }

    @Test
    void neverTurnsAGroupingKeyIntoALiteral() {
        Select query = new Select(false, List.of(new Call("COUNT", Form.AGGREGATE, List.of(), SqlType.BIGINT,
                Construct.AGGREGATES)), new TableRef("t0", "a0"), List.of(), List.of(), List.of(new Column("a0", K)),
                List.of(), List.of(), null, null);
        Query small = new Shrinker(q -> true, 100).shrink(query);
        assertEquals("SELECT COUNT(*) FROM t0 a0", small.sql(), "the key may go, but not become GROUP BY 0");
        for (Query c : Shrinker.candidates(query)) {
            assertTrue(!c.sql().contains("GROUP BY 0") && !c.sql().contains("GROUP BY CAST"), c.sql());
        }
    }
}
