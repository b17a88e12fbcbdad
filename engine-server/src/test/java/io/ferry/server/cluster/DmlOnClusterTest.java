package io.ferry.server.cluster;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;

import io.ferry.fabric.Fabrics;
import io.ferry.sql.DmlContract;
import io.ferry.sql.EngineConfig;

/**
 * {@link DmlContract} on a coordinator with two workers, where a table's blocks live on the workers: DELETE and
 * UPDATE write new blocks there and free the old ones, in function shipping (workers scan) and data shipping (the
 * coordinator reads their blocks).
 */
class DmlOnClusterTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static Coordinator coordinator;
    private static final List<DataNode> nodes = new ArrayList<>();

    @BeforeAll
    static void start() throws InterruptedException {
        EngineConfig config = EngineConfig.defaults().withThreads(2).withBlockSize(16 * 1024);
        coordinator = Coordinator.start(new Coordinator.Options(config, "127.0.0.1", 0, 0, 0, null, Fabrics.Kind.TCP,
                TIMEOUT, List.of()));
        InetSocketAddress control = coordinator.cluster().address();
        for (int i = 1; i <= 2; i++) {
            nodes.add(DataNode.start(new DataNode.Options(Role.WORKER, "w" + i, "127.0.0.1", 0, null, control, 1,
                    64L << 20, 64L << 20, Fabrics.Kind.TCP, TIMEOUT)));
        }
        assertTrue(coordinator.cluster().awaitNodes(2, Duration.ofSeconds(30)), "workers joined");
    }

    @AfterAll
    static void stop() {
        if (coordinator != null) {
            coordinator.close();
        }
        for (DataNode n : nodes) {
            n.close();
        }
    }

    private static Connection connect(String shipping) throws SQLException {
        Connection c = coordinator.engine().connect();
        try (Statement s = c.createStatement()) {
            s.execute("SET shipping = '" + shipping + "'");
        }
        return c;
    }

    @Nested
    class FunctionShipping extends DmlContract {
        @Override
        protected Connection connectFerry() throws SQLException {
            return connect("function");
        }
    }

    @Nested
    class DataShipping extends DmlContract {
        @Override
        protected Connection connectFerry() throws SQLException {
            return connect("data");
        }
    }
}
