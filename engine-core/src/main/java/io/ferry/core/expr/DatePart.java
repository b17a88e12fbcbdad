package io.ferry.core.expr;

import java.util.Locale;
import java.util.Map;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;

/** The units of DATE_PART, DATE_TRUNC and DATEDIFF, spelled as DuckDB spells them ({@code 'yr'}, {@code 'mons'}, …). */
public enum DatePart {
    MILLENNIUM, CENTURY, DECADE, YEAR, QUARTER, MONTH, WEEK, DAY, HOUR, MINUTE, SECOND, MILLISECOND, MICROSECOND,
    /** Day of the week, Sunday 0 to Saturday 6. */
    DOW,
    /** Day of the week, Monday 1 to Sunday 7. */
    ISODOW,
    DOY,
    /** The year an ISO week belongs to. */
    ISOYEAR;

    private static final Map<String, DatePart> NAMES = Map.ofEntries(
            Map.entry("millennium", MILLENNIUM), Map.entry("millenniums", MILLENNIUM), Map.entry("millenium",
                    MILLENNIUM), Map.entry("mil", MILLENNIUM), Map.entry("mils", MILLENNIUM),
            Map.entry("century", CENTURY), Map.entry("centuries", CENTURY), Map.entry("cent", CENTURY),
            Map.entry("c", CENTURY),
            Map.entry("decade", DECADE), Map.entry("decades", DECADE), Map.entry("dec", DECADE),
            Map.entry("decs", DECADE),
            Map.entry("year", YEAR), Map.entry("years", YEAR), Map.entry("yr", YEAR), Map.entry("yrs", YEAR),
            Map.entry("y", YEAR),
            Map.entry("quarter", QUARTER), Map.entry("quarters", QUARTER),
            Map.entry("month", MONTH), Map.entry("months", MONTH), Map.entry("mon", MONTH), Map.entry("mons", MONTH),
            Map.entry("week", WEEK), Map.entry("weeks", WEEK), Map.entry("w", WEEK), Map.entry("weekofyear", WEEK),
            Map.entry("day", DAY), Map.entry("days", DAY), Map.entry("d", DAY), Map.entry("dayofmonth", DAY),
            Map.entry("hour", HOUR), Map.entry("hours", HOUR), Map.entry("hr", HOUR), Map.entry("hrs", HOUR),
            Map.entry("h", HOUR),
            Map.entry("minute", MINUTE), Map.entry("minutes", MINUTE), Map.entry("min", MINUTE),
            Map.entry("mins", MINUTE), Map.entry("m", MINUTE),
            Map.entry("second", SECOND), Map.entry("seconds", SECOND), Map.entry("sec", SECOND),
            Map.entry("secs", SECOND), Map.entry("s", SECOND),
            Map.entry("millisecond", MILLISECOND), Map.entry("milliseconds", MILLISECOND),
            Map.entry("ms", MILLISECOND), Map.entry("msec", MILLISECOND), Map.entry("msecs", MILLISECOND),
            Map.entry("msecond", MILLISECOND), Map.entry("mseconds", MILLISECOND),
            Map.entry("microsecond", MICROSECOND), Map.entry("microseconds", MICROSECOND),
            Map.entry("us", MICROSECOND), Map.entry("usec", MICROSECOND), Map.entry("usecs", MICROSECOND),
            Map.entry("usecond", MICROSECOND), Map.entry("useconds", MICROSECOND),
            Map.entry("dow", DOW), Map.entry("dayofweek", DOW), Map.entry("weekday", DOW),
            Map.entry("isodow", ISODOW),
            Map.entry("doy", DOY), Map.entry("dayofyear", DOY),
            Map.entry("isoyear", ISOYEAR));

    /** The units DATE_TRUNC and DATEDIFF take; the others name fields, not spans of time. */
    public boolean isSpan() {
        return ordinal() <= MICROSECOND.ordinal();
    }

    /**
     * The unit {@code name} spells for {@code function}; 22023 naming the units it takes if there is none, or if it
     * is a field (DOW, DOY, …) and {@code spans} asks for a span of time.
     */
    public static DatePart of(String name, String function, boolean spans) {
        DatePart unit = name == null ? null : NAMES.get(name.trim().toLowerCase(Locale.ROOT));
        if (unit == null || (spans && !unit.isSpan())) {
            throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, function + " does not know unit '" + name
                    + "'; use " + (spans ? "millennium, century, decade, year, quarter, month, week, day, hour, "
                    + "minute, second, millisecond or microsecond" : "millennium, century, decade, year, quarter, "
                    + "month, week, day, hour, minute, second, millisecond, microsecond, dow, isodow, doy or isoyear")
                    + " (or DuckDB's abbreviations of them: yr, mon, d, h, min, s, ms, …)");
        }
        return unit;
    }
}
