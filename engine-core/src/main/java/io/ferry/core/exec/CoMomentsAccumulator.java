package io.ferry.core.exec;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

import io.ferry.core.exec.AggCall.AggKind;
import io.ferry.core.expr.Decimals;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TypeKind;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * What the two-variable statistics (COVAR_*, CORR, REGR_*) need of the rows where both y and x are non-NULL, per
 * group: their count, the means of y and x, and the sums of squared and crossed deviations from the means. Rows
 * fold in with Welford's update and states merge with the pairwise update of Chan, Golub and LeVeque ("Algorithms
 * for computing the sample variance", 1983): unlike sums of squares, neither cancels catastrophically when the
 * deviations are small beside the means. Arguments are taken as DOUBLE, so integers cannot overflow. A state leaves
 * as six little-endian doubles (n, ȳ, x̄, Syy, Sxx, Sxy) in a VARCHAR column; over such a column (no second
 * argument) it merges. A group without rows has a NULL state.
 */
final class CoMomentsAccumulator extends Accumulator {
    private static final int FIELDS = 6;
    private static final VarHandle DOUBLES = MethodHandles.byteArrayViewVarHandle(double[].class,
            ByteOrder.LITTLE_ENDIAN);

    private final double yUnit;
    private final double xUnit;
    private double[] n = new double[0];
    private double[] meanY = new double[0];
    private double[] meanX = new double[0];
    private double[] syy = new double[0];
    private double[] sxx = new double[0];
    private double[] sxy = new double[0];

    /** @param yType y's type, or VARCHAR for packed states; @param xType x's type, or null for packed states */
    CoMomentsAccumulator(FerryType yType, FerryType xType) {
        this.yUnit = unit(yType);
        this.xUnit = unit(xType);
    }

    private static double unit(FerryType t) {
        return t != null && t.kind() == TypeKind.DECIMAL ? 1.0 / Decimals.pow10(t.scale()) : 1;
    }

    @Override
    void ensure(int groups) {
        if (groups > capacity) {
            capacity = grown(capacity, groups);
            n = Arrays.copyOf(n, capacity);
            meanY = Arrays.copyOf(meanY, capacity);
            meanX = Arrays.copyOf(meanX, capacity);
            syy = Arrays.copyOf(syy, capacity);
            sxx = Arrays.copyOf(sxx, capacity);
            sxy = Arrays.copyOf(sxy, capacity);
        }
    }

    @Override
    void add(int[] groups, Vector v, int rows) {
        BytesVector states = (BytesVector) v;
        byte[] data = states.data();
        for (int i = 0; i < rows; i++) {
            if (!states.isNull(i)) {
                int at = states.start(i);
                merge(groups[i], (double) DOUBLES.get(data, at), (double) DOUBLES.get(data, at + 8),
                        (double) DOUBLES.get(data, at + 16), (double) DOUBLES.get(data, at + 24),
                        (double) DOUBLES.get(data, at + 32), (double) DOUBLES.get(data, at + 40));
            }
        }
    }

    @Override
    void add(int[] groups, Vector y, Vector x, int rows) {
        if (x == null) {
            add(groups, y, rows);
            return;
        }
        boolean[] yNulls = y.nulls();
        boolean[] xNulls = x.nulls();
        for (int i = 0; i < rows; i++) {
            if ((yNulls != null && yNulls[i]) || (xNulls != null && xNulls[i])) {
                continue;
            }
            double b = value(y, i, yUnit);
            double a = value(x, i, xUnit);
            int g = groups[i];
            double count = n[g] + 1;
            double dy = b - meanY[g];
            double dx = a - meanX[g];
            meanY[g] += dy / count;
            meanX[g] += dx / count;
            syy[g] += dy * (b - meanY[g]);
            sxx[g] += dx * (a - meanX[g]);
            sxy[g] += dx * (b - meanY[g]);
            n[g] = count;
        }
    }

    private static double value(Vector v, int i, double unit) {
        return v instanceof DoubleVector d ? d.values()[i] : ((LongVector) v).values()[i] * unit;
    }

    private void merge(int g, double nb, double yb, double xb, double syyB, double sxxB, double sxyB) {
        double na = n[g];
        double count = na + nb;
        double dy = yb - meanY[g];
        double dx = xb - meanX[g];
        double w = na * nb / count;
        meanY[g] += dy * nb / count;
        meanX[g] += dx * nb / count;
        syy[g] += syyB + dy * dy * w;
        sxx[g] += sxxB + dx * dx * w;
        sxy[g] += sxyB + dx * dy * w;
        n[g] = count;
    }

    @Override
    Vector result(int from, int count) {
        BytesVector.Builder out = new BytesVector.Builder(count);
        byte[] packed = new byte[FIELDS * Double.BYTES];
        for (int g = from; g < from + count; g++) {
            if (n[g] == 0) {
                out.appendNull();
                continue;
            }
            double[] fields = {n[g], meanY[g], meanX[g], syy[g], sxx[g], sxy[g]};
            for (int k = 0; k < FIELDS; k++) {
                DOUBLES.set(packed, k * Double.BYTES, fields[k]);
            }
            out.append(packed);
        }
        return out.build();
    }

    /**
     * The statistic {@code kind} of each packed state: NULL over no rows, for COVAR_SAMP over one, and for
     * REGR_INTERCEPT and REGR_R2 where x does not vary (as DuckDB).
     */
    static Vector finish(AggKind kind, BytesVector states) {
        int rows = states.size();
        double[] values = new double[rows];
        boolean[] nulls = new boolean[rows];
        byte[] data = states.data();
        for (int r = 0; r < rows; r++) {
            if (states.isNull(r)) {
                nulls[r] = true;
                continue;
            }
            int at = states.start(r);
            double count = (double) DOUBLES.get(data, at);
            double my = (double) DOUBLES.get(data, at + 8);
            double mx = (double) DOUBLES.get(data, at + 16);
            double syy = (double) DOUBLES.get(data, at + 24);
            double sxx = (double) DOUBLES.get(data, at + 32);
            double sxy = (double) DOUBLES.get(data, at + 40);
            // NULL where DuckDB gives NULL; a ratio of zero variances is NaN there too (0 / 0), not NULL
            nulls[r] = switch (kind) {
                case COVAR_SAMP -> count < 2;
                case REGR_INTERCEPT, REGR_R2 -> sxx == 0;
                default -> false;
            };
            values[r] = nulls[r] ? 0 : switch (kind) {
                case COVAR_POP -> sxy / count;
                case COVAR_SAMP -> sxy / (count - 1);
                case CORR -> sxy / Math.sqrt(sxx * syy);
                case REGR_SLOPE -> sxy / sxx;
                case REGR_INTERCEPT -> my - sxy / sxx * mx;
                case REGR_R2 -> syy == 0 ? 1 : sxy * sxy / (sxx * syy);
                case REGR_AVGX -> mx;
                case REGR_AVGY -> my;
                case REGR_SXX -> sxx;
                case REGR_SYY -> syy;
                case REGR_SXY -> sxy;
                default -> throw new IllegalArgumentException(kind + " is not a two-variable statistic");
            };
        }
        return new DoubleVector(values, nulls, rows);
    }
}
