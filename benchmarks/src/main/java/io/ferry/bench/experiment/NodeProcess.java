package io.ferry.bench.experiment;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One process of an experiment's cluster: its output goes to a log file, and {@link #await} waits for a line that
 * says it is ready, failing with the log's tail if the process dies or the time runs out.
 */
final class NodeProcess implements AutoCloseable {
    private final String name;
    private final Process process;
    private final Path log;
    private final Deque<String> tail = new ArrayDeque<>();
    private final Thread pump;

    private NodeProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
        this.pump = new Thread(this::pump, "log-" + name);
        pump.setDaemon(true);
        pump.start();
    }

    static NodeProcess start(String name, List<String> command, Path logs) {
        try {
            Files.createDirectories(logs);
            Path log = logs.resolve(name + ".log");
            Files.writeString(log, String.join(" ", command) + System.lineSeparator());
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            return new NodeProcess(name, p, log);
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + name + " (" + command.get(0) + "): " + e.getMessage(), e);
        }
    }

    private void pump() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
                PrintWriter out = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8,
                        java.nio.file.StandardOpenOption.APPEND), true)) {
            for (String line; (line = in.readLine()) != null;) {
                out.println(line);
                synchronized (tail) {
                    tail.addLast(line);
                    while (tail.size() > 40) {
                        tail.removeFirst();
                    }
                    tail.notifyAll();
                }
            }
        } catch (IOException e) {
            // the process went away; await() reports it
        }
    }

    /** Waits until a line containing {@code marker} has been printed. */
    void await(String marker, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (tail) {
            while (tail.stream().noneMatch(l -> l.contains(marker))) {
                long left = deadline - System.nanoTime();
                if (!process.isAlive() || left <= 0) {
                    throw new IllegalStateException(name + (process.isAlive() ? " did not print '" + marker
                            + "' within " + timeout.toSeconds() + " s" : " exited with code " + process.exitValue())
                            + "; the end of " + log + ":\n  " + String.join("\n  ", tail));
                }
                tail.wait(Math.max(1, Math.min(200, TimeUnit.NANOSECONDS.toMillis(left))));
            }
        }
    }

    /** SIGTERM (the node shuts down cleanly), then SIGKILL after 10 s. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
            pump.join(2000);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
