package io.ferry.sql;

import java.sql.Connection;
import java.sql.SQLException;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** {@link DmlContract} on Ferry in one JVM. */
class DmlTest extends DmlContract {
    private static FerryEngine engine;

    @BeforeAll
    static void startEngine() {
        engine = FerryEngine.start(EngineConfig.defaults().withThreads(2));
    }

    @AfterAll
    static void stopEngine() {
        engine.close();
    }

    @Override
    protected Connection connectFerry() throws SQLException {
        return engine.connect();
    }
}
