package io.ferry.core.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.ferry.core.FerryException;
import io.ferry.core.expr.Call;
import io.ferry.core.expr.Expr;
import io.ferry.core.expr.InputRef;
import io.ferry.core.expr.Literal;
import io.ferry.core.expr.Op;
import io.ferry.core.storage.TableRef;
import io.ferry.core.types.Column;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TableSchema;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;

class PlanCodecTest {
    private static final TableSchema LINEORDER = TableSchema.of(new Column("k", FerryType.BIGINT, false),
            new Column("price", FerryType.decimal(12, 2), true), new Column("d", FerryType.DATE, true),
            new Column("name", FerryType.VARCHAR, true), new Column("x", FerryType.DOUBLE, true));
    private static final TableSchema DIM = TableSchema.of(new Column("k", FerryType.BIGINT, false),
            new Column("ts", FerryType.TIMESTAMP, true), new Column("flag", FerryType.BOOLEAN, true),
            new Column("n", FerryType.INTEGER, true));

    /** A plan with every node kind, expression kind and type. */
    static PlanNode everything() {
        PlanNode.Scan fact = new PlanNode.Scan(new TableRef("lineorder", LINEORDER), new int[] {0, 1, 2, 3, 4},
                new SampleSpec(SampleSpec.Method.BERNOULLI, 12.5, 42));
        PlanNode.Scan dim = new PlanNode.Scan(new TableRef("dim", DIM), new int[] {0, 1, 2, 3},
                SampleSpec.fresh(SampleSpec.Method.SYSTEM, 50));
        Expr cond = new Call(Op.AND, List.of(
                new Call(Op.GT, List.of(new InputRef(1, FerryType.decimal(12, 2)),
                        new Literal(1050L, FerryType.decimal(12, 2))), FerryType.BOOLEAN),
                new Call(Op.LIKE, List.of(new InputRef(3, FerryType.VARCHAR), new Literal("a%€", FerryType.VARCHAR)),
                        FerryType.BOOLEAN),
                new Call(Op.IS_NOT_NULL, List.of(new InputRef(4, FerryType.DOUBLE)), FerryType.BOOLEAN),
                new Call(Op.LT, List.of(new InputRef(4, FerryType.DOUBLE), new Literal(2.5, FerryType.DOUBLE)),
                        FerryType.BOOLEAN),
                new Call(Op.IS_NULL, List.of(Literal.nullOf(FerryType.DATE)), FerryType.BOOLEAN)), FerryType.BOOLEAN);
        PlanNode join = new PlanNode.Join(new PlanNode.Filter(fact, cond), dim, JoinKind.LEFT, new int[] {0},
                new int[] {0}, new Call(Op.NE, List.of(new InputRef(0, FerryType.BIGINT),
                        new InputRef(8, FerryType.INTEGER)), FerryType.BOOLEAN));
        PlanNode project = new PlanNode.Project(join, List.of(new InputRef(0, FerryType.BIGINT),
                new InputRef(1, FerryType.decimal(12, 2)), new InputRef(7, FerryType.BOOLEAN)));
        PlanNode.Aggregate agg = new PlanNode.Aggregate(project, new int[] {2}, List.of(
                new AggCall(AggCall.AggKind.COUNT, -1, FerryType.BIGINT),
                new AggCall(AggCall.AggKind.AVG, 1, FerryType.DOUBLE)));
        PlanNode merge = new PlanNode.MergeAggregate(agg, new PlanNode.Gather(new PlanNode.PartialAggregate(agg)));
        Batch rows = new Batch(3, new io.ferry.core.vector.Vector[] {
                new LongVector(new long[] {1, 2, 3}, new boolean[] {false, true, false}, 3),
                new DoubleVector(new double[] {0.5, 1.5, -2}, null, 3), BytesVector.of("x", null, "ü")});
        PlanNode values = new PlanNode.Values(List.of(FerryType.BIGINT, FerryType.DOUBLE, FerryType.VARCHAR), rows);
        PlanNode join2 = new PlanNode.Join(merge, new PlanNode.Aggregate(values, new int[0], List.of(
                new AggCall(AggCall.AggKind.MAX, 0, FerryType.BIGINT))), JoinKind.INNER, new int[] {1}, new int[] {0},
                null);
        return new PlanNode.Sort(join2, List.of(new SortKey(0, true, false), new SortKey(1, false, true)), 5, 10);
    }

    @Test
    void everyNodeExpressionAndTypeRoundTrips() {
        PlanNode plan = everything();
        byte[] bytes = PlanCodec.encode(plan);
        PlanNode back = PlanCodec.decode(bytes);
        assertArrayEquals(bytes, PlanCodec.encode(back));
        assertEquals(plan.types(), back.types());
        List<PlanNode.Scan> before = PlanCodec.scans(plan);
        List<PlanNode.Scan> after = PlanCodec.scans(back);
        assertEquals(before.size(), after.size());
        for (int i = 0; i < before.size(); i++) {
            assertEquals(before.get(i).table().name(), after.get(i).table().name());
            assertEquals(before.get(i).table().schema(), after.get(i).table().schema());
        }
    }

    @Test
    void truncatedAndDamagedFragmentsFailWithAProtocolError() {
        byte[] bytes = PlanCodec.encode(everything());
        for (int len = 0; len < bytes.length; len++) {
            byte[] cut = java.util.Arrays.copyOf(bytes, len);
            FerryException e = assertThrows(FerryException.class, () -> PlanCodec.decode(cut), "prefix " + len);
            assertEquals("08P01", e.sqlState());
        }
        Random r = new Random(7);
        for (int trial = 0; trial < 3000; trial++) {
            byte[] bad = bytes.clone();
            bad[r.nextInt(bad.length)] ^= (byte) (1 + r.nextInt(255));
            try {
                PlanCodec.decode(bad);
            } catch (FerryException e) {
                assertEquals("08P01", e.sqlState());
            }
        }
    }

    @Test
    void deepNestingIsRefused() {
        PlanNode n = new PlanNode.Scan(new TableRef("t", DIM), new int[] {0}, null);
        for (int i = 0; i < 300; i++) {
            n = new PlanNode.Gather(n);
        }
        byte[] bytes = PlanCodec.encode(n);
        FerryException e = assertThrows(FerryException.class, () -> PlanCodec.decode(bytes));
        assertTrue(e.getMessage().contains("nested"), e.getMessage());
    }
}
