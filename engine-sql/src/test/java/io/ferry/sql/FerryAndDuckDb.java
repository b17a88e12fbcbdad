package io.ferry.sql;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A local Ferry engine (two threads) and an embedded DuckDB, each with one connection: the pair a test compares
 * answers with. Closing it closes both connections and the engine, which fails if Ferry leaked Arrow memory.
 */
final class FerryAndDuckDb implements AutoCloseable {
    private final FerryEngine engine;
    private final Connection ferry;
    private final Connection duck;

    private FerryAndDuckDb(FerryEngine engine, Connection ferry, Connection duck) {
        this.engine = engine;
        this.ferry = ferry;
        this.duck = duck;
    }

    static FerryAndDuckDb start() throws SQLException {
        FerryEngine engine = FerryEngine.start(EngineConfig.defaults().withThreads(2));
        return new FerryAndDuckDb(engine, engine.connect(), DriverManager.getConnection("jdbc:duckdb:"));
    }

    /** Runs each statement on Ferry and on DuckDB, in order: the same tables and rows in both. */
    void executeOnBoth(String... statements) throws SQLException {
        for (Connection c : new Connection[] {ferry, duck}) {
            try (Statement s = c.createStatement()) {
                for (String sql : statements) {
                    s.execute(sql);
                }
            }
        }
    }

    Connection ferry() {
        return ferry;
    }

    Connection duck() {
        return duck;
    }

    @Override
    public void close() throws SQLException {
        ferry.close();
        duck.close();
        engine.close();
    }
}
