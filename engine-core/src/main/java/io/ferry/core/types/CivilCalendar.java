package io.ferry.core.types;

/**
 * Proleptic Gregorian calendar arithmetic on epoch days, with no objects: loaders, exporters and EXTRACT convert
 * millions of dates, and {@code java.time.LocalDate} would allocate one per value. The algorithms are Howard Hinnant's
 * {@code days_from_civil} / {@code civil_from_days} ("chrono-Compatible Low-Level Date Algorithms").
 */
public final class CivilCalendar {
    public static final long MILLIS_PER_DAY = 86_400_000L;

    private CivilCalendar() {
    }

    /** Days since 1970-01-01 of the given date; month 1-12, day 1-31 (not checked, see {@link #isValid}). */
    public static long epochDay(long year, int month, int day) {
        long y = month <= 2 ? year - 1 : year;
        long era = Math.floorDiv(y, 400);
        long yoe = y - era * 400;
        long doy = (153L * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
        long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146_097 + doe - 719_468;
    }

    /**
     * The date of an epoch day packed as {@code year << 9 | month << 5 | day}: one long instead of an object.
     * Unpack with {@link #year}, {@link #month} and {@link #day} (the shifts keep the sign of the year).
     */
    public static long civil(long epochDay) {
        return epochDay >= -FAST_DAYS && epochDay <= FAST_DAYS ? civilNear(epochDay) : civilAnywhere(epochDay);
    }

    /** Within this many days of 1970 (about 32,000 years) {@link #civilNear} holds: its ints do not overflow. */
    private static final long FAST_DAYS = 12_000_000;

    /**
     * {@link #civil} by Neri and Schneider's "Euclidean affine functions" (Software: Practice and Experience, 2022):
     * the date shifted into a calendar that starts in March of a year before any it is asked for, then divisions
     * by constants the compiler turns into multiplications, in 32 bits. Twice as fast as {@link #civilAnywhere},
     * and equal to it on every day of ±{@link #FAST_DAYS} (CivilCalendarTest).
     */
    static long civilNear(long epochDay) {
        int n = (int) epochDay + 719_468 + 146_097 * SHIFT_CYCLES; // days since March of year -400 * SHIFT_CYCLES
        int n1 = 4 * n + 3;
        int century = n1 / 146_097;
        int dayOfCentury = (n1 % 146_097) >> 2;
        long p2 = 2_939_745L * (4 * dayOfCentury + 3);
        int yearOfCentury = (int) (p2 >>> 32);
        int dayOfYear = (int) ((p2 & 0xFFFF_FFFFL) / (4 * 2_939_745L)); // from March 1
        int n3 = 2141 * dayOfYear + 197_913;
        int month = n3 >>> 16; // 3 to 14: March to February
        int day = (n3 & 0xFFFF) / 2141 + 1;
        int january = dayOfYear >= 306 ? 1 : 0; // January and February count to the next year
        long year = 100L * century + yearOfCentury - 400L * SHIFT_CYCLES + january;
        return (year << 9) | ((long) (month - 12 * january) << 5) | day;
    }

    /** 400-year cycles {@link #civilNear} shifts by, so that every day it takes is a positive count. */
    private static final int SHIFT_CYCLES = 82;

    /** {@link #civil} for any day, by Hinnant's days-to-civil algorithm. */
    static long civilAnywhere(long epochDay) {
        long z = epochDay + 719_468;
        long era = Math.floorDiv(z, 146_097);
        long doe = z - era * 146_097;
        long yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        long mp = (5 * doy + 2) / 153;
        long day = doy - (153 * mp + 2) / 5 + 1;
        long month = mp < 10 ? mp + 3 : mp - 9;
        long year = yoe + era * 400 + (month <= 2 ? 1 : 0);
        return (year << 9) | (month << 5) | day;
    }

    public static long year(long civil) {
        return civil >> 9;
    }

    public static int month(long civil) {
        return (int) ((civil >> 5) & 15);
    }

    public static int day(long civil) {
        return (int) (civil & 31);
    }

    /** The date as the integer yyyymmdd, the form SSB uses for its date keys. */
    public static int yyyymmdd(long epochDay) {
        long c = civil(epochDay);
        return (int) (year(c) * 10_000 + month(c) * 100 + day(c));
    }

    public static boolean isLeap(long year) {
        return (year & 3) == 0 && (year % 100 != 0 || year % 400 == 0);
    }

    public static int daysInMonth(long year, int month) {
        return switch (month) {
            case 2 -> isLeap(year) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    public static boolean isValid(long year, int month, int day) {
        return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
    }
}
