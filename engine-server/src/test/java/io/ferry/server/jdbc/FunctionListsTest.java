package io.ferry.server.jdbc;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import io.ferry.sql.EngineConfig;
import io.ferry.sql.FerryEngine;

/**
 * The functions DatabaseMetaData lists (getStringFunctions, getNumericFunctions, getTimeDateFunctions,
 * getSystemFunctions), which BI tools read to decide which JDBC escapes they may send: each one listed is called
 * as {@code {fn NAME(...)}} through the stock Avatica driver against a real server, and must answer.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FunctionListsTest {
    /** A call of each function a list may name, on table f(s VARCHAR, x DOUBLE, d DATE, t TIMESTAMP). */
    private static final Map<String, String> CALLS = Map.ofEntries(
            Map.entry("ASCII", "ASCII(s)"), Map.entry("CHAR", "CHAR(65)"), Map.entry("CONCAT", "CONCAT(s, 'x')"),
            Map.entry("INSERT", "INSERT(s, 1, 2, 'zz')"), Map.entry("LCASE", "LCASE(s)"),
            Map.entry("LEFT", "LEFT(s, 2)"), Map.entry("LENGTH", "LENGTH(s)"), Map.entry("LOCATE", "LOCATE('b', s)"),
            Map.entry("LTRIM", "LTRIM(s)"), Map.entry("REPEAT", "REPEAT(s, 2)"),
            Map.entry("REPLACE", "REPLACE(s, 'a', 'b')"), Map.entry("RIGHT", "RIGHT(s, 2)"),
            Map.entry("RTRIM", "RTRIM(s)"), Map.entry("SPACE", "SPACE(2)"),
            Map.entry("SUBSTRING", "SUBSTRING(s, 1, 2)"), Map.entry("UCASE", "UCASE(s)"),
            Map.entry("ABS", "ABS(x)"), Map.entry("ACOS", "ACOS(0.5)"), Map.entry("ASIN", "ASIN(0.5)"),
            Map.entry("ATAN", "ATAN(0.5)"), Map.entry("ATAN2", "ATAN2(1, 2)"), Map.entry("CEILING", "CEILING(x)"),
            Map.entry("COS", "COS(x)"), Map.entry("COT", "COT(x)"), Map.entry("DEGREES", "DEGREES(x)"),
            Map.entry("EXP", "EXP(x)"), Map.entry("FLOOR", "FLOOR(x)"), Map.entry("LOG", "LOG(x)"),
            Map.entry("LOG10", "LOG10(x)"), Map.entry("MOD", "MOD(7, 3)"), Map.entry("PI", "PI()"),
            Map.entry("POWER", "POWER(x, 2)"), Map.entry("RADIANS", "RADIANS(x)"), Map.entry("RAND", "RAND()"),
            Map.entry("ROUND", "ROUND(x, 1)"), Map.entry("SIGN", "SIGN(x)"), Map.entry("SIN", "SIN(x)"),
            Map.entry("SQRT", "SQRT(x)"), Map.entry("TAN", "TAN(x)"), Map.entry("TRUNCATE", "TRUNCATE(x, 1)"),
            Map.entry("CURDATE", "CURDATE()"), Map.entry("CURTIME", "CURTIME()"), Map.entry("NOW", "NOW()"),
            Map.entry("YEAR", "YEAR(d)"), Map.entry("MONTH", "MONTH(d)"), Map.entry("DAYOFMONTH", "DAYOFMONTH(d)"),
            Map.entry("HOUR", "HOUR(t)"), Map.entry("MINUTE", "MINUTE(t)"), Map.entry("SECOND", "SECOND(t)"),
            Map.entry("QUARTER", "QUARTER(d)"), Map.entry("WEEK", "WEEK(d)"), Map.entry("DAYOFWEEK", "DAYOFWEEK(d)"),
            Map.entry("DAYOFYEAR", "DAYOFYEAR(d)"), Map.entry("TIMESTAMPADD", "TIMESTAMPADD(SQL_TSI_DAY, 1, t)"),
            Map.entry("TIMESTAMPDIFF", "TIMESTAMPDIFF(SQL_TSI_DAY, t, t)"), Map.entry("IFNULL", "IFNULL(x, 0)"),
            Map.entry("USER", "USER()"), Map.entry("DATABASE", "DATABASE()"),
            Map.entry("CONVERT", "CONVERT(x, SQL_VARCHAR)"), Map.entry("DIFFERENCE", "DIFFERENCE(s, 'abd')"),
            Map.entry("SOUNDEX", "SOUNDEX(s)"), Map.entry("CBRT", "CBRT(x)"),
            Map.entry("CONVERT_TIMEZONE", "CONVERT_TIMEZONE('UTC', 'America/New_York', t)"),
            Map.entry("DAYNAME", "DAYNAME(d)"), Map.entry("MONTHNAME", "MONTHNAME(d)"),
            Map.entry("TO_DATE", "TO_DATE('2024-03-15', 'YYYY-MM-DD')"),
            Map.entry("TO_TIMESTAMP", "TO_TIMESTAMP('2024-03-15 10:11:12', 'YYYY-MM-DD HH24:MI:SS')"));

    private FerryEngine engine;
    private JdbcServer server;
    private Connection conn;

    @BeforeAll
    void start() throws Exception {
        engine = FerryEngine.start(EngineConfig.defaults().withThreads(2));
        server = JdbcServer.start(engine, "127.0.0.1", 0, List.of());
        conn = DriverManager.getConnection(server.avaticaUrl());
        try (Statement s = conn.createStatement()) {
            s.execute("CREATE TABLE f (s VARCHAR, x DOUBLE, d DATE, t TIMESTAMP)");
            s.execute("INSERT INTO f VALUES ('abc', 1.5, DATE '2024-03-15', TIMESTAMP '2024-03-15 10:11:12')");
        }
    }

    @AfterAll
    void stop() throws Exception {
        conn.close();
        server.close();
        engine.close();
    }

    @Test
    void everyListedFunctionAnswers() throws SQLException {
        DatabaseMetaData md = conn.getMetaData();
        List<String> listed = new ArrayList<>();
        for (String list : List.of(md.getStringFunctions(), md.getNumericFunctions(), md.getTimeDateFunctions(),
                md.getSystemFunctions())) {
            assertFalse(list.isBlank(), "a function list is empty");
            for (String name : list.split(",")) {
                listed.add(name.trim());
            }
        }
        List<String> failed = new ArrayList<>();
        for (String name : listed) {
            String call = CALLS.get(name);
            if (call == null) {
                failed.add(name + ": listed, and this test has no call for it: add one");
                continue;
            }
            try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("SELECT {fn " + call + "} FROM f")) {
                assertTrue(rs.next(), name);
                rs.getObject(1);
            } catch (SQLException e) {
                failed.add(name + ": " + e.getSQLState() + " " + e.getMessage());
            }
        }
        assertTrue(failed.isEmpty(), "listed functions that fail:\n" + String.join("\n", failed));
        assertTrue(listed.size() > 40, "the lists name " + listed.size() + " functions");
    }
}
