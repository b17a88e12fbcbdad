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
        var threads = ManagementFactory.getThreadMXBean();
        load.sample(os.getProcessCpuTime());
        long wall0 = System.nanoTime();
        long thread0 = threads.getCurrentThreadCpuTime();
        long until = wall0 + 400_000_000L;
        long x = 0;
        while (System.nanoTime() < until) {
            x += Long.numberOfTrailingZeros(x + System.nanoTime());
        }
        AffinityCpuLoad.Sample s = load.sample(os.getProcessCpuTime());
        double threadCores = (threads.getCurrentThreadCpuTime() - thread0) / (double) (System.nanoTime() - wall0);
        assertNotNull(s);
        // the spinning thread's work is in the process's share of its cores (other threads of this JVM, the JIT and
        // a previous test's shutdown, may add to it), and the share cannot exceed the cores of the mask
        double processCores = s.processCpu() * s.cores();
        assertTrue(processCores >= 0.8 * threadCores && processCores <= s.cores() + 0.05,
                processCores + " cores for the process, " + threadCores + " for the spinning thread (" + x + ")");
        assertTrue(s.systemCpu() >= s.processCpu() - 0.15, s.toString());
    }
}
