package io.ferry.sql.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.ferry.sql.SessionSettings.Execution;

/** Auto's choice of how to run a fragment's joins: the way that moves the fewest bytes, ties to the stateless ones. */
class ExecutionChoiceTest {
    @Test
    void smallDimensionsAreGatheredAndCoPartitionedOnesPipelined() {
        // 100 MB of facts, 1 MB of dimensions, 4 units: gathering sends the dimensions 4 times
        ExecutionChoice gather = ExecutionChoice.choose(100_000_000, 1_000_000, 4, -1, 40_000_000, 4);
        assertEquals(Execution.GATHER, gather.mode());
        assertEquals(104_000_000, gather.gather());
        assertEquals(101_000_000 + 40_000_000 + 30_000_000, gather.shuffle());
        ExecutionChoice pipelined = ExecutionChoice.choose(100_000_000, 1_000_000, 4, 101_500_000, 40_000_000, 4);
        assertEquals(Execution.PIPELINED, pipelined.mode());
        assertTrue(pipelined.describe().contains("execution=auto chose pipelined"), pipelined.describe());
    }

    @Test
    void aLargeBuildSideThatIsNotCoPartitionedIsShuffled() {
        // a 100 MB table joined with itself on a narrow key: 4 units would each read it whole
        ExecutionChoice c = ExecutionChoice.choose(100_000_000, 100_000_000, 4, -1, 16_000_000, 4);
        assertEquals(Execution.SHUFFLE, c.mode());
        assertTrue(c.describe().contains("pipelined n/a"), c.describe());
    }

    @Test
    void tiesGoToPipelinedThenGather() {
        assertEquals(Execution.PIPELINED, ExecutionChoice.choose(10, 5, 1, 15, -1, 1).mode());
        assertEquals(Execution.GATHER, ExecutionChoice.choose(10, 5, 1, -1, 0, 1).mode());
    }
}
