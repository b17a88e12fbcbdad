package io.ferry.core.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.LocalDate;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.ferry.core.vector.LongVector;

/**
 * YEAR, MONTH and DAY of DATE vectors equal java.time's proleptic calendar, through the per-thread cache of days
 * already converted ({@code DateKernels.CIVIL_DAYS}): days repeated across batches (hits), days that share a slot
 * (each evicting the other), day 0 (what every slot starts as), negative days, and days too far from 1970 for a
 * slot, whose years do not fit its 32 bits.
 */
class DatePartsTest {
    @Test
    void fieldsOfCachedAndUncachedDaysAreJavaTimes() {
        Random rnd = new Random(4096);
        long[] special = {0, -1, 1, 4096, -4096, 8192, 59, -719_528, 2_932_896, 12_000_000, -12_000_000, 12_000_001,
            400_000_000, -400_000_000, Integer.MAX_VALUE, Integer.MIN_VALUE};
        for (int batch = 0; batch < 20; batch++) {
            int n = 4096;
            long[] days = new long[n];
            for (int i = 0; i < n; i++) {
                // a few hundred days that repeat, days a slot apart, and now and then a special one
                days[i] = i % 97 == 0 ? special[(i / 97 + batch) % special.length]
                        : i % 3 == 0 ? 11_000 + rnd.nextInt(300) + 4096L * rnd.nextInt(3)
                        : rnd.nextInt(2_000_000) - 1_000_000;
            }
            LongVector v = new LongVector(days, null, n);
            LongVector years = DateKernels.part(DatePart.YEAR, v, true, n);
            LongVector months = DateKernels.part(DatePart.MONTH, v, true, n);
            LongVector dayOfMonth = DateKernels.part(DatePart.DAY, v, true, n);
            for (int i = 0; i < n; i++) {
                LocalDate want = LocalDate.ofEpochDay(days[i]);
                assertEquals(want.getYear(), years.get(i), "year of " + days[i]);
                assertEquals(want.getMonthValue(), months.get(i), "month of " + days[i]);
                assertEquals(want.getDayOfMonth(), dayOfMonth.get(i), "day of " + days[i]);
            }
        }
    }
}
