package io.ferry.server.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.storage.Catalog;
import io.ferry.core.storage.Table;
import io.ferry.core.types.TableSchema;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.LongVector;

class SsbGeneratorTest {
    private static final double SCALE = 0.01;

    @RegisterExtension
    final TestCatalog storage = new TestCatalog();
    private final Catalog catalog = storage.catalog;

    @Test
    void rowCountsFollowTheSpecification() {
        new SsbGenerator(SCALE).load(catalog, ProgressListener.NONE);
        assertEquals(300, catalog.require("customer").rowCount(), "30,000 x SF");
        assertEquals(20, catalog.require("supplier").rowCount(), "2,000 x SF");
        assertEquals(2_000, catalog.require("part").rowCount(), "200,000 x SF below SF 1");
        assertEquals(2_556, catalog.require("dwdate").rowCount());
        assertEquals(60_175, catalog.require("lineorder").rowCount(), "TPC-H's lineitem count at SF 0.01");

        assertEquals(200_000, new SsbGenerator(1).rowCount(SsbGenerator.PART));
        assertEquals(200_000, new SsbGenerator(1.5).rowCount(SsbGenerator.PART));
        assertEquals(400_000, new SsbGenerator(2).rowCount(SsbGenerator.PART), "200,000 x floor(1 + log2 SF)");
        assertEquals(600_000, new SsbGenerator(4).rowCount(SsbGenerator.PART));
        assertEquals(800_000, new SsbGenerator(10).rowCount(SsbGenerator.PART));
        assertEquals(100_000, new SsbGenerator(0.5).rowCount(SsbGenerator.PART));
        assertEquals(30_000, new SsbGenerator(1).rowCount(SsbGenerator.CUSTOMER));
        assertEquals(2_000, new SsbGenerator(1).rowCount(SsbGenerator.SUPPLIER));
    }

    @Test
    void valuesFollowTheDerivationRules() {
        new SsbGenerator(SCALE).load(catalog, ProgressListener.NONE);
        Set<Long> dateKeys = new HashSet<>();
        long[] range = {Long.MAX_VALUE, Long.MIN_VALUE};
        catalog.require("dwdate").forEachBatch(batch -> {
            LongVector keys = (LongVector) batch.column(0);
            for (int i = 0; i < batch.rowCount(); i++) {
                dateKeys.add(keys.get(i));
                range[0] = Math.min(range[0], keys.get(i));
                range[1] = Math.max(range[1], keys.get(i));
            }
        });
        assertEquals(2_556, dateKeys.size());
        assertEquals(19920101, range[0]);
        assertEquals(19981230, range[1]);

        TableSchema lo = SsbGenerator.schema(SsbGenerator.LINEORDER);
        int orderDate = lo.indexOf("lo_orderdate");
        int commitDate = lo.indexOf("lo_commitdate");
        catalog.require("lineorder").forEachBatch(batch -> {
            for (int i = 0; i < batch.rowCount(); i++) {
                long quantity = value(batch, lo, "lo_quantity", i);
                long price = value(batch, lo, "lo_extendedprice", i);
                long discount = value(batch, lo, "lo_discount", i);
                assertTrue(quantity >= 1 && quantity <= 50);
                assertTrue(discount >= 0 && discount <= 10);
                assertTrue(value(batch, lo, "lo_tax", i) <= 8);
                assertEquals(price * (100 - discount) / 100, value(batch, lo, "lo_revenue", i));
                assertEquals(6 * (price / quantity) / 10, value(batch, lo, "lo_supplycost", i));
                assertTrue(value(batch, lo, "lo_ordtotalprice", i) > 0);
                long cust = value(batch, lo, "lo_custkey", i);
                assertTrue(cust >= 1 && cust <= 300);
                long supp = value(batch, lo, "lo_suppkey", i);
                assertTrue(supp >= 1 && supp <= 20);
                long part = value(batch, lo, "lo_partkey", i);
                assertTrue(part >= 1 && part <= 2_000);
                assertTrue(dateKeys.contains(((LongVector) batch.column(orderDate)).get(i)), "orderdate joins");
                assertTrue(dateKeys.contains(((LongVector) batch.column(commitDate)).get(i)), "commitdate joins");
            }
        });

        TableSchema p = SsbGenerator.schema(SsbGenerator.PART);
        catalog.require("part").forEachBatch(batch -> {
            for (int i = 0; i < batch.rowCount(); i++) {
                String mfgr = text(batch, p, "p_mfgr", i);
                String category = text(batch, p, "p_category", i);
                String brand = text(batch, p, "p_brand1", i);
                assertTrue(mfgr.matches("MFGR#[1-5]"), mfgr);
                assertTrue(category.matches("MFGR#[1-5][1-5]") && category.startsWith(mfgr), category);
                assertTrue(brand.matches("MFGR#[1-5][1-5](0[1-9]|[1-3][0-9]|40)") && brand.startsWith(category),
                        brand);
                assertTrue(text(batch, p, "p_name", i).startsWith(text(batch, p, "p_color", i) + " "));
            }
        });

        TableSchema c = SsbGenerator.schema(SsbGenerator.CUSTOMER);
        Set<String> regions = new HashSet<>();
        catalog.require("customer").forEachBatch(batch -> {
            for (int i = 0; i < batch.rowCount(); i++) {
                String nation = text(batch, c, "c_nation", i);
                String city = text(batch, c, "c_city", i);
                assertEquals(10, city.length(), city);
                String prefix = (nation + "         ").substring(0, 9);
                assertTrue(city.startsWith(prefix) && Character.isDigit(city.charAt(9)), city);
                assertTrue(text(batch, c, "c_phone", i).startsWith(
                        Integer.toString(10 + nationKey(nation)) + "-"));
                regions.add(text(batch, c, "c_region", i));
                long key = ((LongVector) batch.column(0)).get(i);
                if (key == 1 || key == 2) {
                    assertEquals(key == 1 ? "UNITED KI1" : "UNITED ST1", city, "a pinned customer");
                }
            }
        });
        assertEquals(Set.of("AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST"), regions);
    }

    @Test
    void crossCheckWithDuckDb(@TempDir Path dir) throws Exception {
        new SsbGenerator(SCALE).load(catalog, ProgressListener.NONE);
        for (String table : SsbGenerator.TABLES) {
            long rows = CsvExporter.export(catalog.require(table), dir.resolve(table + ".csv"), ProgressListener.NONE);
            assertEquals(catalog.require(table).rowCount(), rows);
        }

        long ferryRevenue = sum("lineorder", "lo_revenue");
        long ferrySupplyCost = sum("lineorder", "lo_supplycost");
        long ferryBrands = distinct("part", "p_brand1");
        long ferryCities = distinct("customer", "c_city");

        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
                Statement st = duck.createStatement()) {
            st.execute("SET threads = 1");
            for (String table : SsbGenerator.TABLES) {
                st.execute("CREATE TABLE " + table + " AS SELECT * FROM "
                        + readCsv(dir.resolve(table + ".csv"), SsbGenerator.schema(table)));
            }
            for (String table : SsbGenerator.TABLES) {
                assertEquals(catalog.require(table).rowCount(), single(st, "SELECT count(*) FROM " + table), table);
            }
            assertEquals(ferryRevenue, single(st, "SELECT sum(lo_revenue) FROM lineorder"));
            assertEquals(ferrySupplyCost, single(st, "SELECT sum(lo_supplycost) FROM lineorder"));
            assertEquals(ferryBrands, single(st, "SELECT count(DISTINCT p_brand1) FROM part"));
            assertEquals(ferryCities, single(st, "SELECT count(DISTINCT c_city) FROM customer"));
            assertEquals(0, single(st, "SELECT count(*) FROM lineorder WHERE lo_orderdate NOT IN "
                    + "(SELECT d_datekey FROM dwdate)"), "every order date joins dwdate");

            Map<String, Integer> resultRows = new HashMap<>();
            for (Map.Entry<String, String> q : SsbQueries.all().entrySet()) {
                int n = 0;
                try (ResultSet rs = st.executeQuery(q.getValue())) {
                    while (rs.next()) {
                        if (rs.getObject(1) != null) {
                            n++;
                        }
                    }
                }
                resultRows.put(q.getKey(), n);
            }
            List<String> empty = new ArrayList<>();
            resultRows.forEach((q, n) -> {
                if (n == 0) {
                    empty.add(q);
                }
            });
            assertTrue(empty.isEmpty(), "SSB queries with no rows at SF " + SCALE + ": " + empty + " " + resultRows);
        }
    }

    @Test
    void writeCsvGivesTheSameBytesAsExportingTheLoadedTables(@TempDir Path dir) throws Exception {
        SsbGenerator generator = new SsbGenerator(SCALE);
        Path generated = Files.createDirectory(dir.resolve("generated"));
        Path exported = Files.createDirectory(dir.resolve("exported"));
        generator.writeCsv(generated, ProgressListener.NONE);
        generator.load(catalog, ProgressListener.NONE);
        for (String table : SsbGenerator.TABLES) {
            CsvExporter.export(catalog.require(table), exported.resolve(table + ".csv"), ProgressListener.NONE);
            assertArrayEquals(Files.readAllBytes(generated.resolve(table + ".csv")),
                    Files.readAllBytes(exported.resolve(table + ".csv")), table);
        }
        String header = Files.readAllLines(generated.resolve("dwdate.csv")).get(0);
        assertTrue(header.startsWith("d_datekey,d_date,d_dayofweek,d_month,d_year,"), header);
        assertEquals("19920101,\"January 1, 1992\",Wednesday,January,1992,199201,Jan1992,4,1,1,1,1,Winter,0,0,1,1",
                Files.readAllLines(generated.resolve("dwdate.csv")).get(1));
    }

    @Test
    void rejectsBadScaleAndExistingTables() {
        FerryException e = assertThrows(FerryException.class, () -> new SsbGenerator(0));
        assertEquals(SqlStates.INVALID_PARAMETER_VALUE, e.sqlState());
        assertThrows(FerryException.class, () -> new SsbGenerator(Double.NaN));
        SsbGenerator generator = new SsbGenerator(SCALE);
        generator.load(catalog, SsbGenerator.DWDATE, ProgressListener.NONE);
        e = assertThrows(FerryException.class, () -> generator.load(catalog, ProgressListener.NONE));
        assertEquals(SqlStates.DUPLICATE_TABLE, e.sqlState());
        assertNull(catalog.get("lineorder"), "tables created before the failure are dropped again");
        assertEquals(2_556, catalog.require("dwdate").rowCount(), "the existing table is untouched");
    }

    private static long value(io.ferry.core.vector.Batch batch, TableSchema schema, String column, int row) {
        return ((LongVector) batch.column(schema.indexOf(column))).get(row);
    }

    private static String text(io.ferry.core.vector.Batch batch, TableSchema schema, String column, int row) {
        return ((BytesVector) batch.column(schema.indexOf(column))).getString(row);
    }

    private static int nationKey(String nation) {
        List<String> nations = List.of("ALGERIA", "ARGENTINA", "BRAZIL", "CANADA", "EGYPT", "ETHIOPIA", "FRANCE",
                "GERMANY", "INDIA", "INDONESIA", "IRAN", "IRAQ", "JAPAN", "JORDAN", "KENYA", "MOROCCO", "MOZAMBIQUE",
                "PERU", "CHINA", "ROMANIA", "SAUDI ARABIA", "VIETNAM", "RUSSIA", "UNITED KINGDOM", "UNITED STATES");
        return nations.indexOf(nation);
    }

    private long sum(String table, String column) {
        Table t = catalog.require(table);
        int c = t.schema().indexOf(column);
        long[] sum = {0};
        t.forEachBatch(batch -> {
            long[] v = ((LongVector) batch.column(c)).values();
            for (int i = 0; i < batch.rowCount(); i++) {
                sum[0] += v[i];
            }
        });
        return sum[0];
    }

    private long distinct(String table, String column) {
        Table t = catalog.require(table);
        int c = t.schema().indexOf(column);
        Set<String> values = new HashSet<>();
        t.forEachBatch(batch -> {
            BytesVector v = (BytesVector) batch.column(c);
            for (int i = 0; i < batch.rowCount(); i++) {
                values.add(v.getString(i));
            }
        });
        return values.size();
    }

    /** DuckDB's read_csv with our dialect spelled out and the column types given, so nothing is sniffed. */
    static String readCsv(Path file, TableSchema schema) {
        StringJoiner columns = new StringJoiner(", ", "{", "}");
        for (int c = 0; c < schema.size(); c++) {
            columns.add("'" + schema.column(c).name() + "': '" + schema.type(c).sqlName() + "'");
        }
        return "read_csv('" + file + "', header = true, delim = ',', quote = '\"', escape = '\"', "
                + "nullstr = '', allow_quoted_nulls = false, columns = " + columns + ")";
    }

    private static long single(Statement st, String sql) throws Exception {
        try (ResultSet rs = st.executeQuery(sql)) {
            assertTrue(rs.next());
            return rs.getLong(1);
        }
    }
}
