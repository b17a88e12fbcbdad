package io.ferry.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.ferry.bench.NodeProcess;

/** The server jar the build made (system property ferry.server.jar), started as users start it. */
final class ServerJar {
    /** Where the processes' output goes, one log file per process name. */
    private static final Path LOGS = Path.of("target", "it-logs");

    private ServerJar() {
    }

    /** {@code java -jar ferry-server.jar args} with a heap of {@code heap}. */
    static NodeProcess start(String name, String heap, String... args) {
        Path jar = Path.of(System.getProperty("ferry.server.jar"));
        assertTrue(Files.exists(jar), "build the server jar first: " + jar);
        return NodeProcess.start(name, NodeProcess.serverCommand(jar, heap, "1g", List.of(args)), LOGS);
    }
}
