package io.ferry.server.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.ferry.sql.SessionSettings;
import io.ferry.sql.distributed.ShippingModel;

/** The measured inputs of the shipping model: cores a loaded node can give, and grouping rates by group count. */
class CostInputsTest {
    @Test
    void aNodeBesideBusyProcessesGetsItsFairShareNotNothing() {
        assertEquals(1.0, NodeLoad.fairShare(1, 1, 0), 1e-9, "idle");
        assertEquals(0.5, NodeLoad.fairShare(1, 1, 1), 1e-9, "one busy process on its one core");
        assertEquals(1 / 3.0, NodeLoad.fairShare(1, 1, 2), 1e-9, "two");
        assertEquals(2.0, NodeLoad.fairShare(2, 4, 1), 1e-9, "enough idle cores for all its threads");
        assertEquals(4 / 3.0, NodeLoad.fairShare(2, 2, 1), 1e-9, "two threads beside one busy process");
        assertEquals(2.0, NodeLoad.fairShare(2, 2, 0.01), 0.02);
        assertTrue(NodeLoad.fairShare(1, 1, 1000) >= 0.1, "never zero: a fragment still makes progress");
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
        return new NodeLoad(systemCpu, processCpu, 0, 0, busyFraction, 0, 0, cores, 0);
    }

    @Test
    void groupingRatesComeFromTheMeasuredPointsAndFallBetweenThem() {
        Calibration c = new Calibration(1e9, 400e6, 100e6, 25e6, 1e9, 1e9, 500e6);
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

    /** The paper's setup in miniature: 16M rows, a 1.2 GB/s link, a 2-core coordinator and a 1-core worker. */
    private static ShippingModel.Costs price(long groups, double workerCores) {
        return price(groups, workerCores, 16_000_000, 1);
    }

    /** {@code rows} read (SYSTEM sampling reads fewer), {@code rowFraction} of them kept by BERNOULLI. */
    private static ShippingModel.Costs price(long groups, double workerCores, long rows, double rowFraction) {
        return price(groups, workerCores, rows, rowFraction, 250e6);
    }

    private static ShippingModel.Costs price(long groups, double workerCores, long rows, double rowFraction,
            double bernoulliRate) {
        Calibration c = new Calibration(2e9, 160e6, 60e6, 25e6, 700e6, 400e6, bernoulliRate);
        long resultRows = Math.min(Math.round(rows * rowFraction), groups);
        long resultBytes = 1024 + 16 * resultRows;
        return ShippingModel.price(new ShippingModel.Inputs(rows, rowFraction, 16 * rows, (int) (rows / 65536), SessionSettings.DEFAULT_PREFETCH,
                resultRows, resultBytes, groups, 1.0, 1.2e9, 300e-6,
                new ShippingModel.Node(2, 2, c.aggRowsPerSecond(groups), c.bernoulliRowsPerSecond()),
                new ShippingModel.Node(workerCores, 1, c.aggRowsPerSecond(groups), c.bernoulliRowsPerSecond()),
                c.lz4BytesPerSecond(), c.ipcBytesPerSecond(), 1));
    }

    /**
     * Ship-or-not section II-B.1: a 10% BERNOULLI sample reads and tests every row where it executes, and data
     * shipping moves every block; a 10% SYSTEM sample reads a tenth of the blocks in both modes. So SYSTEM is cheaper
     * in both, and BERNOULLI's testing falls on the worker under function shipping: the costlier the test, the more
     * worker cores function shipping needs to win (Fig. 2, "random sampling is more computation intensive and favors
     * data shipping"). Whether BERNOULLI then needs more cores than SYSTEM depends on the rates: it does when testing
     * a row costs about as much as grouping one.
     */
    @Test
    void samplingIsPricedWhereItRuns() {
        ShippingModel.Costs bernoulli = price(2, 1, 16_000_000, 0.1);
        ShippingModel.Costs system = price(2, 1, 1_600_000, 1);
        assertTrue(system.functionShipping() < bernoulli.functionShipping());
        assertTrue(system.dataShipping() < bernoulli.dataShipping());
        assertEquals(10, bernoulli.read() / system.read(), 0.5, "DS reads every block for BERNOULLI");
        assertTrue(bernoulli.workerExec() > price(2, 1, 1_600_000, 1).workerExec(), "testing every row costs");
        double cheapTest = crossing(250e6, 16_000_000, 0.1);
        double dearTest = crossing(25e6, 16_000_000, 0.1);
        double systemCross = crossing(250e6, 1_600_000, 1);
        assertTrue(cheapTest > 0 && dearTest > cheapTest, "a costlier test needs more worker cores: " + cheapTest
                + " vs " + dearTest);
        assertTrue(dearTest > systemCross, "then more than SYSTEM: " + dearTest + " vs " + systemCross);
    }

    /** The fewest worker cores, in steps of 0.05 up to 4, at which function shipping wins. */
    private static double crossing(double bernoulliRate, long rows, double rowFraction) {
        for (double cores = 0.05; cores <= 4; cores += 0.05) {
            if (price(2, cores, rows, rowFraction, bernoulliRate).functionWins()) {
                return cores;
            }
        }
        return Double.NaN;
    }

    @Test
    void smallResultsShipTheFunctionAndLargeOnesTheData() {
        assertTrue(price(1_000, 1).functionWins(), "a 16 KB result: the worker aggregates, the data stays");
        assertFalse(price(4_000_000, 1).functionWins(), "a 64 MB result: cheaper to read the data");
        // once data shipping wins it keeps winning as the result grows (§II-A: "the size of the result is large")
        boolean dataWon = false;
        for (long g = 1_000; g <= 8_000_000; g *= 2) {
            boolean data = !price(g, 1).functionWins();
            assertTrue(data || !dataWon, "function shipping won again at " + g + " groups");
            dataWon |= data;
        }
    }

    @Test
    void aBusierWorkerTipsTheChoiceToDataShipping() {
        assertTrue(price(10_000, 1).functionWins());
        assertFalse(price(10_000, 0.1).functionWins(), "§II-A: \"computation load on the worker is high\"");
        assertTrue(price(10_000, 0.5).functionShipping() > price(10_000, 1).functionShipping());
        assertEquals(price(10_000, 0.5).dataShipping(), price(10_000, 1).dataShipping(), 1e-12,
                "data shipping does not use the worker's cores");
    }
}
