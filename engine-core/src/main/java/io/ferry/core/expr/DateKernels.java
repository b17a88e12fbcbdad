package io.ferry.core.expr;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.types.CivilCalendar;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.LongVector;

/**
 * DATE_PART, DATE_TRUNC, DATEDIFF, FLOOR and CEIL to a unit, LAST_DAY, DAYNAME, MONTHNAME and date ± interval on
 * epoch milliseconds (a DATE is its midnight), as DuckDB computes them, through
 * {@link CivilCalendar} without allocating per row. The scalar methods are what Calcite's row engine calls for the
 * same functions, so both engines give the same answers.
 */
public final class DateKernels {
    private static final long HOUR = 3_600_000L;
    private static final long MINUTE = 60_000L;
    private static final long SECOND = 1_000L;
    /** More months than lie between year 1 and year 9999. */
    private static final long MAX_MONTHS = 12 * 10_000L;
    /** 10000-01-01, the first instant past the DATE and TIMESTAMP range. */
    private static final long END_OF_RANGE = CivilCalendar.epochDay(10_000, 1, 1) * CivilCalendar.MILLIS_PER_DAY;
    /** Indexed by DATE_PART's dow (Sunday 0) and by month - 1. */
    private static final byte[][] DAY_NAMES = utf8("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
            "Saturday");
    private static final byte[][] MONTH_NAMES = utf8("January", "February", "March", "April", "May", "June", "July",
            "August", "September", "October", "November", "December");

    private DateKernels() {
    }

    /** Epoch milliseconds of a DATE (epoch days) or TIMESTAMP value. */
    static long millis(long value, boolean date) {
        return date ? value * CivilCalendar.MILLIS_PER_DAY : value;
    }

    /** The field {@code unit} of {@code millis}, as DuckDB's DATE_PART gives it. */
    public static long part(DatePart unit, long millis) {
        long days = Math.floorDiv(millis, CivilCalendar.MILLIS_PER_DAY);
        return switch (unit) {
            case DOW -> Math.floorMod(days + 4, 7);
            case ISODOW -> isoDow(days);
            case DOY -> days - CivilCalendar.epochDay(CivilCalendar.year(CivilCalendar.civil(days)), 1, 1) + 1;
            case WEEK -> isoWeek(days);
            case ISOYEAR -> CivilCalendar.year(CivilCalendar.civil(isoThursday(days)));
            case HOUR -> Math.floorMod(millis, CivilCalendar.MILLIS_PER_DAY) / HOUR;
            case MINUTE -> Math.floorMod(millis, HOUR) / MINUTE;
            case SECOND -> Math.floorMod(millis, MINUTE) / SECOND;
            case MILLISECOND -> Math.floorMod(millis, MINUTE);
            case MICROSECOND -> Math.floorMod(millis, MINUTE) * 1000;
            default -> {
                long ymd = CivilCalendar.civil(days);
                long year = CivilCalendar.year(ymd);
                int month = CivilCalendar.month(ymd);
                yield switch (unit) {
                    case MILLENNIUM -> year > 0 ? (year - 1) / 1000 + 1 : year / 1000 - 1;
                    case CENTURY -> year > 0 ? (year - 1) / 100 + 1 : year / 100 - 1;
                    case DECADE -> year / 10;
                    case YEAR -> year;
                    case QUARTER -> (month + 2) / 3;
                    case MONTH -> month;
                    default -> CivilCalendar.day(ymd);
                };
            }
        };
    }

    /** {@code millis} truncated to the start of its {@code unit} (weeks start on Monday), as DuckDB's DATE_TRUNC. */
    public static long trunc(DatePart unit, long millis) {
        long days = Math.floorDiv(millis, CivilCalendar.MILLIS_PER_DAY);
        return switch (unit) {
            case WEEK -> (days - isoDow(days) + 1) * CivilCalendar.MILLIS_PER_DAY;
            case DAY -> days * CivilCalendar.MILLIS_PER_DAY;
            case HOUR -> Math.floorDiv(millis, HOUR) * HOUR;
            case MINUTE -> Math.floorDiv(millis, MINUTE) * MINUTE;
            case SECOND -> Math.floorDiv(millis, SECOND) * SECOND;
            case MILLISECOND, MICROSECOND -> millis;
            default -> {
                long ymd = CivilCalendar.civil(days);
                long year = CivilCalendar.year(ymd);
                int month = CivilCalendar.month(ymd);
                long start = switch (unit) {
                    case MILLENNIUM -> CivilCalendar.epochDay(Math.floorDiv(year, 1000) * 1000, 1, 1);
                    case CENTURY -> CivilCalendar.epochDay(Math.floorDiv(year, 100) * 100, 1, 1);
                    case DECADE -> CivilCalendar.epochDay(Math.floorDiv(year, 10) * 10, 1, 1);
                    case YEAR -> CivilCalendar.epochDay(year, 1, 1);
                    case QUARTER -> CivilCalendar.epochDay(year, (month - 1) / 3 * 3 + 1, 1);
                    case MONTH -> CivilCalendar.epochDay(year, month, 1);
                    default -> throw new IllegalArgumentException("DATE_TRUNC to " + unit);
                };
                yield start * CivilCalendar.MILLIS_PER_DAY;
            }
        };
    }

    /**
     * DuckDB's DATEDIFF: how many {@code unit} boundaries lie between {@code start} and {@code end} (negative when
     * end comes first): 2020-12-31 to 2021-01-01 is a year, 23:59:59 to 00:00:01 a day. Weeks are whole days over 7,
     * cut toward zero, so a Saturday to the next Monday is 0 weeks.
     */
    public static long diff(DatePart unit, long start, long end) {
        return switch (unit) {
            case WEEK -> (Math.floorDiv(end, CivilCalendar.MILLIS_PER_DAY)
                    - Math.floorDiv(start, CivilCalendar.MILLIS_PER_DAY)) / 7;
            case DAY -> Math.floorDiv(end, CivilCalendar.MILLIS_PER_DAY)
                    - Math.floorDiv(start, CivilCalendar.MILLIS_PER_DAY);
            case HOUR -> Math.floorDiv(end, HOUR) - Math.floorDiv(start, HOUR);
            case MINUTE -> Math.floorDiv(end, MINUTE) - Math.floorDiv(start, MINUTE);
            case SECOND -> Math.floorDiv(end, SECOND) - Math.floorDiv(start, SECOND);
            case MILLISECOND -> end - start;
            case MICROSECOND -> (end - start) * 1000;
            default -> {
                long a = CivilCalendar.civil(Math.floorDiv(start, CivilCalendar.MILLIS_PER_DAY));
                long b = CivilCalendar.civil(Math.floorDiv(end, CivilCalendar.MILLIS_PER_DAY));
                long ya = CivilCalendar.year(a);
                long yb = CivilCalendar.year(b);
                yield switch (unit) {
                    case MILLENNIUM -> yb / 1000 - ya / 1000;
                    case CENTURY -> yb / 100 - ya / 100;
                    case DECADE -> yb / 10 - ya / 10;
                    case YEAR -> yb - ya;
                    case QUARTER -> yb * 4 + (CivilCalendar.month(b) - 1) / 3 - ya * 4 - (CivilCalendar.month(a) - 1) / 3;
                    case MONTH -> yb * 12 + CivilCalendar.month(b) - ya * 12 - CivilCalendar.month(a);
                    default -> throw new IllegalArgumentException("DATEDIFF in " + unit);
                };
            }
        };
    }

    /** {@code millis} plus {@code months}, the day clamped to the target month's last (a TIMESTAMP keeps its time). */
    public static long plusMonths(long millis, long months) {
        long days = Math.floorDiv(millis, CivilCalendar.MILLIS_PER_DAY);
        long ymd = CivilCalendar.civil(days);
        long index = Math.addExact(CivilCalendar.year(ymd) * 12 + CivilCalendar.month(ymd) - 1, months);
        long year = Math.floorDiv(index, 12);
        int month = (int) Math.floorMod(index, 12) + 1;
        int day = Math.min(CivilCalendar.day(ymd), CivilCalendar.daysInMonth(year, month));
        return CivilCalendar.epochDay(year, month, day) * CivilCalendar.MILLIS_PER_DAY
                + Math.floorMod(millis, CivilCalendar.MILLIS_PER_DAY);
    }

    /**
     * The whole months from {@code start} to {@code end}: the largest m with {@code plusMonths(start, m) <= end}, and
     * minus the months from end to start when end comes first. This is how Calcite's TIMESTAMPDIFF counts months
     * (and DuckDB's DATE_SUB): 2024-01-31 to 2024-02-29 is a month, 2024-01-15 10:00 to 2024-02-15 09:00 is none.
     */
    public static long monthsBetween(long end, long start) {
        if (end < start) {
            return -monthsBetween(start, end);
        }
        long a = CivilCalendar.civil(Math.floorDiv(start, CivilCalendar.MILLIS_PER_DAY));
        long b = CivilCalendar.civil(Math.floorDiv(end, CivilCalendar.MILLIS_PER_DAY));
        long m = CivilCalendar.year(b) * 12 + CivilCalendar.month(b) - CivilCalendar.year(a) * 12 - CivilCalendar.month(a);
        return plusMonths(start, m) > end ? m - 1 : m;
    }

    static LongVector plusMonths(LongVector v, boolean date, LongVector months, int n) {
        long[] x = v.values();
        long[] m = months.values();
        long[] r = new long[n];
        boolean[] nulls = Nulls.or(v.nulls(), months.nulls(), n);
        for (int i = 0; i < n; i++) {
            if (nulls != null && nulls[i]) {
                continue;
            }
            long year = Math.abs(m[i]) > MAX_MONTHS ? Long.MAX_VALUE
                    : CivilCalendar.year(CivilCalendar.civil(Math.floorDiv(millis(x[i], date), CivilCalendar.MILLIS_PER_DAY)))
                            + Math.floorDiv(m[i], 12);
            if (year < 1 || year > 9999) {
                throw new FerryException(SqlStates.DATETIME_FIELD_OVERFLOW, "adding " + m[i] + " months leaves the "
                        + (date ? "DATE" : "TIMESTAMP") + " range (years 1 to 9999)");
            }
            long shifted = plusMonths(millis(x[i], date), m[i]);
            r[i] = date ? Math.floorDiv(shifted, CivilCalendar.MILLIS_PER_DAY) : shifted;
        }
        return new LongVector(r, nulls, n);
    }

    /** A DATE moves by whole days, the milliseconds cut toward zero, as Calcite's row engine does. */
    static LongVector plusMillis(LongVector v, boolean date, LongVector amount, int n) {
        long[] x = v.values();
        long[] m = amount.values();
        long[] r = new long[n];
        boolean[] nulls = Nulls.or(v.nulls(), amount.nulls(), n);
        long overflow = 0;
        for (int i = 0; i < n; i++) {
            long step = date ? m[i] / CivilCalendar.MILLIS_PER_DAY : m[i];
            long s = x[i] + step;
            overflow |= nulls != null && nulls[i] ? 0 : (x[i] ^ s) & (step ^ s);
            r[i] = s;
        }
        if (overflow < 0) {
            throw FerryException.overflow(date ? "DATE" : "TIMESTAMP");
        }
        return new LongVector(r, nulls, n);
    }

    static LongVector monthsBetween(LongVector end, boolean endDate, LongVector start, boolean startDate, int n) {
        long[] b = end.values();
        long[] a = start.values();
        long[] r = new long[n];
        for (int i = 0; i < n; i++) {
            r[i] = monthsBetween(millis(b[i], endDate), millis(a[i], startDate));
        }
        return new LongVector(r, Nulls.or(end.nulls(), start.nulls(), n), n);
    }

    /**
     * Calcite's {@code FLOOR(x TO unit)}: DATE_TRUNC's start of the unit, except that weeks start on Sunday (Calcite's
     * row engine counts them so, and FLOOR is Calcite's function; DATE_TRUNC's start on Monday, as DuckDB's).
     */
    public static long floorTo(DatePart unit, long millis) {
        if (unit == DatePart.WEEK) {
            return trunc(unit, millis + CivilCalendar.MILLIS_PER_DAY) - CivilCalendar.MILLIS_PER_DAY;
        }
        return trunc(unit, millis);
    }

    /** Calcite's {@code CEIL(x TO unit)}: x itself if it starts a unit, else the start of the next one. */
    public static long ceilTo(DatePart unit, long millis) {
        long floor = floorTo(unit, millis);
        if (floor == millis) {
            return millis;
        }
        return switch (unit) {
            case YEAR -> plusMonths(floor, 12);
            case QUARTER -> plusMonths(floor, 3);
            case MONTH -> plusMonths(floor, 1);
            case WEEK -> floor + 7 * CivilCalendar.MILLIS_PER_DAY;
            case DAY -> floor + CivilCalendar.MILLIS_PER_DAY;
            case HOUR -> floor + HOUR;
            case MINUTE -> floor + MINUTE;
            case SECOND -> floor + SECOND;
            default -> throw new IllegalArgumentException("CEIL to " + unit);
        };
    }

    /** The epoch day of the last day of the month holding {@code millis}. */
    public static long lastDay(long millis) {
        long ymd = CivilCalendar.civil(Math.floorDiv(millis, CivilCalendar.MILLIS_PER_DAY));
        long year = CivilCalendar.year(ymd);
        int month = CivilCalendar.month(ymd);
        return CivilCalendar.epochDay(year, month, CivilCalendar.daysInMonth(year, month));
    }

    /** FLOOR_TO or CEIL_TO ({@code up}) over a vector, in the argument's type; a ceiling past 9999 is 22008. */
    static LongVector floorOrCeil(DatePart unit, boolean up, LongVector v, boolean date, int n) {
        long[] x = v.values();
        long[] r = new long[n];
        boolean[] nulls = v.nulls();
        for (int i = 0; i < n; i++) {
            long m = up ? ceilTo(unit, millis(x[i], date)) : floorTo(unit, millis(x[i], date));
            if (m >= END_OF_RANGE && (nulls == null || !nulls[i])) {
                throw new FerryException(SqlStates.DATETIME_FIELD_OVERFLOW, "CEIL to " + unit + " leaves the "
                        + (date ? "DATE" : "TIMESTAMP") + " range (years 1 to 9999)");
            }
            r[i] = date ? Math.floorDiv(m, CivilCalendar.MILLIS_PER_DAY) : m;
        }
        return new LongVector(r, nulls, n);
    }

    static LongVector lastDay(LongVector v, boolean date, int n) {
        long[] x = v.values();
        long[] r = new long[n];
        for (int i = 0; i < n; i++) {
            r[i] = lastDay(millis(x[i], date));
        }
        return new LongVector(r, v.nulls(), n);
    }

    /** DAYNAME ({@code month} false) or MONTHNAME: English names, as DuckDB's and MySQL's. */
    static BytesVector name(LongVector v, boolean date, boolean month, int n) {
        long[] x = v.values();
        BytesVector.Builder out = new BytesVector.Builder(n);
        for (int i = 0; i < n; i++) {
            if (v.isNull(i)) {
                out.appendNull();
                continue;
            }
            long m = millis(x[i], date);
            out.append(month ? MONTH_NAMES[(int) part(DatePart.MONTH, m) - 1] : DAY_NAMES[(int) part(DatePart.DOW, m)]);
        }
        return out.build();
    }

    private static byte[][] utf8(String... names) {
        byte[][] out = new byte[names.length][];
        for (int i = 0; i < names.length; i++) {
            out[i] = names[i].getBytes(StandardCharsets.UTF_8);
        }
        return out;
    }

    private static long isoDow(long days) {
        return Math.floorMod(days + 3, 7) + 1;
    }

    /** The Thursday of the ISO week holding {@code days}: its year is the ISO year. */
    private static long isoThursday(long days) {
        return days - isoDow(days) + 4;
    }

    private static long isoWeek(long days) {
        long thursday = isoThursday(days);
        long year = CivilCalendar.year(CivilCalendar.civil(thursday));
        return (thursday - CivilCalendar.epochDay(year, 1, 1)) / 7 + 1;
    }

    /** Slots of {@link #CIVIL_DAYS}: 32 KiB a thread. */
    private static final int CIVIL_SLOTS = 4096;

    /**
     * Days of the calendar already converted, per thread: a direct-mapped cache of {@link #CIVIL_SLOTS} entries,
     * each a day (high 32 bits) and its {@link CivilCalendar#civil} (low 32). A column of dates holds few distinct
     * days — 1,500 in five million rows of the constructs benchmark, a few thousand in any fact table — so after the
     * first batch nearly every field is a load and a compare instead of the calendar's arithmetic, which was half of
     * {@code EXTRACT(YEAR FROM d), EXTRACT(MONTH FROM d) … GROUP BY} (each field computes it again). Every entry
     * starts as day 0's, so that a slot never holds a wrong answer.
     */
    private static final ThreadLocal<long[]> CIVIL_DAYS = ThreadLocal.withInitial(() -> {
        long[] cache = new long[CIVIL_SLOTS];
        Arrays.fill(cache, CivilCalendar.civil(0) & 0xFFFF_FFFFL);
        return cache;
    });

    static LongVector part(DatePart unit, LongVector v, boolean date, int n) {
        long[] x = v.values();
        long[] r = new long[n];
        if (date && (unit == DatePart.YEAR || unit == DatePart.MONTH || unit == DatePart.DAY)) {
            // the common fields of a DATE: straight from the epoch day, one loop per field
            int shift = unit == DatePart.YEAR ? 9 : unit == DatePart.MONTH ? 5 : 0;
            long mask = unit == DatePart.YEAR ? -1L : unit == DatePart.MONTH ? 15 : 31;
            long[] cache = CIVIL_DAYS.get();
            for (int i = 0; i < n; i++) {
                long day = x[i];
                int slot = (int) day & (CIVIL_SLOTS - 1);
                long entry = cache[slot];
                long civil;
                if (entry >> 32 == day) {
                    civil = (int) entry;
                } else {
                    civil = CivilCalendar.civil(day);
                    if (day == (int) day && civil == (int) civil) {
                        cache[slot] = day << 32 | (civil & 0xFFFF_FFFFL);
                    }
                }
                r[i] = (civil >> shift) & mask;
            }
            return new LongVector(r, v.nulls(), n);
        }
        for (int i = 0; i < n; i++) {
            r[i] = part(unit, millis(x[i], date));
        }
        return new LongVector(r, v.nulls(), n);
    }

    static LongVector trunc(DatePart unit, LongVector v, boolean date, int n) {
        long[] x = v.values();
        long[] r = new long[n];
        for (int i = 0; i < n; i++) {
            r[i] = trunc(unit, millis(x[i], date));
        }
        return new LongVector(r, v.nulls(), n);
    }

    static LongVector diff(DatePart unit, LongVector start, boolean startDate, LongVector end, boolean endDate, int n) {
        long[] a = start.values();
        long[] b = end.values();
        long[] r = new long[n];
        for (int i = 0; i < n; i++) {
            r[i] = diff(unit, millis(a[i], startDate), millis(b[i], endDate));
        }
        return new LongVector(r, Nulls.or(start.nulls(), end.nulls(), n), n);
    }
}
