package io.ferry.core.expr;

import io.ferry.core.types.TypeKind;
import io.ferry.core.vector.LongVector;

/** EXTRACT on DATE (days) and TIMESTAMP (millis), from civil-calendar arithmetic without allocating per row. */
final class DateKernels {
    private DateKernels() {
    }

    static LongVector extract(Op op, LongVector v, TypeKind kind, int n) {
        long[] x = v.values();
        long[] r = new long[n];
        for (int i = 0; i < n; i++) {
            long days = kind == TypeKind.TIMESTAMP ? Math.floorDiv(x[i], 86_400_000L) : x[i];
            r[i] = switch (op) {
                case EXTRACT_DOW -> Math.floorMod(days + 4, 7) + 1;
                case EXTRACT_DOY -> days - daysFromCivil(civilYear(days), 1, 1) + 1;
                default -> {
                    long ymd = civil(days);
                    long y = ymd / 10000;
                    long m = (ymd / 100) % 100;
                    yield switch (op) {
                        case EXTRACT_YEAR -> y;
                        case EXTRACT_MONTH -> m;
                        case EXTRACT_DAY -> ymd % 100;
                        case EXTRACT_QUARTER -> (m + 2) / 3;
                        default -> throw new IllegalArgumentException(op.name());
                    };
                }
            };
        }
        return new LongVector(r, v.nulls(), n);
    }

    private static long civilYear(long days) {
        return civil(days) / 10000;
    }

    /** Days since 1970-01-01 to year*10000 + month*100 + day (H. Hinnant's civil_from_days). */
    static long civil(long days) {
        long z = days + 719468;
        long era = Math.floorDiv(z, 146097);
        long doe = z - era * 146097;
        long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
        long y = yoe + era * 400;
        long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        long mp = (5 * doy + 2) / 153;
        long d = doy - (153 * mp + 2) / 5 + 1;
        long m = mp < 10 ? mp + 3 : mp - 9;
        return (m <= 2 ? y + 1 : y) * 10000 + m * 100 + d;
    }

    static long daysFromCivil(long y, long m, long d) {
        y -= m <= 2 ? 1 : 0;
        long era = Math.floorDiv(y, 400);
        long yoe = y - era * 400;
        long doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
        long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146097 + doe - 719468;
    }
}
