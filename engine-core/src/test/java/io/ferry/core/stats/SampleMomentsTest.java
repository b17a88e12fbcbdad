package io.ferry.core.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * The estimators against populations whose true answers are known: exact at a 100% sample, mergeable in any
 * grouping, and 95% intervals that cover the truth about 95% of the time over many seeds (fixed seeds, so the test
 * is repeatable; 600 trials put the observed rate within ±0.027 of the true one at three standard deviations).
 */
class SampleMomentsTest {
    private static final int TRIALS = 600;

    /** 2,000 blocks of 10 rows; values skewed (exponential) and, per block, shifted by a block effect. */
    private static double[][] population(long seed, double blockEffect) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] blocks = new double[2_000][10];
        for (double[] block : blocks) {
            double shift = blockEffect * -Math.log(1 - r.nextDouble());
            for (int i = 0; i < block.length; i++) {
                block[i] = shift + -Math.log(1 - r.nextDouble()) * 100;
            }
        }
        return blocks;
    }

    private static double sum(double[][] blocks) {
        double s = 0;
        for (double[] b : blocks) {
            for (double v : b) {
                s += v;
            }
        }
        return s;
    }

    private static SampleMoments bernoulli(double[][] blocks, double pi, SplittableRandom r) {
        SampleMoments s = new SampleMoments();
        for (double[] b : blocks) {
            for (double v : b) {
                if (r.nextDouble() < pi) {
                    s.add(v, 1);
                }
            }
        }
        return s;
    }

    private static SampleMoments system(double[][] blocks, double pi, SplittableRandom r) {
        SampleMoments s = new SampleMoments();
        for (double[] b : blocks) {
            if (r.nextDouble() < pi) {
                double t = 0;
                for (double v : b) {
                    t += v;
                }
                s.add(t, b.length);
            }
        }
        return s;
    }

    private static boolean covers(SampleMoments.Estimate e, double truth) {
        return e.lower() <= truth && truth <= e.upper();
    }

    @Test
    void aFullSampleIsExactWithNoInterval() {
        double[][] blocks = population(1, 50);
        SampleMoments s = system(blocks, 1.0, new SplittableRandom(2));
        double total = sum(blocks);
        SampleMoments.Estimate t = s.total(1.0, SampleMoments.Z95);
        assertEquals(total, t.value(), 1e-6 * total);
        assertEquals(t.value(), t.lower(), 0);
        assertEquals(t.value(), t.upper(), 0);
        assertEquals(20_000, s.count(1.0, SampleMoments.Z95).value(), 1e-9);
        assertEquals(total / 20_000, s.mean(1.0, SampleMoments.Z95).value(), 1e-9 * total);
    }

    @Test
    void mergingPartialsEqualsOneSample() {
        double[][] blocks = population(3, 50);
        SplittableRandom r = new SplittableRandom(4);
        SampleMoments whole = new SampleMoments();
        SampleMoments a = new SampleMoments();
        SampleMoments b = new SampleMoments();
        for (int i = 0; i < blocks.length; i++) {
            double t = 0;
            for (double v : blocks[i]) {
                t += v;
            }
            if (r.nextDouble() < 0.2) {
                whole.add(t, 10);
                (i % 3 == 0 ? a : b).add(t, 10);
            }
        }
        b.merge(a);
        assertEquals(whole.rows(), b.rows());
        // the same sums added in another order: equal up to rounding
        SampleMoments.Estimate w = whole.total(0.2, SampleMoments.Z95);
        SampleMoments.Estimate m = b.total(0.2, SampleMoments.Z95);
        assertEquals(w.value(), m.value(), 1e-9 * w.value());
        assertEquals(w.upper(), m.upper(), 1e-9 * w.upper());
        assertEquals(whole.mean(0.2, SampleMoments.Z95).upper(), b.mean(0.2, SampleMoments.Z95).upper(), 1e-9);
    }

    @Test
    void bernoulliIntervalsCoverTheTruthAboutNinetyFivePercentOfTheTime() {
        double[][] blocks = population(5, 50);
        double total = sum(blocks);
        SplittableRandom r = new SplittableRandom(6);
        int coveredTotal = 0;
        int coveredCount = 0;
        int coveredMean = 0;
        for (int trial = 0; trial < TRIALS; trial++) {
            SampleMoments s = bernoulli(blocks, 0.05, r);
            coveredTotal += covers(s.total(0.05, SampleMoments.Z95), total) ? 1 : 0;
            coveredCount += covers(s.count(0.05, SampleMoments.Z95), 20_000) ? 1 : 0;
            coveredMean += covers(s.mean(0.05, SampleMoments.Z95), total / 20_000) ? 1 : 0;
        }
        assertCoverage(coveredTotal, "total");
        assertCoverage(coveredCount, "count");
        assertCoverage(coveredMean, "mean");
    }

    @Test
    void systemIntervalsCoverTheTruthWithBlocksThatDifferFromEachOther() {
        // a strong block effect: rows of a block are alike, so the sample is effectively 10× smaller than its rows
        double[][] blocks = population(7, 400);
        double total = sum(blocks);
        SplittableRandom r = new SplittableRandom(8);
        int coveredTotal = 0;
        int coveredMean = 0;
        for (int trial = 0; trial < TRIALS; trial++) {
            SampleMoments s = system(blocks, 0.1, r);
            coveredTotal += covers(s.total(0.1, SampleMoments.Z95), total) ? 1 : 0;
            coveredMean += covers(s.mean(0.1, SampleMoments.Z95), total / 20_000) ? 1 : 0;
        }
        assertCoverage(coveredTotal, "total");
        assertCoverage(coveredMean, "mean");
    }

    @Test
    void clusterSamplingOfClusteredDataGivesWiderIntervalsThanRowSampling() {
        double[][] blocks = population(9, 400);
        SampleMoments.Estimate rows = bernoulli(blocks, 0.1, new SplittableRandom(10)).total(0.1, SampleMoments.Z95);
        SampleMoments.Estimate clusters = system(blocks, 0.1, new SplittableRandom(10)).total(0.1, SampleMoments.Z95);
        double rowsWidth = rows.upper() - rows.lower();
        double clustersWidth = clusters.upper() - clusters.lower();
        assertTrue(clustersWidth > 1.5 * rowsWidth, clustersWidth + " vs " + rowsWidth);
    }

    @Test
    void aProbabilityOutsideTheUnitIntervalIsRefused() {
        SampleMoments s = new SampleMoments();
        s.add(1, 1);
        assertThrows(IllegalArgumentException.class, () -> s.total(0, SampleMoments.Z95));
        assertThrows(IllegalArgumentException.class, () -> s.count(1.5, SampleMoments.Z95));
        assertTrue(Double.isNaN(new SampleMoments().mean(0.5, SampleMoments.Z95).value()), "no rows, no mean");
    }

    private static void assertCoverage(int covered, String what) {
        double rate = covered / (double) TRIALS;
        assertTrue(rate >= 0.92 && rate <= 0.98, what + ": 95% intervals covered the truth in " + covered + " of "
                + TRIALS + " samples");
    }
}
