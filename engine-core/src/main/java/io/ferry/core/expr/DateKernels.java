package io.ferry.core.expr;

import io.ferry.core.types.CivilCalendar;
import io.ferry.core.types.TypeKind;
import io.ferry.core.vector.LongVector;

/** EXTRACT on DATE (days) and TIMESTAMP (millis), through {@link CivilCalendar}, without allocating per row. */
final class DateKernels {
    private DateKernels() {
    }

    static LongVector extract(Op op, LongVector v, TypeKind kind, int n) {
        long[] x = v.values();
        long[] r = new long[n];
        for (int i = 0; i < n; i++) {
            long days = kind == TypeKind.TIMESTAMP ? Math.floorDiv(x[i], CivilCalendar.MILLIS_PER_DAY) : x[i];
            r[i] = switch (op) {
                case EXTRACT_DOW -> Math.floorMod(days + 4, 7) + 1;
                case EXTRACT_DOY -> days - CivilCalendar.epochDay(CivilCalendar.year(CivilCalendar.civil(days)), 1, 1) + 1;
                default -> {
                    long ymd = CivilCalendar.civil(days);
                    long m = CivilCalendar.month(ymd);
                    yield switch (op) {
                        case EXTRACT_YEAR -> CivilCalendar.year(ymd);
                        case EXTRACT_MONTH -> m;
                        case EXTRACT_DAY -> CivilCalendar.day(ymd);
                        case EXTRACT_QUARTER -> (m + 2) / 3;
                        default -> throw new IllegalArgumentException(op.name());
                    };
                }
            };
        }
        return new LongVector(r, v.nulls(), n);
    }
}
