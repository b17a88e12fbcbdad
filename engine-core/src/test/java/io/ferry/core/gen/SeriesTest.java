package io.ferry.core.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.LongVector;

/** generate_series as PostgreSQL defines it, at the edges of BIGINT too, checked against a plain loop. */
class SeriesTest {
    private static List<Long> values(Series s) {
        List<Long> out = new ArrayList<>();
        for (int m = 0; m < s.morsels(); m++) {
            Batch b = s.morsel(m);
            for (int i = 0; i < b.rowCount(); i++) {
                out.add(((LongVector) b.column(0)).get(i));
            }
        }
        return out;
    }

    /** The series by the definition: from start while not past stop, with BigInteger-free care at the edges. */
    private static List<Long> loop(long start, long stop, long step) {
        List<Long> out = new ArrayList<>();
        for (java.math.BigInteger v = java.math.BigInteger.valueOf(start);
                step > 0 ? v.compareTo(java.math.BigInteger.valueOf(stop)) <= 0
                        : v.compareTo(java.math.BigInteger.valueOf(stop)) >= 0;
                v = v.add(java.math.BigInteger.valueOf(step))) {
            out.add(v.longValueExact());
        }
        return out;
    }

    @Test
    void valuesMatchTheDefinitionAcrossMorselsAndAtTheEdgesOfBigint() {
        long[][] cases = {{1, 10, 1}, {10, 1, -3}, {1, 10, -1}, {5, 5, 1}, {5, 5, -1}, {0, 10_000, 3},
                {-5, 9000, 7}, {Long.MAX_VALUE - 5, Long.MAX_VALUE, 2}, {Long.MIN_VALUE, Long.MIN_VALUE + 9000, 1},
                {Long.MIN_VALUE, Long.MAX_VALUE, Long.MAX_VALUE}, {Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE},
                {Long.MIN_VALUE, Long.MAX_VALUE, 1L << 62}};
        for (long[] c : cases) {
            Series s = new Series(c[0], c[1], c[2]);
            List<Long> expected = loop(c[0], c[1], c[2]);
            assertEquals(expected.size(), s.rows(), () -> s + " rows");
            assertEquals(expected, values(s), s::toString);
        }
    }

    @Test
    void aZeroStepOrAnEndlessSeriesIsRefused() {
        FerryException zero = assertThrows(FerryException.class, () -> new Series(1, 10, 0));
        assertEquals(SqlStates.INVALID_PARAMETER_VALUE, zero.sqlState());
        FerryException huge = assertThrows(FerryException.class, () -> new Series(Long.MIN_VALUE, Long.MAX_VALUE, 1));
        assertEquals(SqlStates.PROGRAM_LIMIT_EXCEEDED, huge.sqlState());
        assertEquals(Series.MAX_ROWS, new Series(1, Series.MAX_ROWS, 1).rows());
        assertThrows(FerryException.class, () -> new Series(0, Series.MAX_ROWS, 1));
    }
}
