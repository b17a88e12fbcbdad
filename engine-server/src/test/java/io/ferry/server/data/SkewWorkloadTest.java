package io.ferry.server.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;

import org.junit.jupiter.api.Test;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.storage.PartitionScheme;
import io.ferry.core.storage.Placement;
import io.ferry.core.vector.LongVector;
import io.ferry.sql.FerryEngine;
import io.ferry.server.correctness.DuckDbMirror;
import io.ferry.sql.EngineConfig;
import io.ferry.sql.ResultComparison;

/** The skew paper's workload: partition sizes as its distribution says, valid foreign keys, the same query answer as DuckDB. */
class SkewWorkloadTest {
    /** Each partition's share of a's rows. */
    private static double[] shares(SkewWorkload.Spec spec) {
        SkewWorkload w = new SkewWorkload(spec);
        PartitionScheme.Key key = w.partitioning("a").keys().get(0);
        long[] counts = new long[spec.partitions()];
        w.generate("a", batch -> {
            LongVector fk = (LongVector) batch.column(2);
            for (int i = 0; i < batch.rowCount(); i++) {
                assertTrue(fk.get(i) >= 1 && fk.get(i) <= spec.rows(), "a.fk " + fk.get(i) + " is a key of b");
                counts[key.partOf(fk.get(i))]++;
            }
        }, ProgressListener.NONE);
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
        double[] uniform = shares(SkewWorkload.Spec.parse("rows=200000,distribution=uniform,partitions=4"));
        for (int p = 0; p < 4; p++) {
            assertEquals(0.25, uniform[p], 0.01, "uniform share of partition " + p);
        }
    }

    @Test
    void theQueryOnTheLoadedTablesEqualsDuckDbs() throws Exception {
        SkewWorkload.Spec spec = SkewWorkload.Spec.parse("rows=30000,partitions=8,placement=nam,seed=3");
        assertEquals(Placement.NAM, spec.placement());
        try (FerryEngine engine = FerryEngine.start(EngineConfig.defaults().withThreads(2))) {
            new SkewWorkload(spec).load(engine.catalog(), ProgressListener.NONE);
            assertEquals(8, engine.catalog().require("a").partitioning().partitions());
            assertEquals(8, engine.catalog().require("b").partitioning().partitions());
            assertTrue(engine.catalog().require("c").partitioning().isNone());
            try (DuckDbMirror duck = DuckDbMirror.of(engine.catalog()); Connection ferry = engine.connect()) {
                ResultComparison.assertSameResult(ferry, duck.connection(), SkewWorkload.QUERY, false);
                ResultComparison.assertSameResult(ferry, duck.connection(),
                        "SELECT COUNT(*) FROM a JOIN b ON a.fk = b.pk", false);
            }
        }
    }

    @Test
    void aBadSpecSaysWhatToWrite() {
        for (String bad : new String[] {"distribution=zipf", "rows=10,distribution=pareto", "rows=10,z=0",
                "rows=10,partitions=0", "rows=10,color=red", "rows=ten"}) {
            FerryException e = assertThrows(FerryException.class, () -> SkewWorkload.Spec.parse(bad), bad);
            assertEquals(SqlStates.INVALID_PARAMETER_VALUE, e.sqlState());
            assertTrue(e.getMessage().contains("rows=1000000,distribution=zipf"), e.getMessage());
        }
    }
}
