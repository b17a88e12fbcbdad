package io.ferry.fabric.tools;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.ferry.fabric.NodeAddress;
import io.ferry.fabric.RegionDescriptor;

/** A {@link BlockServer} started as a separate JVM, on this JVM's class path and with its Arrow flags. */
public final class BlockServerProcess implements AutoCloseable {
    private final Process process;
    private final RegionDescriptor region;
    private final int plainPort;

    private BlockServerProcess(Process process, RegionDescriptor region, int plainPort) {
        this.process = process;
        this.region = region;
        this.plainPort = plainPort;
    }

    /** Starts a tcp server of {@code bytes} bytes of the {@link BlockServer#word pattern} for {@code seed}. */
    public static BlockServerProcess start(String host, int bytes, long seed, Duration timeout) throws IOException {
        return start(host, bytes, seed, "tcp", timeout);
    }

    /** Starts a server on the given fabric ({@code tcp} or {@code rdma}). */
    public static BlockServerProcess start(String host, int bytes, long seed, String fabric, Duration timeout)
            throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // The flags Arrow and Netty need, as this JVM got them (ferry.jvm.flags in the build).
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("--add-opens") || arg.startsWith("--add-exports") || arg.startsWith("-Darrow.") || arg.startsWith("-Dio.netty.")) {
                cmd.add(arg);
            }
        }
        cmd.addAll(List.of("-Xmx256m",
                "-XX:MaxDirectMemorySize=" + (bytes + (64L << 20)), "-cp", System.getProperty("java.class.path"),
                BlockServer.class.getName(), host, Integer.toString(bytes), Long.toString(seed), fabric));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
            try {
                return out.readLine();
            } catch (IOException e) {
                return null;
            }
        });
        String ready;
        try {
            ready = line.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            ready = null;
        }
        if (ready == null || !ready.startsWith("serving ")) {
            p.destroyForcibly();
            throw new IOException("the block server did not start within " + timeout.toMillis() + " ms (said: "
                    + ready + ")");
        }
        String[] f = ready.split(" ");
        RegionDescriptor d = new RegionDescriptor(new NodeAddress(f[1], Integer.parseInt(f[2])),
                Long.parseLong(f[4]), Integer.parseInt(f[5]), Integer.parseInt(f[3]));
        return new BlockServerProcess(p, d, Integer.parseInt(f[6]));
    }

    /** The served region. */
    public RegionDescriptor region() {
        return region;
    }

    /** The plain-socket baseline's port. */
    public int plainPort() {
        return plainPort;
    }

    /** CPU time the server process has used so far (user and system), in nanoseconds. */
    public long cpuNanos() {
        return process.info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
    }

    /** Kills the server at once, as a crash would. */
    public void kill() throws InterruptedException {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws IOException, InterruptedException {
        process.getOutputStream().close(); // the server exits when its stdin closes
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            kill();
        }
    }
}
