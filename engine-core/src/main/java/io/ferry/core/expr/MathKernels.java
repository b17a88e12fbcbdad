package io.ferry.core.expr;

import java.util.concurrent.ThreadLocalRandom;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TypeKind;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * Trigonometry, logarithms, powers, SIGN and RANDOM, one loop per function over a whole vector. Logarithms
 * of zero or a negative number fail with 2201E, as in PostgreSQL (DuckDB answers NaN or -inf); SQRT and POWER answer
 * NaN where there is no real result, as DuckDB does: Calcite computes STDDEV as POWER(variance, 0.5), and rounding
 * can make a variance a hair below zero.
 */
final class MathKernels {
    private static final String INVALID_ARGUMENT_FOR_LOGARITHM = "2201E";

    private MathKernels() {
    }

    static DoubleVector unary(Op op, DoubleVector v, int n) {
        double[] x = v.values();
        double[] r = new double[n];
        switch (op) {
            case SIN -> {
                for (int i = 0; i < n; i++) {
                    r[i] = Math.sin(x[i]);
                }
            }
            case COS -> {
                for (int i = 0; i < n; i++) {
                    r[i] = Math.cos(x[i]);
                }
            }
            case TAN -> {
                for (int i = 0; i < n; i++) {
                    r[i] = Math.tan(x[i]);
                }
            }
            case ASIN -> {
                for (int i = 0; i < n; i++) {
                    r[i] = Math.asin(x[i]);
                }
            }
            case ACOS -> {
                for (int i = 0; i < n; i++) {
                    r[i] = Math.acos(x[i]);
                }
            }
            case ATAN -> {
                for (int i = 0; i < n; i++) {
                    r[i] = Math.atan(x[i]);
                }
            }
            case COT -> {
                for (int i = 0; i < n; i++) {
                    r[i] = 1.0 / Math.tan(x[i]);
                }
            }
            case DEGREES -> {
                for (int i = 0; i < n; i++) {
                    r[i] = Math.toDegrees(x[i]);
                }
            }
            case RADIANS -> {
                for (int i = 0; i < n; i++) {
                    r[i] = Math.toRadians(x[i]);
                }
            }
            case CBRT -> {
                for (int i = 0; i < n; i++) {
                    r[i] = Math.cbrt(x[i]);
                }
            }
            case LOG -> {
                checkLogArguments(v, n);
                for (int i = 0; i < n; i++) {
                    r[i] = Math.log10(x[i]);
                }
            }
            case SQRT -> {
                for (int i = 0; i < n; i++) {
                    r[i] = Math.sqrt(x[i]);
                }
            }
            case EXP -> {
                for (int i = 0; i < n; i++) {
                    r[i] = Math.exp(x[i]);
                }
            }
            case LN -> {
                checkLogArguments(v, n);
                for (int i = 0; i < n; i++) {
                    r[i] = Math.log(x[i]);
                }
            }
            case LOG2 -> {
                checkLogArguments(v, n);
                for (int i = 0; i < n; i++) {
                    r[i] = Math.log(x[i]) / Math.log(2);
                }
            }
            default -> throw new IllegalArgumentException(op.name());
        }
        return new DoubleVector(r, v.nulls(), n);
    }

    static DoubleVector binary(Op op, DoubleVector a, DoubleVector b, int n) {
        double[] x = a.values();
        double[] y = b.values();
        double[] r = new double[n];
        boolean[] nulls = Nulls.or(a.nulls(), b.nulls(), n);
        if (op == Op.ATAN2) {
            for (int i = 0; i < n; i++) {
                r[i] = Math.atan2(x[i], y[i]);
            }
        } else if (op == Op.POWER) {
            for (int i = 0; i < n; i++) {
                r[i] = pow(x[i], y[i]);
            }
        } else {
            checkLogArguments(a, n);
            checkLogArguments(b, n);
            for (int i = 0; i < n; i++) {
                if (x[i] == 1 && (nulls == null || !nulls[i])) {
                    throw new FerryException(SqlStates.DIVISION_BY_ZERO, "LOG(base, x) with base 1 divides by"
                            + " log(1) = 0; use a positive base other than 1");
                }
                r[i] = Math.log(y[i]) / Math.log(x[i]);
            }
        }
        return new DoubleVector(r, nulls, n);
    }

    /**
     * C's {@code pow}, which DuckDB calls: Java's {@code Math.pow} agrees except that it answers NaN for 1^y with y NaN
     * or infinite and for (-1)^±inf, where C answers 1.
     */
    private static double pow(double x, double y) {
        if (x == 1 || (x == -1 && Double.isInfinite(y))) {
            return 1;
        }
        return Math.pow(x, y);
    }

    private static void checkLogArguments(DoubleVector v, int n) {
        double[] x = v.values();
        for (int i = 0; i < n; i++) {
            if (x[i] <= 0 && !v.isNull(i)) {
                throw new FerryException(INVALID_ARGUMENT_FOR_LOGARITHM, "cannot take the logarithm of "
                        + (x[i] == 0 ? "zero" : "a negative number (" + x[i] + ")")
                        + "; logarithms are defined for positive numbers only, so filter or guard the argument "
                        + "(CASE WHEN x > 0 THEN LOG(x) END)");
            }
        }
    }

    /** -1, 0 or 1: a DOUBLE's sign as a DOUBLE (NaN stays NaN), an exact number's as its own type. */
    static Vector sign(Vector v, FerryType type, int n) {
        if (v instanceof DoubleVector d) {
            double[] r = new double[n];
            for (int i = 0; i < n; i++) {
                r[i] = Math.signum(d.values()[i]);
            }
            return new DoubleVector(r, d.nulls(), n);
        }
        long[] x = ((LongVector) v).values();
        long one = type.kind() == TypeKind.DECIMAL ? Decimals.POWERS[type.scale()] : 1;
        long[] r = new long[n];
        for (int i = 0; i < n; i++) {
            r[i] = Long.signum(x[i]) * one;
        }
        return new LongVector(r, v.nulls(), n);
    }

    static DoubleVector random(int n) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        double[] r = new double[n];
        for (int i = 0; i < n; i++) {
            r[i] = random.nextDouble();
        }
        return new DoubleVector(r, null, n);
    }
}
