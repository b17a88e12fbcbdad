package io.ferry.core.types;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.LocalDate;

import org.junit.jupiter.api.Test;

/** Epoch days to dates: both algorithms agree on every day the fast one takes, and with java.time's proleptic calendar. */
class CivilCalendarTest {
    @Test
    void theFastAlgorithmEqualsTheGeneralOneOnEveryDayItTakes() {
        for (long d = -12_000_000; d <= 12_000_000; d++) {
            if (CivilCalendar.civilNear(d) != CivilCalendar.civilAnywhere(d)) {
                assertEquals(CivilCalendar.civilAnywhere(d), CivilCalendar.civilNear(d), "epoch day " + d);
            }
        }
    }

    @Test
    void datesAreThoseOfTheProlepticGregorianCalendar() {
        for (long d : new long[] {-12_000_001, -12_000_000, -719_528, -141_428, -1, 0, 59, 11_016, 2_932_896,
                12_000_000, 12_000_001, 400_000_000}) {
            LocalDate want = LocalDate.ofEpochDay(d);
            long c = CivilCalendar.civil(d);
            assertEquals(want.getYear(), CivilCalendar.year(c), "year of " + d);
            assertEquals(want.getMonthValue(), CivilCalendar.month(c), "month of " + d);
            assertEquals(want.getDayOfMonth(), CivilCalendar.day(c), "day of " + d);
        }
    }
}
