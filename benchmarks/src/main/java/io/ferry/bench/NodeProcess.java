package io.ferry.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One process a harness or an integration test starts — a Ferry node from the server jar, as users start it, or a
 * helper such as a busy loop. Its output goes to a log file; {@link #await} waits for a line that says it is ready,
 * failing with the output's tail if the process dies or the time runs out.
 */
public final class NodeProcess implements AutoCloseable {
    private static final int TAIL_LINES = 40;

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

    /** Runs {@code command}, its output (stdout and stderr) going to {@code logs/NAME.log}. */
    public static NodeProcess start(String name, List<String> command, Path logs) {
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

    /**
     * {@code java … -jar serverJar args}: the heap and the off-heap ceiling, and nothing else — the jar's manifest
     * carries the --add-opens/--add-exports Arrow needs, and {@code FerryCli} sets Arrow's and Netty's properties.
     */
    public static List<String> serverCommand(Path serverJar, String heap, String directMemory, List<String> args) {
        List<String> c = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + heap, "-XX:MaxDirectMemorySize=" + directMemory, "-XX:+UseParallelGC", "-jar",
                serverJar.toString()));
        c.addAll(args);
        return c;
    }

    /** A port nothing listens on now, for a node to be told to listen on. */
    public static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port: " + e.getMessage(), e);
        }
    }

    private void pump() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
                PrintWriter out = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8,
                        StandardOpenOption.APPEND), true)) {
            for (String line; (line = in.readLine()) != null;) {
                out.println(line);
                synchronized (tail) {
                    tail.addLast(line);
                    while (tail.size() > TAIL_LINES) {
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
    public void await(String marker, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (tail) {
            while (tail.stream().noneMatch(l -> l.contains(marker))) {
                long left = deadline - System.nanoTime();
                if (!process.isAlive() || left <= 0) {
                    throw new IllegalStateException(name + (process.isAlive() ? " did not print '" + marker
                            + "' within " + timeout.toSeconds() + " s" : " exited with code " + process.exitValue())
                            + "; the end of " + log + ":\n" + output());
                }
                tail.wait(Math.max(1, Math.min(200, TimeUnit.NANOSECONDS.toMillis(left))));
            }
        }
    }

    public String name() {
        return name;
    }

    /** The last lines the process printed (all of them are in its log file). */
    public String output() {
        synchronized (tail) {
            return "  " + String.join("\n  ", tail);
        }
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** The process id: the JVM's, as the wrappers before it ({@code sh}, {@code taskset}) exec it in their place. */
    public long pid() {
        return process.pid();
    }

    /** Kills the process as a crash would (SIGKILL): no shutdown hooks, no goodbye to the cluster. */
    public void kill() throws InterruptedException {
        process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }

    /** Waits up to {@code within} for the process to end; its exit status, or -1 if it still runs. */
    public int exitStatus(Duration within) throws InterruptedException {
        return process.waitFor(within.toMillis(), TimeUnit.MILLISECONDS) ? process.exitValue() : -1;
    }

    /** CPU time the process has used so far (zero where the platform does not tell). */
    public Duration cpuTime() {
        return process.info().totalCpuDuration().orElse(Duration.ZERO);
    }

    /** SIGTERM, as a service manager stops a server; whether the process exited within {@code within}. */
    public boolean terminate(Duration within) throws InterruptedException {
        process.destroy();
        return process.waitFor(within.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** SIGTERM (a node shuts down cleanly), then SIGKILL after 10 s. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                kill();
            }
            pump.join(2000);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
