package io.ferry.server.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.core.FerryException;
import io.ferry.core.storage.Catalog;
import io.ferry.core.storage.Table;
import io.ferry.core.storage.TableAppender;
import io.ferry.core.types.Column;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TableSchema;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

class CsvRoundTripTest {
    private static final TableSchema SCHEMA = TableSchema.of(
            new Column("id", FerryType.BIGINT, false),
            new Column("i", FerryType.INTEGER, true),
            new Column("d", FerryType.DOUBLE, true),
            new Column("m", FerryType.decimal(12, 3), true),
            new Column("day", FerryType.DATE, true),
            new Column("ts", FerryType.TIMESTAMP, true),
            new Column("flag", FerryType.BOOLEAN, true),
            new Column("s", FerryType.VARCHAR, true));

    private static final String[] STRINGS = {"plain", "", null, "with,comma", "with \"quotes\"", "multi\nline",
        "crlf\r\nline", "ünïcödé 日本語 🚀", " leading space", "trailing space ", "\"", ",", "NULL", "\"\"",
        "cr\ronly", "tab\tinside", "a,\"b\",c\nd"};

    @RegisterExtension
    final TestCatalog storage = new TestCatalog();
    private final Catalog catalog = storage.catalog;

    @Test
    void exportThenLoadGivesIdenticalValues(@TempDir Path dir) throws Exception {
        Table source = catalog.create("source", SCHEMA, false);
        List<Object[]> rows = rows(10_000);
        try (TableAppender appender = source.appender()) {
            for (int from = 0; from < rows.size(); from += Vector.MAX_ROWS) {
                appender.append(batch(rows.subList(from, Math.min(rows.size(), from + Vector.MAX_ROWS))));
            }
            appender.commit();
        }
        Path file = dir.resolve("source.csv");
        assertEquals(rows.size(), CsvExporter.export(source, file, ProgressListener.NONE));

        long loaded = CsvLoader.load(catalog, "copy", file, CsvLoader.Options.DEFAULT, SCHEMA, ProgressListener.NONE);
        assertEquals(rows.size(), loaded);
        assertRows(rows, read(catalog.require("copy")));

        // Loading into the existing table appends a second copy.
        CsvLoader.load(catalog, "copy", file, CsvLoader.Options.DEFAULT, null, ProgressListener.NONE);
        assertEquals(2L * rows.size(), catalog.require("copy").rowCount());
    }

    @Test
    void duckDbReadsTheExportedFileTheSameWay(@TempDir Path dir) throws Exception {
        Table source = catalog.create("source", SCHEMA, false);
        List<Object[]> rows = rows(2_000);
        try (TableAppender appender = source.appender()) {
            appender.append(batch(rows));
            appender.commit();
        }
        Path file = dir.resolve("source.csv");
        CsvExporter.export(source, file, ProgressListener.NONE);
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
                Statement st = duck.createStatement();
                ResultSet rs = st.executeQuery("SELECT id, i, m, day, s, flag FROM "
                        + SsbGeneratorTest.readCsv(file, SCHEMA) + " ORDER BY id")) {
            for (Object[] row : rows) {
                assertTrue(rs.next());
                assertEquals(row[0], rs.getLong(1));
                assertEquals(row[1], rs.getObject(2) == null ? null : rs.getLong(2));
                assertEquals(row[3], rs.getBigDecimal(3) == null ? null : rs.getBigDecimal(3).unscaledValue()
                        .longValueExact());
                assertEquals(row[4], rs.getObject(4) == null ? null
                        : rs.getDate(4).toLocalDate().toEpochDay());
                assertEquals(row[7], rs.getString(5), "string of row " + row[0]);
                assertEquals(row[6], rs.getObject(6) == null ? null : rs.getBoolean(6) ? 1L : 0L);
            }
        }
    }

    @Test
    void loadsFromAReaderWithCrlfQuotedLineBreaksAndAByteOrderMark() throws Exception {
        String csv = "\uFEFFid,name,score\r\n"
                + "1,\"Smith, John\",1.5\r\n"
                + "2,\"line one\r\nline two\",\r\n"
                + "3,\"say \"\"hi\"\"\",-2e3\r\n"
                + "4,,0\r\n"
                + "5,\"\",NaN";
        TableSchema schema = TableSchema.of(new Column("id", FerryType.BIGINT, false),
                new Column("name", FerryType.VARCHAR, true), new Column("score", FerryType.DOUBLE, true));
        assertEquals(5, CsvLoader.load(catalog, "t", new StringReader(csv), "inline.csv", CsvLoader.Options.DEFAULT,
                schema));
        List<Object[]> got = read(catalog.require("t"));
        assertEquals("Smith, John", got.get(0)[1]);
        assertEquals(1.5, got.get(0)[2]);
        assertEquals("line one\r\nline two", got.get(1)[1]);
        assertNull(got.get(1)[2]);
        assertEquals("say \"hi\"", got.get(2)[1]);
        assertEquals(-2000.0, got.get(2)[2]);
        assertNull(got.get(3)[1], "an empty unquoted field is NULL");
        assertEquals("", got.get(4)[1], "\"\" is the empty string");
        assertTrue(Double.isNaN((Double) got.get(4)[2]));
    }

    @Test
    void honoursDelimiterQuoteAndNullStringOptions() throws Exception {
        String csv = "1|'a|b'|\\N\n2|\\N|x\n3||'it''s'\n";
        TableSchema schema = TableSchema.of(new Column("id", FerryType.INTEGER, false),
                new Column("a", FerryType.VARCHAR, true), new Column("b", FerryType.VARCHAR, true));
        CsvLoader.Options options = CsvLoader.Options.DEFAULT.withHeader(false).withDelimiter('|').withQuote('\'')
                .withNullString("\\N");
        CsvLoader.load(catalog, "t", new StringReader(csv), "pipes", options, schema);
        List<Object[]> got = read(catalog.require("t"));
        assertArrayEquals(new Object[] {1L, "a|b", null}, got.get(0));
        assertArrayEquals(new Object[] {2L, null, "x"}, got.get(1));
        assertArrayEquals(new Object[] {3L, "", "it's"}, got.get(2), "an empty field is a string when NULL is \\N");
    }

    /** DECIMALs past 18 digits load exactly (rounded half away from zero to the scale) and export as they loaded. */
    @Test
    void decimalsPastEighteenDigitsLoadAndExportExactly(@TempDir Path dir) throws Exception {
        String csv = "1,12345678901234567890123456789012.123456\n2,-9999999999999999999999999999999.9999995\n3,\n"
                + "4,0.0000005\n5,+18446744073709551616\n";
        TableSchema schema = TableSchema.of(new Column("id", FerryType.INTEGER, false),
                new Column("w", FerryType.decimal(38, 6), true));
        CsvLoader.load(catalog, "wide", new StringReader(csv), "wide", CsvLoader.Options.DEFAULT.withHeader(false),
                schema);
        Path file = dir.resolve("wide.csv");
        CsvExporter.export(catalog.require("wide"), file, ProgressListener.NONE);
        assertEquals(List.of("id,w", "1,12345678901234567890123456789012.123456",
                "2,-10000000000000000000000000000000.000000", "3,", "4,0.000001", "5,18446744073709551616.000000"),
                Files.readAllLines(file, StandardCharsets.UTF_8));
        String tooWide = "1,1000000000000000000000000000000000\n";
        FerryException e = org.junit.jupiter.api.Assertions.assertThrows(FerryException.class, () -> CsvLoader.load(
                catalog, "wide", new StringReader(tooWide), "too wide", CsvLoader.Options.DEFAULT.withHeader(false),
                null));
        assertEquals("22003", e.sqlState(), e.getMessage());
        assertEquals(5, catalog.require("wide").rowCount(), "a failed load leaves the table as it was");
    }

    @Test
    void writesTheDocumentedTextForEachType(@TempDir Path dir) throws Exception {
        Table t = catalog.create("t", SCHEMA, false);
        Object[] row = {-7L, Integer.MIN_VALUE * 1L, 0.1, -1_234_567L, 0L, -1L, 1L, "x,y"};
        try (TableAppender appender = t.appender()) {
            appender.append(batch(List.<Object[]>of(row)));
            appender.commit();
        }
        Path file = dir.resolve("t.csv");
        CsvExporter.export(t, file, ProgressListener.NONE);
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertEquals("id,i,d,m,day,ts,flag,s", lines.get(0));
        assertEquals("-7,-2147483648,0.1,-1234.567,1970-01-01,1969-12-31 23:59:59.999,true,\"x,y\"", lines.get(1));
    }

    @Test
    void datesAndTimestampsFarFromTheEpochSurviveTheRoundTrip(@TempDir Path dir) throws Exception {
        TableSchema schema = TableSchema.of(new Column("day", FerryType.DATE, true),
                new Column("ts", FerryType.TIMESTAMP, true));
        long[] days = {-800_000, -719_528, 2_932_896, 3_000_000, Integer.MAX_VALUE, Integer.MIN_VALUE};
        long[] millis = {-62_135_596_800_001L, 253_402_300_800_000L, Long.MAX_VALUE / 2, -(Long.MAX_VALUE / 2),
            1, -1};
        Table t = catalog.create("t", schema, false);
        try (TableAppender appender = t.appender()) {
            appender.append(new Batch(days.length, new Vector[] {new LongVector(days, null),
                new LongVector(millis, null)}));
            appender.commit();
        }
        Path file = dir.resolve("far.csv");
        CsvExporter.export(t, file, ProgressListener.NONE);
        List<String> lines = Files.readAllLines(file);
        for (int i = 0; i < days.length; i++) {
            // java.time writes years as ISO 8601 does, as the exporter must: -0221, 0000, +10183.
            java.time.LocalDateTime ts = java.time.LocalDateTime.ofEpochSecond(Math.floorDiv(millis[i], 1000),
                    (int) Math.floorMod(millis[i], 1000) * 1_000_000, java.time.ZoneOffset.UTC);
            String time = ts.toLocalDate() + " " + ts.toLocalTime().format(
                    java.time.format.DateTimeFormatter.ofPattern(ts.getNano() == 0 ? "HH:mm:ss" : "HH:mm:ss.SSS"));
            assertEquals(java.time.LocalDate.ofEpochDay(days[i]) + "," + time, lines.get(i + 1));
        }
        CsvLoader.load(catalog, "back", file, CsvLoader.Options.DEFAULT, schema, ProgressListener.NONE);
        List<Object[]> got = read(catalog.require("back"));
        for (int i = 0; i < days.length; i++) {
            assertEquals(days[i], got.get(i)[0]);
            assertEquals(millis[i], got.get(i)[1]);
        }
    }

    /** Rows covering every type's edge values and NULLs, then seeded random ones. */
    private static List<Object[]> rows(int count) {
        long[] ints = {0, 1, -1, Integer.MAX_VALUE, Integer.MIN_VALUE};
        double[] doubles = {0.1, -1e300, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -0.0,
            1e-10, Double.MIN_VALUE, Double.MAX_VALUE, 123456789.125};
        long[] decimals = {0, -1, 123_456_789_123L, 999_999_999_999L, -999_999_999_999L};
        long[] days = {0, 8035, -25_567, 157_887, -1, 2_932_896};
        long[] timestamps = {0, 1, -1, 946_684_799_999L, -2_208_988_800_000L, 253_402_300_799_000L};
        Random random = new Random(42);
        List<Object[]> rows = new ArrayList<>(count);
        for (int r = 0; r < count; r++) {
            boolean edge = r < 200;
            Object[] row = new Object[8];
            row[0] = (long) r;
            row[1] = nullable(random, edge ? ints[r % ints.length] : (long) random.nextInt());
            row[2] = nullable(random, edge ? doubles[r % doubles.length] : random.nextGaussian() * 1e6);
            row[3] = nullable(random, edge ? decimals[r % decimals.length]
                    : random.nextLong() % 1_000_000_000_000L);
            row[4] = nullable(random, edge ? days[r % days.length] : (long) random.nextInt(100_000) - 50_000);
            row[5] = nullable(random, edge ? timestamps[r % timestamps.length]
                    : random.nextLong() % 4_000_000_000_000L);
            row[6] = nullable(random, (long) random.nextInt(2));
            row[7] = edge ? STRINGS[r % STRINGS.length] : randomString(random);
            if (r == 1) {
                Arrays.fill(row, 1, 8, null);
            }
            rows.add(row);
        }
        return rows;
    }

    private static Object nullable(Random random, Object value) {
        return random.nextInt(10) == 0 ? null : value;
    }

    private static String randomString(Random random) {
        if (random.nextInt(10) == 0) {
            return null;
        }
        String alphabet = "abc ,\"\n\r\té€🚀'|;";
        StringBuilder s = new StringBuilder();
        int n = random.nextInt(12);
        for (int i = 0; i < n; i++) {
            int at = random.nextInt(alphabet.length() - 1);
            if (Character.isHighSurrogate(alphabet.charAt(at))) {
                s.append(alphabet, at, at + 2);
            } else if (!Character.isLowSurrogate(alphabet.charAt(at))) {
                s.append(alphabet.charAt(at));
            }
        }
        return s.toString();
    }

    private static Batch batch(List<Object[]> rows) {
        int n = rows.size();
        Vector[] columns = new Vector[SCHEMA.size()];
        for (int c = 0; c < columns.length; c++) {
            boolean[] nulls = new boolean[n];
            if (c == 2) {
                double[] values = new double[n];
                for (int r = 0; r < n; r++) {
                    Object v = rows.get(r)[c];
                    nulls[r] = v == null;
                    values[r] = v == null ? 0 : (Double) v;
                }
                columns[c] = new DoubleVector(values, nulls, n);
            } else if (c == 7) {
                String[] values = new String[n];
                for (int r = 0; r < n; r++) {
                    values[r] = (String) rows.get(r)[c];
                }
                columns[c] = BytesVector.of(values);
            } else {
                long[] values = new long[n];
                for (int r = 0; r < n; r++) {
                    Object v = rows.get(r)[c];
                    nulls[r] = v == null;
                    values[r] = v == null ? 0 : (Long) v;
                }
                columns[c] = new LongVector(values, nulls, n);
            }
        }
        return new Batch(n, columns);
    }

    /** All rows of a table as boxed values (Long, Double, String, null). */
    static List<Object[]> read(Table table) {
        List<Object[]> rows = new ArrayList<>();
        table.forEachBatch(batch -> {
            for (int r = 0; r < batch.rowCount(); r++) {
                Object[] row = new Object[batch.columnCount()];
                for (int c = 0; c < row.length; c++) {
                    Vector v = batch.column(c);
                    if (v.isNull(r)) {
                        continue;
                    }
                    if (v instanceof LongVector lv) {
                        row[c] = lv.get(r);
                    } else if (v instanceof DoubleVector dv) {
                        row[c] = dv.get(r);
                    } else {
                        row[c] = ((BytesVector) v).getString(r);
                    }
                }
                rows.add(row);
            }
        });
        return rows;
    }

    private static void assertRows(List<Object[]> expected, List<Object[]> actual) {
        assertEquals(expected.size(), actual.size());
        for (int r = 0; r < expected.size(); r++) {
            Object[] e = expected.get(r);
            Object[] a = actual.get(r);
            for (int c = 0; c < e.length; c++) {
                if (e[c] instanceof Double d && a[c] instanceof Double g) {
                    assertEquals(Double.doubleToLongBits(d), Double.doubleToLongBits(g), "row " + r + " column " + c);
                } else {
                    assertEquals(e[c], a[c], "row " + r + " column " + SCHEMA.column(c).name());
                }
            }
        }
    }
}
