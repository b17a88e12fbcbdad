package io.ferry.server.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.util.BitSet;

import org.junit.jupiter.api.Test;

class AffinityCpuLoadTest {
    private static final String STAT = """
            cpu  300 0 100 1000 20 0 0 0 0 0
            cpu0 100 0 50 500 10 0 0 0 0 0
            cpu1 200 0 50 500 10 0 0 0 0 0
            cpu10 7 0 0 3 0 0 0 0 0 0
            intr 1 2 3
            ctxt 99
            """;

    @Test
    void theKernelsCpuListFormatParses() {
        BitSet expected = new BitSet();
        expected.set(0, 4);
        expected.set(8);
        expected.set(10, 12);
        assertEquals(expected, AffinityCpuLoad.parseCpuList("0-3,8,10-11"));
        assertEquals(1, AffinityCpuLoad.parseCpuList("1").cardinality());
    }

    @Test
    void onlyTheMasksCpusAreSummedAndIdleAndIowaitAreNotBusy() {
        // cpu1: busy 200 + 50, total 200 + 50 + 500 + 10; the "cpu" total line and cpu0 are not in the mask
        assertArrayEquals(new long[] {250, 760}, AffinityCpuLoad.sum(STAT, AffinityCpuLoad.parseCpuList("1")));
        // cpu10 must not be read as cpu1 followed by a 0
        assertArrayEquals(new long[] {7, 10}, AffinityCpuLoad.sum(STAT, AffinityCpuLoad.parseCpuList("10")));
        assertArrayEquals(new long[] {400, 1420}, AffinityCpuLoad.sum(STAT, AffinityCpuLoad.parseCpuList("0-1")));
    }

    @Test
    void aBusyThreadShowsAsThisProcesssLoadOnItsCores() throws InterruptedException {
        AffinityCpuLoad load = AffinityCpuLoad.open();
        assumeTrue(load != null, "no /proc here");
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        assertEquals(Runtime.getRuntime().availableProcessors(), load.cores());
        load.sample(os.getProcessCpuTime());
        long until = System.nanoTime() + 400_000_000L;
        long x = 0;
        while (System.nanoTime() < until) {
            x += Long.numberOfTrailingZeros(x + System.nanoTime());
        }
        AffinityCpuLoad.Sample s = load.sample(os.getProcessCpuTime());
        assertNotNull(s);
        // one spinning thread is one core's worth of this process's work, and all of it is on the process's cores
        double processCores = s.processCpu() * s.cores();
        assertTrue(processCores > 0.5 && processCores < 1.5, processCores + " cores (" + x + ")");
        assertTrue(s.systemCpu() >= s.processCpu() - 0.15, s.toString());
    }
}
