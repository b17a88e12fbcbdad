package io.ferry.fabric.tools;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.memory.util.MemoryUtil;

import io.ferry.fabric.Fabric;
import io.ferry.fabric.Fabrics;
import io.ferry.fabric.Region;
import io.ferry.fabric.RegionDescriptor;

/**
 * A node that only serves memory: it fills a registered region with a known pattern and lets peers read it over
 * the fabric, and, as a baseline, streams the same bytes over a plain socket. Benchmarks and tests start it as a
 * separate process; it prints one line, {@code serving HOST PORT KEY ADDRESS LENGTH PLAIN_PORT}, and runs until
 * its standard input closes (so it never outlives the process that started it) or it is killed.
 *
 * <p>Usage: {@code BlockServer HOST BYTES SEED [FABRIC]} (FABRIC: auto, tcp or rdma; default tcp)
 */
public final class BlockServer {
    private BlockServer() {
    }

    /** The pattern's 8-byte word at {@code index}: any reader can check any block without a copy of the data. */
    public static long word(long seed, long index) {
        long z = seed + (index + 1) * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 3 || args.length > 4) {
            System.err.println("usage: BlockServer HOST BYTES SEED [FABRIC]");
            System.exit(2);
        }
        String host = args[0];
        int bytes = Integer.parseInt(args[1]);
        long seed = Long.parseLong(args[2]);
        Fabrics.Kind kind = Fabrics.Kind.parse(args.length > 3 ? args[3] : "tcp");
        try (BufferAllocator allocator = new RootAllocator();
                ArrowBuf memory = allocator.buffer(bytes);
                Fabric fabric = Fabrics.open(kind, host, 0, 1);
                ServerSocketChannel plain = ServerSocketChannel.open().bind(new InetSocketAddress(host, 0))) {
            for (long i = 0; i + 8 <= bytes; i += 8) {
                memory.setLong(i, word(seed, i / 8));
            }
            try (Region region = fabric.register(memory, 0, bytes)) {
                RegionDescriptor d = region.descriptor();
                Thread baseline = new Thread(() -> servePlain(plain, memory), "plain-socket");
                baseline.setDaemon(true);
                baseline.start();
                PrintStream out = System.out;
                out.println("serving " + d.node().host() + " " + d.node().port() + " " + d.key() + " " + d.address()
                        + " " + d.length() + " " + ((InetSocketAddress) plain.getLocalAddress()).getPort());
                out.flush();
                InputStream in = System.in;
                while (in.read() >= 0) {
                    // runs until the parent closes our stdin or exits
                }
            }
        }
    }

    /**
     * The baseline: a plain blocking socket that, per request (8-byte byte count), writes that many bytes of the
     * region, wrapping around, straight from off-heap memory.
     */
    private static void servePlain(ServerSocketChannel server, ArrowBuf memory) {
        ByteBuffer all = MemoryUtil.directBuffer(memory.memoryAddress(), (int) memory.capacity());
        ByteBuffer request = ByteBuffer.allocateDirect(8);
        while (true) {
            try (SocketChannel ch = server.accept()) {
                ch.socket().setTcpNoDelay(true);
                while (true) {
                    request.clear();
                    while (request.hasRemaining()) {
                        if (ch.read(request) < 0) {
                            throw new IOException("closed");
                        }
                    }
                    long left = request.getLong(0);
                    while (left > 0) {
                        ByteBuffer chunk = all.duplicate();
                        chunk.limit((int) Math.min(chunk.capacity(), left));
                        while (chunk.hasRemaining()) {
                            left -= ch.write(chunk);
                        }
                    }
                }
            } catch (IOException e) {
                if (!server.isOpen()) {
                    return;
                }
            }
        }
    }
}
