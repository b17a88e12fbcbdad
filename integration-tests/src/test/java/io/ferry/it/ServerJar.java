package io.ferry.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.ferry.bench.NodeProcess;

/** The server jar the build made (system property ferry.server.jar), started as users start it. */
final class ServerJar {
    /** Where the processes' output goes, one log file per process name. */
    private static final Path LOGS = Path.of("target", "it-logs");

    private ServerJar() {
    }

    /**
     * A node joining the coordinator at {@code controlPort} on this machine over tcp: {@code role} its role and
     * options ({@code memory --memory 512m}); returns once it runs.
     */
    static NodeProcess node(String name, int controlPort, String... role) throws InterruptedException {
        List<String> args = new ArrayList<>(List.of(role));
        args.addAll(List.of("--name", name, "--coordinator", "127.0.0.1:" + controlPort, "--fabric", "tcp"));
        NodeProcess p = start(name, "512m", args.toArray(String[]::new));
        p.await("is running", Duration.ofSeconds(60));
        return p;
    }

    /** {@code java -jar ferry-server.jar args} with a heap of {@code heap}. */
    static NodeProcess start(String name, String heap, String... args) {
        Path jar = Path.of(System.getProperty("ferry.server.jar"));
        assertTrue(Files.exists(jar), "build the server jar first: " + jar);
        return NodeProcess.start(name, NodeProcess.serverCommand(jar, heap, "1g", List.of(args)), LOGS);
    }
}
