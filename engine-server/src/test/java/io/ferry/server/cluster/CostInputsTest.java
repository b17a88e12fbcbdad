package io.ferry.server.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The measured inputs of the shipping model: cores a loaded node can give, and grouping rates by group count. */
class CostInputsTest {
    @Test
    void aNodeBesideBusyProcessesGetsItsFairShareNotNothing() {
        assertEquals(1.0, Member.availableCores(1, 1, 0), 1e-9, "idle");
        assertEquals(0.5, Member.availableCores(1, 1, 1), 1e-9, "one busy process on its one core");
        assertEquals(1 / 3.0, Member.availableCores(1, 1, 2), 1e-9, "two");
        assertEquals(2.0, Member.availableCores(2, 4, 1), 1e-9, "enough idle cores for all its threads");
        assertEquals(4 / 3.0, Member.availableCores(2, 2, 1), 1e-9, "two threads beside one busy process");
        assertEquals(2.0, Member.availableCores(2, 2, 0.01), 0.02);
        assertTrue(Member.availableCores(1, 1, 1000) >= 0.1, "never zero: a fragment still makes progress");
    }

    @Test
    void aBusyNodeCountsTheCoresItGotWhileItHadWork() {
        // ran fragments 80% of the interval, used 0.4 of its one core: beside others it got half a core while busy
        assertEquals(0.5, load(1.0, 0.4, 0.8, 1).coresFor(1), 1e-9);
        // a 2-thread node that kept both cores busy while it ran got both
        assertEquals(2.0, load(1.0, 0.9, 0.9, 2).coresFor(2), 1e-9);
        // never more than its threads, even if other processes of its own (the JIT, GC) add CPU
        assertEquals(1.0, load(1.0, 0.6, 0.5, 2).coresFor(1), 1e-9);
        // mostly idle: the fair share beside what the others kept busy
        assertEquals(0.5, load(1.0, 0.0, 0.0, 1).coresFor(1), 1e-9);
        assertEquals(1.0, load(0.05, 0.05, 0.1, 1).coresFor(1), 0.01);
    }

    private static NodeLoad load(double systemCpu, double processCpu, double busyFraction, int cores) {
        return new NodeLoad(systemCpu, processCpu, 0, 0, busyFraction, 0, 0, cores);
    }

    @Test
    void groupingRatesComeFromTheMeasuredPointsAndFallBetweenThem() {
        Calibration c = new Calibration(1e9, 400e6, 100e6, 25e6, 1e9, 1e9);
        assertEquals(400e6, c.aggRowsPerSecond(1), 1, "fewer groups than measured: the fastest rate");
        assertEquals(400e6, c.aggRowsPerSecond(Calibration.FEW), 1);
        assertEquals(100e6, c.aggRowsPerSecond(Calibration.SOME), 1);
        assertEquals(25e6, c.aggRowsPerSecond(Calibration.MANY), 1);
        double previous = Double.MAX_VALUE;
        for (long g = 1; g < 1L << 30; g *= 2) {
            double rate = c.aggRowsPerSecond(g);
            assertTrue(rate <= previous && rate > 0, g + " groups: " + rate);
            previous = rate;
        }
        // past the largest measured point the cost per row keeps growing, along the last slope
        assertTrue(c.aggRowsPerSecond(Calibration.MANY * 8L) < 25e6 * 0.7);
        // time per row is linear in log(groups) between points: halfway in log, halfway in seconds per row
        double mid = Math.sqrt((double) Calibration.FEW * Calibration.SOME);
        assertEquals((1 / 400e6 + 1 / 100e6) / 2, 1 / c.aggRowsPerSecond((long) mid), 1e-11);
    }
}
