package io.ferry.server.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;

import org.junit.jupiter.api.Test;

import io.ferry.core.gen.SkewWorkload;
import io.ferry.core.storage.Placement;
import io.ferry.sql.FerryEngine;
import io.ferry.server.correctness.DuckDbMirror;
import io.ferry.sql.EngineConfig;
import io.ferry.sql.ResultComparison;

/** {@code bin/ferry load --generate skew}: the four tables partitioned as the spec says, the same query answer as DuckDB. */
class SkewLoadTest {
    @Test
    void theQueryOnTheLoadedTablesEqualsDuckDbs() throws Exception {
        SkewWorkload.Spec spec = SkewWorkload.Spec.parse("rows=30000,partitions=8,placement=nam,seed=3");
        assertEquals(Placement.NAM, spec.placement());
        try (FerryEngine engine = FerryEngine.start(EngineConfig.defaults().withThreads(2))) {
            SkewLoad.load(spec, engine.catalog(), ProgressListener.NONE);
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
}
