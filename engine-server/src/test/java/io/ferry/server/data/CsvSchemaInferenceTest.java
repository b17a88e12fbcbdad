package io.ferry.server.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.storage.Catalog;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TableSchema;

class CsvSchemaInferenceTest {
    @RegisterExtension
    final TestCatalog storage = new TestCatalog();
    private final Catalog catalog = storage.catalog;

    private static TableSchema infer(String csv) throws Exception {
        return CsvLoader.inferSchema(new StringReader(csv), "test.csv", CsvLoader.Options.DEFAULT);
    }

    @Test
    void picksTheNarrowestTypeOfEachColumn() throws Exception {
        TableSchema schema = infer("""
                ID,Price,Day,Seen At,Ok,Name,Empty
                1,2.5,2020-01-02,2020-01-02 10:11:12,true,hello,
                -3,1e3,1999-12-31,2020-01-02T10:11,FALSE,"a, b",
                """);
        assertEquals(List.of("id", "price", "day", "seen at", "ok", "name", "empty"),
                schema.columns().stream().map(c -> c.name()).toList());
        assertEquals(List.of(FerryType.BIGINT, FerryType.DOUBLE, FerryType.DATE, FerryType.TIMESTAMP,
                FerryType.BOOLEAN, FerryType.VARCHAR, FerryType.VARCHAR), schema.types());
        assertTrue(schema.columns().stream().allMatch(c -> c.nullable()));
    }

    @Test
    void widensOnConflict() throws Exception {
        TableSchema schema = infer("""
                a,b,c,d,e,f
                1,2020-01-01,1,true,1,99999999999999999999
                2.5,2020-01-01 00:00:01,abc,1,,
                ,,,,,
                """);
        assertEquals(List.of(FerryType.DOUBLE, FerryType.TIMESTAMP, FerryType.VARCHAR, FerryType.VARCHAR,
                FerryType.BIGINT, FerryType.DOUBLE), schema.types());
    }

    @Test
    void namesColumnsWithoutAHeaderAndDeduplicatesNames() throws Exception {
        TableSchema plain = CsvLoader.inferSchema(new StringReader("1,x\n2,y\n"), "t",
                CsvLoader.Options.DEFAULT.withHeader(false));
        assertEquals(List.of("column1", "column2"), plain.columns().stream().map(c -> c.name()).toList());
        TableSchema dup = infer("a,A,,a\n1,2,3,4\n");
        assertEquals(List.of("a", "a_2", "column3", "a_3"), dup.columns().stream().map(c -> c.name()).toList());
    }

    @Test
    void loadsEveryRowIncludingThoseSampled(@TempDir Path dir) throws Exception {
        // More than the 1 MiB read buffer, so sampling must keep and replay buffered bytes across refills.
        StringBuilder csv = new StringBuilder("n,label,when\n");
        int rows = 120_000;
        for (int i = 0; i < rows; i++) {
            csv.append(i).append(",\"row ").append(i).append(" says \"\"hi\"\"\",2021-03-")
                    .append(1 + i % 28).append('\n');
        }
        Path file = dir.resolve("big.csv");
        Files.writeString(file, csv);
        CsvLoader.Options options = CsvLoader.Options.DEFAULT.withSampleRows(100_000);
        TableSchema schema = CsvLoader.inferSchema(file, options);
        assertEquals(List.of(FerryType.BIGINT, FerryType.VARCHAR, FerryType.DATE), schema.types());
        assertEquals(rows, CsvLoader.load(catalog, "big", file, options, null, ProgressListener.NONE));
        List<Object[]> got = CsvRoundTripTest.read(catalog.require("big"));
        assertEquals(rows, got.size());
        for (int i = 0; i < rows; i += 997) {
            assertEquals((long) i, got.get(i)[0]);
            assertEquals("row " + i + " says \"hi\"", got.get(i)[1]);
            assertEquals(java.time.LocalDate.of(2021, 3, 1 + i % 28).toEpochDay(), got.get(i)[2]);
        }
    }

    @Test
    void aValueBeyondTheSampleThatDoesNotFitFailsAndDropsTheNewTable() throws Exception {
        String csv = "n\n1\n2\n3\n4.5\n";
        FerryException e = assertThrows(FerryException.class, () -> CsvLoader.load(catalog, "t",
                new StringReader(csv), "late.csv", CsvLoader.Options.DEFAULT.withSampleRows(3), null));
        assertEquals(SqlStates.INVALID_CHARACTER_VALUE_FOR_CAST, e.sqlState());
        assertTrue(e.getMessage().contains("late.csv, line 5, column 'n'"), e.getMessage());
        assertTrue(e.getMessage().contains("'4.5'") && e.getMessage().contains("inferred from the first 3 rows"),
                e.getMessage());
        assertNull(catalog.get("t"), "the table the load created is dropped again");
    }

    @Test
    void emptyInputHasNothingToInferFrom() {
        FerryException e = assertThrows(FerryException.class, () -> infer(""));
        assertEquals(SqlStates.BAD_COPY_FILE_FORMAT, e.sqlState());
    }

    @Test
    void aHeaderWithoutRowsGivesVarcharColumnsAndAnEmptyTable() throws Exception {
        assertEquals(0, CsvLoader.load(catalog, "t", new StringReader("a,b\n"), "h.csv", CsvLoader.Options.DEFAULT,
                null));
        assertEquals(List.of(FerryType.VARCHAR, FerryType.VARCHAR), catalog.require("t").schema().types());
    }
}
