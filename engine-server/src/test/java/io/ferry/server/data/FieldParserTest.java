package io.ferry.server.data;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.ferry.core.types.CivilCalendar;

class FieldParserTest {
    private final FieldParser parser = new FieldParser();

    private int parse(String kind, String text) {
        byte[] b = ("##" + text + "##").getBytes(StandardCharsets.UTF_8);
        int len = b.length - 4;
        return switch (kind) {
            case "long" -> parser.parseLong(b, 2, len);
            case "double" -> parser.parseDouble(b, 2, len);
            case "date" -> parser.parseDate(b, 2, len);
            case "timestamp" -> parser.parseTimestamp(b, 2, len);
            case "boolean" -> parser.parseBoolean(b, 2, len);
            default -> parser.parseDecimal(b, 2, len, 6, 2);
        };
    }

    @Test
    void doublesMatchTheJdkExactly() {
        Random random = new Random(7);
        for (int i = 0; i < 40_000; i++) {
            double d = switch (i % 4) {
                case 0 -> random.nextDouble() * Math.pow(10, random.nextInt(40) - 20);
                case 1 -> Double.longBitsToDouble(random.nextLong());
                case 2 -> random.nextInt(1_000_000) / 1000.0;
                default -> random.nextGaussian();
            };
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                continue;
            }
            String[] forms = {Double.toString(d), String.format("%.17g", d), String.format("%.3f", d),
                new java.math.BigDecimal(d).toPlainString()};
            for (String s : forms) {
                assertEquals(FieldParser.OK, parse("double", s), s);
                assertEquals(Double.doubleToLongBits(Double.parseDouble(s)),
                        Double.doubleToLongBits(parser.doubleValue), s);
            }
        }
        for (String s : new String[] {".5", "5.", "-0", "+1e+3", " 42 ", "1E-400", "4.9E-324", "NaN", "-inf",
            "Infinity", "00012.50"}) {
            assertEquals(FieldParser.OK, parse("double", s), s);
        }
        for (String s : new String[] {"", ".", "e5", "1e", "1.0f", "0x1p3", "1,5", "--1", "1e400"}) {
            assertEquals(s.equals("1e400") ? FieldParser.RANGE : FieldParser.SYNTAX, parse("double", s), s);
        }
    }

    @Test
    void integersDecimalsAndBooleans() {
        assertEquals(FieldParser.OK, parse("long", "-9223372036854775808"));
        assertEquals(Long.MIN_VALUE, parser.value);
        assertEquals(FieldParser.RANGE, parse("long", "9223372036854775808"));
        assertEquals(FieldParser.SYNTAX, parse("long", "12a"));
        assertEquals(FieldParser.SYNTAX, parse("long", "-"));
        assertEquals(FieldParser.OK, parse("long", "\t+17 "));
        assertEquals(17, parser.value);

        assertEquals(FieldParser.OK, parse("decimal", "-1234.565"));
        assertEquals(-123_457, parser.value, "rounded half away from zero");
        assertEquals(FieldParser.OK, parse("decimal", ".5"));
        assertEquals(50, parser.value);
        assertEquals(FieldParser.RANGE, parse("decimal", "10000"));
        assertEquals(FieldParser.RANGE, parse("decimal", "9999.995"));
        assertEquals(FieldParser.SYNTAX, parse("decimal", "1e3"));

        assertEquals(FieldParser.OK, parse("boolean", "YES"));
        assertEquals(1, parser.value);
        assertEquals(FieldParser.OK, parse("boolean", "f"));
        assertEquals(0, parser.value);
        assertEquals(FieldParser.SYNTAX, parse("boolean", "maybe"));
    }

    @Test
    void datesAndTimestampsAgreeWithJavaTime() {
        Random random = new Random(11);
        for (int i = 0; i < 100_000; i++) {
            LocalDate day = LocalDate.ofEpochDay(random.nextInt(2_000_000) - 1_000_000);
            if (day.getYear() < 0) {
                continue;
            }
            assertEquals(FieldParser.OK, parse("date", day.toString()), day.toString());
            assertEquals(day.toEpochDay(), parser.value);
            long civil = CivilCalendar.civil(day.toEpochDay());
            assertEquals(day.getYear(), CivilCalendar.year(civil));
            assertEquals(day.getMonthValue(), CivilCalendar.month(civil));
            assertEquals(day.getDayOfMonth(), CivilCalendar.day(civil));
        }
        assertEquals(FieldParser.OK, parse("date", "2020-2-9"));
        assertEquals(FieldParser.SYNTAX, parse("date", "2021-02-29"));
        assertEquals(FieldParser.SYNTAX, parse("date", "20-01-01"));
        assertEquals(FieldParser.SYNTAX, parse("date", "2020/01/01"));

        LocalDateTime t = LocalDateTime.of(1969, 7, 20, 20, 17, 40, 123_600_000);
        assertEquals(FieldParser.OK, parse("timestamp", "1969-07-20T20:17:40.1236"));
        assertEquals(t.toInstant(ZoneOffset.UTC).toEpochMilli() + 1, parser.value, "rounded to the millisecond");
        assertEquals(FieldParser.OK, parse("timestamp", "2000-01-01"));
        assertEquals(946_684_800_000L, parser.value);
        assertEquals(FieldParser.OK, parse("timestamp", "2000-01-01 00:01"));
        assertEquals(946_684_860_000L, parser.value);
        assertEquals(FieldParser.SYNTAX, parse("timestamp", "2000-01-01 24:00:00"));
        assertEquals(FieldParser.SYNTAX, parse("timestamp", "2000-01-01 10:00:00+02"));
    }
}
