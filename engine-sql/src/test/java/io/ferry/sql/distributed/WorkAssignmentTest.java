package io.ferry.sql.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.ferry.sql.distributed.WorkAssignment.Input;

/**
 * The work assignment of a pipelined multi-join (I-Store DPE section 4.1): the grid shape replicating least, worked
 * out by hand for an SSB-like star; the largest differencing method under skew; more servers than cells; and, over
 * random inputs, every cell assigned exactly once with the bytes added up right.
 */
class WorkAssignmentTest {
    /** LINEORDER by custkey:4, partkey:2, suppkey:1, uniform; CUSTOMER 4 × 30, PART 2 × 200, SUPPLIER 10. */
    private static Input ssb(int servers) {
        long[] cells = new long[8];
        Arrays.fill(cells, 1000);
        return new Input(new int[] {4, 2, 1}, cells, new long[][] {{30, 30, 30, 30}, {200, 200}, {10}}, servers);
    }

    @Test
    void theGridReplicatingLeastIsChosen() {
        WorkAssignment eight = WorkAssignment.grid(ssb(8));
        assertEquals("grid 4×2×1", eight.method());
        // each server reads one customer part, one part partition and the supplier table: 240 bytes, 8 times,
        // against 530 bytes read once
        assertEquals(8 * 240 - 530, eight.replicated());
        assertEquals(1.0, eight.imbalance(), 1e-9);
        WorkAssignment four = WorkAssignment.grid(ssb(4));
        // 4×1×1 would read both part partitions everywhere (4 × 440 - 530 = 1230); 2×2×1 reads 270 per server
        assertEquals("grid 2×2×1", four.method());
        assertEquals(4 * 270 - 530, four.replicated());
        for (int[] cells : four.servers()) {
            assertEquals(2, cells.length);
        }
    }

    @Test
    void skewIsBalancedByTheLargestDifferencingMethod() {
        long[] cells = {9000, 100, 100, 100, 4000, 100, 3000, 100};
        Input in = new Input(new int[] {4, 2}, cells, new long[][] {{5, 5, 5, 5}, {5, 5}}, 4);
        WorkAssignment grid = WorkAssignment.grid(in);
        WorkAssignment ldm = WorkAssignment.ldm(in);
        assertTrue(ldm.busiest() <= grid.busiest(), ldm + " vs " + grid);
        // the hot cell alone on one server, the rest spread: 9010 is the least any assignment can do
        assertEquals(9000 + 10, ldm.busiest());
        assertEquals("ldm", WorkAssignment.best(in).method());
    }

    @Test
    void moreServersThanCellsLeavesSomeIdle() {
        Input in = new Input(new int[] {2}, new long[] {500, 700}, new long[][] {{50, 70}}, 5);
        for (WorkAssignment a : new WorkAssignment[] {WorkAssignment.grid(in), WorkAssignment.ldm(in)}) {
            assertEquals(5, a.servers().size());
            assertEquals(2, a.servers().stream().filter(c -> c.length > 0).count(), a.method());
            assertEquals(0, a.replicated(), a.method());
        }
    }

    @Test
    void everyCellIsAssignedOnceAndTheBytesAddUp() {
        Random random = new Random(42);
        for (int round = 0; round < 300; round++) {
            int domains = 1 + random.nextInt(3);
            int[] parts = new int[domains];
            long[][] builds = new long[domains][];
            int cells = 1;
            for (int d = 0; d < domains; d++) {
                parts[d] = 1 + random.nextInt(4);
                cells *= parts[d];
                builds[d] = random.longs(parts[d], 0, 1000).toArray();
            }
            long[] probe = random.longs(cells, 0, random.nextBoolean() ? 10 : 100_000).toArray();
            Input in = new Input(parts, probe, builds, 1 + random.nextInt(9));
            for (WorkAssignment a : new WorkAssignment[] {WorkAssignment.grid(in), WorkAssignment.ldm(in),
                WorkAssignment.best(in)}) {
                int[] seen = new int[cells];
                for (int[] owned : a.servers()) {
                    for (int c : owned) {
                        seen[c]++;
                    }
                }
                for (int c = 0; c < cells; c++) {
                    assertEquals(1, seen[c], a.method() + " cell " + c);
                }
                assertEquals(Arrays.stream(probe).sum(), Arrays.stream(a.probe()).sum());
                assertTrue(a.replicated() >= 0);
                assertTrue(a.imbalance() >= 1 - 1e-9);
            }
        }
    }
}
