package io.ferry.server.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.fabric.Fabrics;
import io.ferry.fabric.auth.ClusterSecret;
import io.ferry.server.ServerSecurity;
import io.ferry.server.StartupException;
import io.ferry.server.tls.TlsKeys;
import io.ferry.sql.EngineConfig;

/**
 * A cluster started with a secret: a worker with the same secret joins and serves queries over the tcp fabric; one
 * with another secret, or none, never joins.
 */
class ClusterSecretTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    private DataNode worker(String name, InetSocketAddress control, ClusterSecret secret) {
        return worker(name, control, secret, null);
    }

    private DataNode worker(String name, InetSocketAddress control, ClusterSecret secret, ControlTls tls) {
        return DataNode.start(new DataNode.Options(Role.WORKER, name, "127.0.0.1", 0, null, control, 1,
                64L << 20, 64L << 20, Fabrics.Kind.TCP, TIMEOUT, secret, tls));
    }

    @Test
    void onlyNodesWithTheSecretJoin() throws Exception {
        ClusterSecret.create(dir.resolve("secret"));
        ClusterSecret.create(dir.resolve("other"));
        ClusterSecret secret = ClusterSecret.load(dir.resolve("secret"));
        EngineConfig config = EngineConfig.defaults().withThreads(2).withBlockSize(8 * 1024)
                .withMemoryLimit(256L << 20);
        List<DataNode> nodes = new ArrayList<>();
        try (Coordinator coordinator = Coordinator.start(new Coordinator.Options(config, "127.0.0.1", 0, 0, 0, null,
                Fabrics.Kind.TCP, TIMEOUT, List.of(), ServerSecurity.DEFAULT, secret))) {
            InetSocketAddress control = coordinator.cluster().address();
            try {
                nodes.add(worker("outsider", control, ClusterSecret.load(dir.resolve("other"))));
                nodes.add(worker("anonymous", control, null));
                nodes.add(worker("member", control, secret));
                assertTrue(coordinator.cluster().awaitNodes(1, Duration.ofSeconds(30)), "the member did not join");
                // the others keep trying every second; none gets in
                assertFalse(coordinator.cluster().awaitNodes(2, Duration.ofSeconds(4)));
                try (Connection c = coordinator.engine().connect(); Statement s = c.createStatement()) {
                    try (ResultSet rs = s.executeQuery("SELECT name FROM sys.nodes WHERE role <> 'coordinator'")) {
                        assertTrue(rs.next());
                        assertEquals("member", rs.getString(1));
                        assertFalse(rs.next());
                    }
                    s.execute("CREATE TABLE t (k BIGINT)");
                    s.execute("INSERT INTO t SELECT * FROM (VALUES (1), (2), (3)) AS v(k)");
                    for (String shipping : List.of("function", "data")) {
                        s.execute("SET shipping = '" + shipping + "'");
                        try (ResultSet rs = s.executeQuery("SELECT SUM(k) FROM t")) {
                            assertTrue(rs.next());
                            assertEquals(6, rs.getLong(1), shipping);
                        }
                    }
                }
            } finally {
                for (DataNode n : nodes) {
                    n.close();
                }
            }
        }
    }

    @Test
    void aControlPortOnTlsTakesOnlyNodesThatTrustIt() throws Exception {
        TlsKeys.Made keys = TlsKeys.make(dir.resolve("tls"), List.of());
        TlsKeys.Made stranger = TlsKeys.make(dir.resolve("stranger"), List.of());
        ClusterSecret.create(dir.resolve("secret"));
        ClusterSecret secret = ClusterSecret.load(dir.resolve("secret"));
        EngineConfig config = EngineConfig.defaults().withThreads(2).withBlockSize(8 * 1024)
                .withMemoryLimit(256L << 20);
        List<DataNode> nodes = new ArrayList<>();
        ServerSecurity security = new ServerSecurity(null, false, keys.keystore(), keys.passwordFile());
        try (Coordinator coordinator = Coordinator.start(new Coordinator.Options(config, "127.0.0.1", 0, 0, 0, null,
                Fabrics.Kind.TCP, TIMEOUT, List.of(), security, secret, true))) {
            InetSocketAddress control = coordinator.cluster().address();
            try {
                nodes.add(worker("plain", control, secret, null));
                nodes.add(worker("wrong-trust", control, secret, ControlTls.client(stranger.truststore())));
                nodes.add(worker("member", control, secret, ControlTls.client(keys.truststore())));
                assertTrue(coordinator.cluster().awaitNodes(1, Duration.ofSeconds(30)), "the member did not join");
                assertFalse(coordinator.cluster().awaitNodes(2, Duration.ofSeconds(4)), "only the member got in");
                try (Connection c = coordinator.engine().connect(); Statement s = c.createStatement()) {
                    s.execute("CREATE TABLE t (k BIGINT)");
                    s.execute("INSERT INTO t SELECT * FROM (VALUES (1), (2), (3)) AS v(k)");
                    s.execute("SET shipping = 'function'");
                    try (ResultSet rs = s.executeQuery("SELECT SUM(k) FROM t")) {
                        assertTrue(rs.next());
                        assertEquals(6, rs.getLong(1));
                    }
                }
            } finally {
                for (DataNode n : nodes) {
                    n.close();
                }
            }
        }
        assertThrows(StartupException.class, () -> new Coordinator.Options(config, "127.0.0.1", 0, 0, 0, null,
                Fabrics.Kind.TCP, TIMEOUT, List.of(), ServerSecurity.DEFAULT, secret, true),
                "--control-tls needs a keystore");
    }
}
