package io.ferry.server.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.storage.Catalog;
import io.ferry.core.types.Column;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TableSchema;

/** A malformed line anywhere rejects the whole load: the right SQLSTATE, the right line, and no rows added. */
class CsvLoaderErrorTest {
    private static final TableSchema SCHEMA = TableSchema.of(
            new Column("id", FerryType.INTEGER, false),
            new Column("name", FerryType.varchar(5), true),
            new Column("price", FerryType.decimal(6, 2), true),
            new Column("day", FerryType.DATE, true),
            new Column("at", FerryType.TIMESTAMP, true),
            new Column("n", FerryType.BIGINT, true));

    private static final String GOOD = "id,name,price,day,at,n\n"
            + "1,ann,1.50,2020-01-01,2020-01-01 00:00:00,10\n"
            + "2,\"bo\nb\",2.5,2020-02-29,2020-01-01 12:30,\n";

    @RegisterExtension
    final TestCatalog storage = new TestCatalog();
    private final Catalog catalog = storage.catalog;

    @BeforeEach
    void setUp() throws Exception {
        catalog.create("existing", SCHEMA, false);
        CsvLoader.load(catalog, "existing", new StringReader(GOOD), "good.csv", CsvLoader.Options.DEFAULT, null);
    }

    /** Loads {@code badLine} after the good rows (it is line 5) into the existing table and into a new one. */
    private FerryException rejected(String badLine, String sqlState, String... inMessage) throws Exception {
        String csv = GOOD + badLine + "\n3,cy,3,2020-03-03,2020-03-03 03:03:03,3\n";
        List<Object[]> before = CsvRoundTripTest.read(catalog.require("existing"));
        FerryException e = assertThrows(FerryException.class, () -> CsvLoader.load(catalog, "existing",
                new StringReader(csv), "bad.csv", CsvLoader.Options.DEFAULT, null));
        assertEquals(sqlState, e.sqlState(), e.getMessage());
        assertTrue(e.getMessage().startsWith("bad.csv, line 5"), e.getMessage());
        for (String part : inMessage) {
            assertTrue(e.getMessage().contains(part), "'" + part + "' in: " + e.getMessage());
        }
        List<Object[]> after = CsvRoundTripTest.read(catalog.require("existing"));
        assertEquals(before.size(), after.size(), "no rows added");
        for (int i = 0; i < before.size(); i++) {
            assertArrayEquals(before.get(i), after.get(i));
        }

        FerryException again = assertThrows(FerryException.class, () -> CsvLoader.load(catalog, "fresh",
                new StringReader(csv), "bad.csv", CsvLoader.Options.DEFAULT, SCHEMA));
        assertEquals(sqlState, again.sqlState());
        assertNull(catalog.get("fresh"), "a table the load created is dropped again");
        return e;
    }

    @Test
    void wrongFieldCount() throws Exception {
        rejected("4,dee,4", SqlStates.BAD_COPY_FILE_FORMAT, "expected 6 fields but found 3");
        rejected("4,dee,4,2020-01-01,2020-01-01 00:00,4,extra", SqlStates.BAD_COPY_FILE_FORMAT, "found 7");
    }

    @Test
    void unterminatedQuote() throws Exception {
        String csv = GOOD + "4,\"never closed,1,2020-01-01,2020-01-01 00:00,4\n5,e,1,2020-01-01,2020-01-01 00:00,5\n";
        FerryException e = assertThrows(FerryException.class, () -> CsvLoader.load(catalog, "existing",
                new StringReader(csv), "bad.csv", CsvLoader.Options.DEFAULT, null));
        assertEquals(SqlStates.BAD_COPY_FILE_FORMAT, e.sqlState());
        assertTrue(e.getMessage().startsWith("bad.csv, line 5: a quoted field is not closed"), e.getMessage());
        assertEquals(2, catalog.require("existing").rowCount());
    }

    @Test
    void textAfterAClosingQuote() throws Exception {
        rejected("4,\"de\"e,1,2020-01-01,2020-01-01 00:00,4", SqlStates.BAD_COPY_FILE_FORMAT,
                "after the closing quote");
    }

    @Test
    void unparsableNumber() throws Exception {
        rejected("4x,dee,1,2020-01-01,2020-01-01 00:00,4", SqlStates.INVALID_CHARACTER_VALUE_FOR_CAST,
                "column 'id' (field 1)", "'4x'", "not a valid INTEGER");
        rejected("4,dee,1.2.3,2020-01-01,2020-01-01 00:00,4", SqlStates.INVALID_CHARACTER_VALUE_FOR_CAST,
                "column 'price'", "DECIMAL(6, 2)");
    }

    @Test
    void valueOutOfRange() throws Exception {
        rejected("3000000000,dee,1,2020-01-01,2020-01-01 00:00,4", SqlStates.NUMERIC_OUT_OF_RANGE,
                "'3000000000'", "out of range for INTEGER");
        rejected("4,dee,10000,2020-01-01,2020-01-01 00:00,4", SqlStates.NUMERIC_OUT_OF_RANGE, "DECIMAL(6, 2)");
        rejected("4,dee,1,2020-01-01,2020-01-01 00:00,9223372036854775808", SqlStates.NUMERIC_OUT_OF_RANGE,
                "BIGINT");
    }

    @Test
    void badDateOrTimestamp() throws Exception {
        rejected("4,dee,1,2021-02-29,2020-01-01 00:00,4", SqlStates.INVALID_DATETIME_FORMAT, "column 'day'",
                "'2021-02-29'");
        rejected("4,dee,1,2021-02-28,2020-01-01 24:00,4", SqlStates.INVALID_DATETIME_FORMAT, "TIMESTAMP");
    }

    @Test
    void nullInANotNullColumn() throws Exception {
        rejected(",dee,1,2020-01-01,2020-01-01 00:00,4", SqlStates.NOT_NULL_VIOLATION, "column 'id'",
                "NOT NULL");
    }

    @Test
    void stringLongerThanItsVarchar() throws Exception {
        rejected("4,deedee,1,2020-01-01,2020-01-01 00:00,4", SqlStates.STRING_DATA_RIGHT_TRUNCATION,
                "VARCHAR(5)");
        // Five characters, more than five bytes: the limit counts characters.
        String csv = "id,name,price,day,at,n\n4,ünïcö,1,2020-01-01,2020-01-01 00:00,4\n";
        CsvLoader.load(catalog, "existing", new StringReader(csv), "ok.csv", CsvLoader.Options.DEFAULT, null);
        assertEquals(3, catalog.require("existing").rowCount());
    }

    @Test
    void invalidUtf8(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("latin1.csv");
        byte[] header = "id,name,price,day,at,n\n1,ok,1,2020-01-01,2020-01-01 00:00,1\n2,caf".getBytes();
        byte[] rest = ",1,2020-01-01,2020-01-01 00:00,1\n".getBytes();
        byte[] bytes = new byte[header.length + 1 + rest.length];
        System.arraycopy(header, 0, bytes, 0, header.length);
        bytes[header.length] = (byte) 0xE9;
        System.arraycopy(rest, 0, bytes, header.length + 1, rest.length);
        Files.write(file, bytes);
        FerryException e = assertThrows(FerryException.class, () -> CsvLoader.load(catalog, "existing", file,
                CsvLoader.Options.DEFAULT, null, ProgressListener.NONE));
        assertEquals(CsvLoader.INVALID_ENCODING, e.sqlState());
        assertTrue(e.getMessage().contains("line 3, column 'name'") && e.getMessage().contains("UTF-8"),
                e.getMessage());
        assertEquals(2, catalog.require("existing").rowCount());
    }

    @Test
    void failureAfterManyBatchesStillAddsNothing() throws Exception {
        StringBuilder csv = new StringBuilder("id,name,price,day,at,n\n");
        for (int i = 0; i < 20_000; i++) {
            csv.append(i).append(",x,1,2020-01-01,2020-01-01 00:00,").append(i).append('\n');
        }
        csv.append("oops,x,1,2020-01-01,2020-01-01 00:00,1\n");
        FerryException e = assertThrows(FerryException.class, () -> CsvLoader.load(catalog, "existing",
                new StringReader(csv.toString()), "long.csv", CsvLoader.Options.DEFAULT, null));
        assertTrue(e.getMessage().startsWith("long.csv, line 20002,"), e.getMessage());
        assertEquals(2, catalog.require("existing").rowCount());
    }

    @Test
    void schemaThatDisagreesWithTheExistingTable() {
        TableSchema other = TableSchema.of(new Column("id", FerryType.BIGINT, false));
        FerryException e = assertThrows(FerryException.class, () -> CsvLoader.load(catalog, "existing",
                new StringReader("id\n1\n"), "x.csv", CsvLoader.Options.DEFAULT, other));
        assertEquals(SqlStates.DATATYPE_MISMATCH, e.sqlState());
    }

    @Test
    void headerWithTheWrongWidth() {
        FerryException e = assertThrows(FerryException.class, () -> CsvLoader.load(catalog, "existing",
                new StringReader("id;name\n"), "semi.csv", CsvLoader.Options.DEFAULT, null));
        assertEquals(SqlStates.BAD_COPY_FILE_FORMAT, e.sqlState());
        assertTrue(e.getMessage().contains("header has 1 fields"), e.getMessage());
    }

    @Test
    void blankLinesAreSkipped() throws Exception {
        String csv = "id,name,price,day,at,n\n\n4,d,1,2020-01-01,2020-01-01 00:00,4\n\n\n";
        assertEquals(1, CsvLoader.load(catalog, "existing", new StringReader(csv), "blank.csv",
                CsvLoader.Options.DEFAULT, null));
    }
}
