package io.ferry.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One {@code java -jar ferry-server.jar ...} process, as users start it, with its output kept so a test can wait
 * for a line and show everything the process said when something goes wrong.
 */
final class FerryProcess implements AutoCloseable {
    private final String name;
    private final Process process;
    private final List<String> output = new ArrayList<>();

    private FerryProcess(String name, Process process) {
        this.name = name;
        this.process = process;
        Thread reader = new Thread(() -> {
            try (var in = process.inputReader()) {
                String line;
                while ((line = in.readLine()) != null) {
                    synchronized (output) {
                        output.add(line);
                        output.notifyAll();
                    }
                }
            } catch (IOException ignored) {
                // the process ended
            }
        }, "output of " + name);
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts the server jar (system property ferry.server.jar) with {@code args} and a heap of {@code heap}. */
    static FerryProcess start(String name, String heap, String... args) throws IOException {
        Path jar = Path.of(System.getProperty("ferry.server.jar"));
        assertTrue(Files.exists(jar), "build the server jar first: " + jar);
        List<String> cmd = new ArrayList<>(List.of("java", "-Xmx" + heap, "-XX:MaxDirectMemorySize=1g",
                "--add-opens=java.base/java.nio=ALL-UNNAMED", "-Darrow.enable_unsafe_memory_access=true", "-jar",
                jar.toString()));
        cmd.addAll(List.of(args));
        return new FerryProcess(name, new ProcessBuilder(cmd).redirectErrorStream(true).start());
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** Waits until the process prints a line containing {@code text}; fails, with its output, if it exits first. */
    void await(String text, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        synchronized (output) {
            while (output.stream().noneMatch(l -> l.contains(text))) {
                assertTrue(process.isAlive(), name + " exited before printing '" + text + "':\n" + output());
                assertTrue(System.nanoTime() < deadline, name + " did not print '" + text + "' within " + limit
                        + ":\n" + output());
                output.wait(200);
            }
        }
    }

    String name() {
        return name;
    }

    String output() {
        synchronized (output) {
            return String.join("\n", output);
        }
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Kills the process as a crash would (SIGKILL): no shutdown hooks, no goodbye to the cluster. */
    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                kill();
            }
        }
    }
}
