package io.ferry.core.stats;

/**
 * What a sample of units needs to estimate a population total, count and mean with a confidence interval, as
 * mergeable sums — so partial aggregates on workers and the final aggregate at the coordinator combine them by
 * addition, in any order.
 *
 * <p>A unit is a row under BERNOULLI sampling and a block under SYSTEM (cluster) sampling; each unit of the
 * population was kept independently with the same probability π (Poisson sampling). A unit contributes its total
 * {@code t} of the measured value and its count {@code m} of rows. With the Horvitz–Thompson estimator (Horvitz and
 * Thompson, "A generalization of sampling without replacement from a finite universe", 1952), for sampled units u:
 *
 * <pre>
 *   total  Ŷ = Σ t_u / π            V̂(Ŷ) = (1 − π) / π² · Σ t_u²
 *   count  N̂ = Σ m_u / π            V̂(N̂) = (1 − π) / π² · Σ m_u²
 *   mean   R̂ = Σ t_u / Σ m_u        V̂(R̂) = (1 − π) / π² · Σ (t_u − R̂ m_u)² / N̂²   (linearized ratio estimator)
 * </pre>
 *
 * These are unbiased (the mean, approximately) for Poisson sampling, where a unit's inclusion is independent of every
 * other's — which both TABLESAMPLE methods are. Under SYSTEM the variance is the between-cluster variance: rows of a
 * block come and go together, so a clustered column (every block holding one value) gives wide intervals, as it
 * should. Intervals are normal approximations, {@code estimate ± z·√V̂}; they cover the true value at about their
 * stated rate once the sample holds a few dozen units, and say nothing useful below that.
 */
public final class SampleMoments {
    /** The standard normal quantile for a two-sided 95% interval. */
    public static final double Z95 = 1.959963984540054;

    /** An estimate and the bounds of its confidence interval. */
    public record Estimate(double value, double lower, double upper) {
    }

    private double t;
    private double m;
    private double tt;
    private double mm;
    private double tm;

    /** An empty sample. */
    public SampleMoments() {
    }

    /**
     * A sample given by its sums over units: Σt, Σm, Σt², Σm², Σtm — the partial state an aggregate keeps
     * ({@code Accumulator.Moments}) and merges by adding column by column.
     */
    public SampleMoments(double sumT, double sumM, double sumTT, double sumMM, double sumTM) {
        t = sumT;
        m = sumM;
        tt = sumTT;
        mm = sumMM;
        tm = sumTM;
    }

    /** Adds one sampled unit: its total {@code t} of the measured value and its {@code m} rows. */
    public void add(double unitTotal, double unitRows) {
        t += unitTotal;
        m += unitRows;
        tt += unitTotal * unitTotal;
        mm += unitRows * unitRows;
        tm += unitTotal * unitRows;
    }

    /** Adds another sample's sums (a partial aggregate from another node or thread). */
    public void merge(SampleMoments other) {
        t += other.t;
        m += other.m;
        tt += other.tt;
        mm += other.mm;
        tm += other.tm;
    }

    /** Rows sampled: Σm. */
    public double rows() {
        return m;
    }

    /** The population total of the measured value, at inclusion probability {@code pi}. */
    public Estimate total(double pi, double z) {
        checkProbability(pi);
        return interval(t / pi, (1 - pi) / (pi * pi) * tt, z);
    }

    /** The population's row count. */
    public Estimate count(double pi, double z) {
        checkProbability(pi);
        return interval(m / pi, (1 - pi) / (pi * pi) * mm, z);
    }

    /** The population mean of the measured value per row; NaN bounds when no row was sampled. */
    public Estimate mean(double pi, double z) {
        checkProbability(pi);
        if (m == 0) {
            return new Estimate(Double.NaN, Double.NaN, Double.NaN);
        }
        double r = t / m;
        double n = m / pi;
        // Σ (t − r·m)² expanded, so that the sums merge; never below 0 despite rounding
        double residual = Math.max(0, tt - 2 * r * tm + r * r * mm);
        return interval(r, (1 - pi) / (pi * pi) * residual / (n * n), z);
    }

    private static Estimate interval(double value, double variance, double z) {
        double half = z * Math.sqrt(Math.max(0, variance));
        return new Estimate(value, value - half, value + half);
    }

    private static void checkProbability(double pi) {
        if (!(pi > 0 && pi <= 1)) {
            throw new IllegalArgumentException("an inclusion probability must be in (0, 1], got " + pi
                    + "; a 0% sample has no estimate");
        }
    }
}
