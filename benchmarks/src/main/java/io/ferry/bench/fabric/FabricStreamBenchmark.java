package io.ferry.bench.fabric;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

import io.ferry.fabric.BlockStream;
import io.ferry.fabric.Fabric;
import io.ferry.fabric.Peer;
import io.ferry.fabric.tcp.TcpFabric;
import io.ferry.fabric.tools.BlockServerProcess;

/**
 * Blocks per second streamed over the tcp fabric from a serving node in another JVM on loopback, by block size and
 * prefetch depth (I-Store figure 7b), and the same bytes over a plain socket as the baseline. Each operation is
 * one block; an invocation streams {@value #BLOCKS} of them through a fresh {@link BlockStream}. At the end of a
 * trial it prints the CPU time the serving process spent per GB it served.
 *
 * <p>Run: {@code java -cp benchmarks/target/ferry-benchmarks.jar org.openjdk.jmh.Main FabricStream}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED",
        "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
        "-Darrow.enable_unsafe_memory_access=true", "-Dio.netty.tryReflectionSetAccessible=true", "-Xmx1g",
        "-XX:MaxDirectMemorySize=1g"})
public class FabricStreamBenchmark {
    static final int BLOCKS = 512;
    private static final int REGION_BYTES = 64 << 20;
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @Param({"2048", "65536", "1048576"})
    public int blockSize;

    /** Prefetch depth: a state of its own, so the baseline, which has none, runs once per block size. */
    @State(Scope.Benchmark)
    public static class Prefetch {
        @Param({"1", "2", "5", "10", "20"})
        public int depth;
    }

    private BlockServerProcess server;
    private BufferAllocator allocator;
    private Fabric fabric;
    private Peer peer;
    private List<BlockStream.BlockRef> blocks;
    private SocketChannel plain;
    private ByteBuffer plainBuffer;
    /** Bytes served and server CPU nanoseconds over the measurement iterations (not warm-up, not start-up). */
    private long servedBytes;
    private long serverCpu;
    private long iterationBytes;
    private long iterationCpuAtStart;

    @Setup(Level.Trial)
    public void start() throws IOException {
        server = BlockServerProcess.start("127.0.0.1", REGION_BYTES, 1, TIMEOUT);
        allocator = new RootAllocator();
        fabric = new TcpFabric("127.0.0.1", 0, 1);
        peer = fabric.connect(server.region().node(), TIMEOUT);
        blocks = new ArrayList<>();
        int perRegion = REGION_BYTES / blockSize;
        for (int b = 0; b < BLOCKS; b++) {
            blocks.add(new BlockStream.BlockRef(server.region(), (long) (b % perRegion) * blockSize, blockSize));
        }
        plain = SocketChannel.open(new InetSocketAddress("127.0.0.1", server.plainPort()));
        plain.socket().setTcpNoDelay(true);
        plainBuffer = ByteBuffer.allocateDirect(blockSize);
    }

    @Setup(Level.Iteration)
    public void startIteration() {
        iterationBytes = 0;
        iterationCpuAtStart = server.cpuNanos();
    }

    @TearDown(Level.Iteration)
    public void endIteration(IterationParams iteration) {
        if (iteration.getType() == IterationType.MEASUREMENT) {
            serverCpu += server.cpuNanos() - iterationCpuAtStart;
            servedBytes += iterationBytes;
        }
    }

    @TearDown(Level.Trial)
    public void stop() throws Exception {
        System.out.printf("%nserving node: %.1f ms CPU per GB served (%d MB served, %.0f ms CPU, measurement"
                + " iterations only)%n", serverCpu / 1e6 / (servedBytes / 1e9), servedBytes >> 20, serverCpu / 1e6);
        plain.close();
        peer.close();
        fabric.close();
        server.close();
        allocator.close(); // fails if a stream leaked its staging
    }

    /** One-sided reads over the tcp fabric, {@code depth} in flight. */
    @Benchmark
    @OperationsPerInvocation(BLOCKS)
    public void fabric(Prefetch prefetch, Blackhole bh) {
        try (BlockStream stream = new BlockStream(fabric, peer, allocator, blocks, prefetch.depth, blockSize,
                TIMEOUT)) {
            for (ArrowBuf b = stream.next(); b != null; b = stream.next()) {
                bh.consume(b.getLong(0));
            }
        }
        iterationBytes += (long) BLOCKS * blockSize;
    }

    /**
     * The baseline: the same number of bytes as {@link #fabric} pushed by the server down one plain socket and
     * read into a direct buffer.
     */
    @Benchmark
    @OperationsPerInvocation(BLOCKS)
    public void plainSocket(Blackhole bh) throws IOException {
        ByteBuffer request = ByteBuffer.allocate(8).putLong(0, (long) BLOCKS * blockSize);
        while (request.hasRemaining()) {
            plain.write(request);
        }
        for (int b = 0; b < BLOCKS; b++) {
            plainBuffer.clear();
            while (plainBuffer.hasRemaining()) {
                if (plain.read(plainBuffer) < 0) {
                    throw new IOException("the block server closed the baseline socket");
                }
            }
            bh.consume(plainBuffer.getLong(0));
        }
        iterationBytes += (long) BLOCKS * blockSize;
    }
}
