package io.ferry.core.gen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.storage.PartitionScheme;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.LongVector;

/** The skew paper's workload: partition sizes as its distribution says, valid keys, the same rows in any order. */
class SkewRowsTest {
    /** Each partition's share of a's rows, checking every row's keys on the way. */
    private static double[] shares(SkewWorkload.Spec spec) {
        SkewWorkload w = new SkewWorkload(spec);
        PartitionScheme.Key key = w.partitioning("a").keys().get(0);
        SkewRows a = w.rows("a");
        long[] counts = new long[spec.partitions()];
        long pk = 0;
        for (int m = 0; m < a.morsels(); m++) {
            Batch batch = a.morsel(m);
            assertEquals(a.morselRows(m), batch.rowCount());
            for (int i = 0; i < batch.rowCount(); i++) {
                assertEquals(++pk, ((LongVector) batch.column(0)).get(i), "a.pk counts up from 1");
                long payload = ((LongVector) batch.column(1)).get(i);
                assertTrue(payload >= 0 && payload < 1000, "payload " + payload);
                long fk = ((LongVector) batch.column(2)).get(i);
                assertTrue(fk >= 1 && fk <= spec.innerRows(), "a.fk " + fk + " is a key of b");
                counts[key.partOf(fk)]++;
            }
        }
        assertEquals(spec.rows(), pk);
        double[] out = new double[counts.length];
        for (int p = 0; p < counts.length; p++) {
            out[p] = counts[p] / (double) spec.rows();
        }
        return out;
    }

    @Test
    void zipfMakesOnePartitionDominateAndUniformKeepsThemEven() {
        double[] zipf = shares(SkewWorkload.Spec.parse("rows=200000,distribution=zipf,z=1.25,partitions=4"));
        // 1/(p+1)^1.25 over four partitions: 54%, 23%, 13.5%, 9.5%
        double[] expected = {0.540, 0.227, 0.136, 0.096};
        for (int p = 0; p < 4; p++) {
            assertEquals(expected[p], zipf[p], 0.01, "zipf share of partition " + p);
        }
        double[] uniform = shares(SkewWorkload.Spec.parse("rows=200000,inner=5000,distribution=uniform,partitions=4"));
        for (int p = 0; p < 4; p++) {
            assertEquals(0.25, uniform[p], 0.01, "uniform share of partition " + p);
        }
    }

    /** Morsels are made by threads in any order: each depends on the spec, the table and its number only. */
    @Test
    void aMorselIsTheSameWhicheverOrderTheyAreMadeInAndDiffersByTableAndSeed() {
        SkewRows b = new SkewWorkload(SkewWorkload.Spec.parse("rows=20000,seed=7")).rows("b");
        long[] last = payloads(b.morsel(b.morsels() - 1));
        long[] first = payloads(b.morsel(0));
        assertArrayEquals(first, payloads(new SkewWorkload(SkewWorkload.Spec.parse("rows=20000,seed=7")).rows("b")
                .morsel(0)));
        assertArrayEquals(last, payloads(b.morsel(b.morsels() - 1)));
        assertTrue(!java.util.Arrays.equals(first, payloads(new SkewWorkload(SkewWorkload.Spec.parse(
                "rows=20000,seed=8")).rows("b").morsel(0))), "another seed, other rows");
        assertTrue(!java.util.Arrays.equals(first, payloads(new SkewWorkload(SkewWorkload.Spec.parse(
                "rows=20000,seed=7")).rows("c").morsel(0))), "another table, other rows");
        assertEquals(20000 - (b.morsels() - 1) * RowGenerator.MORSEL_ROWS, last.length);
    }

    private static long[] payloads(Batch batch) {
        long[] out = new long[batch.rowCount()];
        for (int i = 0; i < out.length; i++) {
            out[i] = ((LongVector) batch.column(1)).get(i);
        }
        return out;
    }

    @Test
    void aBadSpecSaysWhatToWrite() {
        for (String bad : new String[] {"distribution=zipf", "rows=10,distribution=pareto", "rows=10,z=0",
                "rows=10,partitions=0", "rows=10,color=red", "rows=ten", "rows=10,inner=11"}) {
            FerryException e = assertThrows(FerryException.class, () -> SkewWorkload.Spec.parse(bad), bad);
            assertEquals(SqlStates.INVALID_PARAMETER_VALUE, e.sqlState());
            assertTrue(e.getMessage().contains("rows=1000000,distribution=zipf"), e.getMessage());
        }
        FerryException placed = assertThrows(FerryException.class,
                () -> SkewWorkload.Spec.parseRows("rows=10,placement=nam"));
        assertEquals(SqlStates.INVALID_PARAMETER_VALUE, placed.sqlState());
        assertTrue(placed.getMessage().contains("CREATE TABLE a WITH"), placed.getMessage());
        FerryException table = assertThrows(FerryException.class,
                () -> new SkewWorkload(SkewWorkload.Spec.parse("rows=10")).rows("e"));
        assertEquals(SqlStates.UNDEFINED_TABLE, table.sqlState());
    }
}
