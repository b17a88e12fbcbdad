package io.ferry.server.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.Statement;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.ferry.core.exec.AggCall;
import io.ferry.core.exec.JoinKind;
import io.ferry.core.exec.PlanNode;
import io.ferry.core.storage.Table;
import io.ferry.core.types.FerryType;
import io.ferry.sql.EngineConfig;
import io.ferry.sql.FerryEngine;

/**
 * A unit's result, estimated before it runs from the statistics kept at load: a star join grouped by a dimension's
 * column (SSB's queries are) returns one row per group of that column — not one per fact row, which would price
 * function shipping as if every probe row came back and ship the data instead.
 */
class ResultEstimateTest {
    @Test
    void groupsOfADimensionsColumnAreCountedFromThatTable() throws Exception {
        try (FerryEngine engine = FerryEngine.start(EngineConfig.defaults().withThreads(1));
                Connection c = engine.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE cu (k BIGINT, nation BIGINT)");
            StringBuilder rows = new StringBuilder();
            for (int i = 0; i < 200; i++) {
                rows.append(i == 0 ? "" : ", ").append('(').append(i).append(", ").append(i % 5).append(')');
            }
            s.execute("INSERT INTO cu VALUES " + rows);
            s.execute("CREATE TABLE lo (custkey BIGINT, revenue BIGINT)");
            s.execute("INSERT INTO lo SELECT k, k * 10 FROM cu");
            Table lo = engine.catalog().require("lo");
            Table cu = engine.catalog().require("cu");
            PlanNode join = new PlanNode.Join(new PlanNode.Scan(lo, new int[] {0, 1}, null),
                    new PlanNode.Scan(cu, new int[] {0, 1}, null), JoinKind.INNER, new int[] {0}, new int[] {0}, null);
            List<AggCall> sum = List.of(new AggCall(AggCall.AggKind.SUM, 1, FerryType.BIGINT));
            PlanNode byNation = new PlanNode.PartialAggregate(new PlanNode.Aggregate(join, new int[] {3}, sum));
            assertEquals(5, ResultEstimate.rows(byNation, 1_000_000), "cu.nation has 5 values");
            PlanNode byFact = new PlanNode.PartialAggregate(new PlanNode.Aggregate(join, new int[] {0}, sum));
            long custkeys = ResultEstimate.rows(byFact, 1_000_000);
            // a HyperLogLog sketch's count: within its few percent of the 200 there are
            assertTrue(Math.abs(custkeys - 200) <= 8, "lo.custkey has 200, estimated " + custkeys);
            assertEquals(150, ResultEstimate.rows(byFact, 150), "never more groups than the unit's rows");
        }
    }
}
