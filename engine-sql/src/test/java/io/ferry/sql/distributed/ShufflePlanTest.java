package io.ferry.sql.distributed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.ferry.core.exec.JoinKind;
import io.ferry.core.exec.PlanCodec;
import io.ferry.core.exec.PlanNode;
import io.ferry.core.storage.TableRef;
import io.ferry.core.types.Column;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TableSchema;

/**
 * A fragment's joins as shuffle stages (DPE Fig. 7a's baseline): a 3-way star join becomes five stages — split the
 * fact table and the first dimension by the first key, join them and split the result by the second key, split the
 * second dimension by it, join — in an order that fills every exchange before a stage reads it.
 */
class ShufflePlanTest {
    private static PlanNode.Scan scan(String name, int columns) {
        Column[] cols = new Column[columns];
        int[] all = new int[columns];
        for (int i = 0; i < columns; i++) {
            cols[i] = new Column(name + i, FerryType.BIGINT, true);
            all[i] = i;
        }
        return new PlanNode.Scan(new TableRef(name, TableSchema.of(cols)), all, null);
    }

    @Test
    void aThreeWayJoinShufflesTwiceAndFillsEachExchangeBeforeItIsRead() {
        PlanNode lo = scan("lineorder", 3); // custkey, partkey, revenue
        PlanNode c = scan("customer", 2);
        PlanNode p = scan("part", 2);
        PlanNode j1 = new PlanNode.Join(lo, c, JoinKind.INNER, new int[] {0}, new int[] {0}, null);
        PlanNode j2 = new PlanNode.Join(j1, p, JoinKind.INNER, new int[] {1}, new int[] {0}, null);
        ShufflePlan plan = ShufflePlan.of(j2);
        List<ShufflePlan.Stage> stages = plan.stages();
        assertEquals(5, stages.size());
        assertEquals(4, plan.exchanges());
        assertArrayEquals(new int[] {0}, stages.get(0).keys());
        assertEquals("lineorder", PlanCodec.scans(stages.get(0).plan()).get(0).table().name());
        assertEquals("customer", PlanCodec.scans(stages.get(1).plan()).get(0).table().name());
        assertArrayEquals(new int[] {1}, stages.get(2).keys(), "the first join's rows split by partkey");
        assertTrue(stages.get(4).last());
        for (int s = 0; s < stages.size(); s++) {
            for (PlanNode.Scan scan : PlanCodec.scans(stages.get(s).plan())) {
                int e = ShufflePlan.exchangeOf(scan);
                if (e >= 0) {
                    int filler = -1;
                    for (int t = 0; t < s; t++) {
                        filler = stages.get(t).output() == e ? t : filler;
                    }
                    assertTrue(filler >= 0, "stage " + s + " reads exchange " + e + " before a stage fills it");
                }
            }
        }
        assertEquals(5, plan.describe(4).size());
        assertTrue(plan.describe(4).get(2).contains("into 4 parts"), plan.describe(4).get(2));
    }

    @Test
    void aBuildSideThatIsNotATableIsReadWholeAndAFragmentWithNothingToSplitIsNotShuffled() {
        PlanNode lo = scan("lineorder", 2);
        PlanNode.Scan c = scan("customer", 1);
        PlanNode distinct = new PlanNode.Aggregate(c, new int[] {0}, List.of());
        PlanNode anti = new PlanNode.Join(lo, distinct, JoinKind.ANTI, new int[] {0}, new int[] {0}, null);
        assertNull(ShufflePlan.of(anti), "no join splits: nothing to shuffle");
        PlanNode p = scan("part", 1);
        PlanNode both = new PlanNode.Join(anti, p, JoinKind.INNER, new int[] {1}, new int[] {0}, null);
        ShufflePlan plan = ShufflePlan.of(both);
        ShufflePlan.Stage first = plan.stages().get(0);
        List<PlanNode.Scan> scans = PlanCodec.scans(first.plan());
        assertEquals(List.of("lineorder", "customer"), scans.stream().map(s -> s.table().name()).toList());
        assertArrayEquals(new boolean[] {false, true}, first.whole(), "customer's distinct keys on every node");
    }
}
