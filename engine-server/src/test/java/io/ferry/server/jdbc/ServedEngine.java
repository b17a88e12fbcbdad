package io.ferry.server.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.SQLException;
import java.util.List;

import io.ferry.server.data.PaperTable;
import io.ferry.server.data.ProgressListener;
import io.ferry.server.data.SsbGenerator;
import io.ferry.sql.EngineConfig;
import io.ferry.sql.FerryEngine;

/** An engine with the paper's table {@code r} (and SSB at SF 0.001 if asked), served on a free port, for tests. */
record ServedEngine(FerryEngine engine, JdbcServer server) implements AutoCloseable {
    static ServedEngine start(int rows, boolean ssb) throws SQLException {
        FerryEngine engine = FerryEngine.start(EngineConfig.defaults().withThreads(2).withMemoryLimit(1L << 30)
                .withQueryMemoryLimit(256L << 20));
        PaperTable.load(engine.catalog(), "r", rows, 100, ProgressListener.NONE);
        if (ssb) {
            new SsbGenerator(0.001).load(engine.catalog(), ProgressListener.NONE);
        }
        return new ServedEngine(engine, JdbcServer.start(engine, "127.0.0.1", 0, List.of()));
    }

    /** Stops the server, then the engine, which throws if any Arrow buffer outlived the connections it closed. */
    @Override
    public void close() {
        server.close();
        engine.close();
        assertEquals(0, engine.allocator().getAllocatedMemory());
    }
}
