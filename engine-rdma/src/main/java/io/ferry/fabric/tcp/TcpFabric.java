package io.ferry.fabric.tcp;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;

import io.ferry.core.SqlStates;
import io.ferry.fabric.Fabric;
import io.ferry.fabric.FabricException;
import io.ferry.fabric.NodeAddress;
import io.ferry.fabric.Peer;
import io.ferry.fabric.Region;
import io.ferry.fabric.RegionDescriptor;
import io.ferry.fabric.auth.ClusterSecret;
import io.ferry.fabric.auth.SecretHandshake;
import io.ferry.fabric.frame.FrameDecoder;
import io.ferry.fabric.frame.FrameHandler;
import io.ferry.fabric.frame.Frames;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;

/**
 * The fabric over TCP (Netty): the same one-sided semantics as RDMA, so every machine runs Ferry. A node listens
 * on one port; peers send READ and WRITE requests in {@link Frames frames}, and this node's network threads answer
 * them from registered memory without running any query code.
 */
public final class TcpFabric implements Fabric {
    static final long CLOSE_MILLIS = 5_000;

    private final EventLoopGroup group;
    private final Channel server;
    private final ChannelGroup served = new DefaultChannelGroup("fabric-served", GlobalEventExecutor.INSTANCE);
    private final ChannelGroup dialed = new DefaultChannelGroup("fabric-dialed", GlobalEventExecutor.INSTANCE);
    private final NodeAddress address;
    private final Map<Integer, TcpRegion> regions = new ConcurrentHashMap<>();
    /** The cluster's secret, or null when its processes do not authenticate each other. */
    private final ClusterSecret secret;
    private static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);
    private final AtomicInteger keys = new AtomicInteger();
    private volatile boolean closed;
    /**
     * Experiments only: {@code FERRY_FABRIC_READ_DELAY_US} (or the system property {@code ferry.fabric.readDelayUs})
     * holds every READ reply this node serves back by that many microseconds, to emulate a link's latency where the kernel cannot (no netem here;
     * ../shared/notes/network-shaping.md). Unset, replies go at once and this is null.
     */
    private final java.util.concurrent.ScheduledExecutorService delayed;
    private final long readDelayNanos;

    /**
     * Listens on {@code host:port} (port 0: any free port) with {@code ioThreads} network threads, which serve
     * this node's regions and carry its own reads.
     */
    public TcpFabric(String host, int port, int ioThreads) {
        this(host, port, ioThreads, host);
    }

    /**
     * As above, but announces {@code advertised} as this node's host in its region descriptors: the name other nodes
     * reach it by when it listens on a wildcard or container-local address.
     */
    public TcpFabric(String host, int port, int ioThreads, String advertised) {
        this(host, port, ioThreads, advertised, null);
    }

    /** As above; with {@code secret}, every connection first passes a {@link SecretHandshake} (null: none). */
    public TcpFabric(String host, int port, int ioThreads, String advertised, ClusterSecret secret) {
        this.secret = secret;
        this.readDelayNanos = readDelay(System.getProperty("ferry.fabric.readDelayUs",
                System.getenv("FERRY_FABRIC_READ_DELAY_US")));
        // one thread, so that delayed replies leave in the order their requests came
        this.delayed = readDelayNanos == 0 ? null : java.util.concurrent.Executors.newSingleThreadScheduledExecutor(
                new DefaultThreadFactory("ferry-fabric-delay", true));
        ThreadFactory threads = new DefaultThreadFactory("ferry-fabric", true);
        this.group = new MultiThreadIoEventLoopGroup(ioThreads, threads, NioIoHandler.newFactory());
        try {
            ServerBootstrap b = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(pipeline(secret, false, ch -> {
                        served.add(ch);
                        return new ServingHandler(this);
                    }));
            this.server = b.bind(host, port).syncUninterruptibly().channel();
        } catch (RuntimeException e) {
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            throw new FabricException(SqlStates.UNABLE_TO_CONNECT, "the tcp fabric cannot listen on " + host + ":"
                    + port + ": " + e.getMessage() + "; choose another port", e);
        }
        this.address = new NodeAddress(advertised, ((InetSocketAddress) server.localAddress()).getPort());
    }

    /**
     * A frame pipeline: the secret handshake if the cluster has a secret, consolidated flushes (many small replies
     * per syscall), the decoder, then the handler.
     */
    private static ChannelInitializer<SocketChannel> pipeline(ClusterSecret secret, boolean dialler,
            Function<Channel, FrameHandler> h) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(SocketChannel ch) {
                if (secret != null) {
                    ch.pipeline().addLast(new SecretHandshake(secret, dialler, HANDSHAKE_TIMEOUT));
                }
                ch.pipeline().addLast(new FlushConsolidationHandler(64, true),
                        new FrameDecoder(h.apply(ch), Frames.DEFAULT_MAX_BODY, Integer.MAX_VALUE),
                        new ChannelInboundHandlerAdapter() {
                            @Override
                            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                                ServingHandler.log(ctx, cause);
                                ctx.close();
                            }
                        });
            }
        };
    }

    @Override
    public String provider() {
        return "tcp";
    }

    @Override
    public NodeAddress address() {
        return address;
    }

    @Override
    public int registeredRegions() {
        return regions.size();
    }

    @Override
    public Region register(ArrowBuf buffer, long offset, int length) {
        if (closed) {
            throw new IllegalStateException("fabric " + address + " is closed");
        }
        TcpRegion r = new TcpRegion(this, RegionDescriptor.of(address, buffer, offset, length, keys.incrementAndGet()),
                buffer);
        regions.put(r.descriptor().key(), r);
        return r;
    }

    void deregister(TcpRegion region) {
        regions.remove(region.descriptor().key(), region);
    }

    /** This node's region named by a request, with the requested range checked. */
    TcpRegion resolve(FabricMessages.Access a) {
        TcpRegion r = regions.get(a.key());
        if (r == null || r.descriptor().address() != a.address()) {
            throw new FabricException(SqlStates.INVALID_PARAMETER_VALUE, notRegistered(a.key(), address));
        }
        r.descriptor().checkRange(a.offset(), a.length());
        return r;
    }

    /**
     * {@code length} bytes of registered memory as a Netty buffer, without a copy; releasing it frees nothing.
     * Goes through Arrow's direct-buffer view, which works wherever Arrow does (Netty's own address wrapper needs
     * sun.misc.Unsafe).
     */
    static ByteBuf wrap(long address, int length) {
        return length == 0 ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(MemoryUtil.directBuffer(address, length));
    }

    static String notRegistered(int key, NodeAddress node) {
        return "region " + key + " is not registered at " + node + " (deregistered, or a stale descriptor)";
    }

    /** Closes every connection this node serves: the way to release sends held by a peer that stopped reading. */
    void dropServingConnections() {
        served.close().awaitUninterruptibly(CLOSE_MILLIS);
    }

    @Override
    public Peer connect(NodeAddress node, Duration timeout) {
        if (closed) {
            throw new IllegalStateException("fabric " + address + " is closed");
        }
        TcpPeer peer = new TcpPeer(this, node);
        Bootstrap b = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                // Large blocks arrive in reads of up to 1 MiB rather than Netty's default 64 KiB: fewer wake-ups
                // and copies per block; the adaptive allocator shrinks back for small blocks.
                .option(ChannelOption.RCVBUF_ALLOCATOR, new AdaptiveRecvByteBufAllocator(512, 16384, 1 << 20))
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()))
                .handler(pipeline(secret, true, ch -> peer));
        ChannelFuture f = b.connect(node.host(), node.port());
        if (!f.awaitUninterruptibly(timeout.toMillis()) || !f.isSuccess()) {
            f.cancel(false);
            f.channel().close();
            String why = f.cause() == null ? "no answer within " + timeout.toMillis() + " ms" : f.cause().getMessage();
            throw new FabricException(SqlStates.UNABLE_TO_CONNECT, "cannot reach the fabric of " + node + ": " + why
                    + "; check that the node is running and the port is open", f.cause());
        }
        dialed.add(f.channel());
        peer.attach(f.channel());
        return peer;
    }

    private static long readDelay(String micros) {
        if (micros == null || micros.isBlank()) {
            return 0;
        }
        try {
            return TimeUnit.MICROSECONDS.toNanos(Math.max(0, Long.parseLong(micros.trim())));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("FERRY_FABRIC_READ_DELAY_US must be a number of microseconds, got '"
                    + micros + "'", e);
        }
    }

    /** Whether READ replies wait for an emulated latency (experiments only). */
    boolean delaysReads() {
        return delayed != null;
    }

    /** Runs {@code reply} after the emulated latency; only when {@link #delaysReads}. */
    void delay(Runnable reply) {
        delayed.schedule(reply, readDelayNanos, TimeUnit.NANOSECONDS);
    }

    /** Stops serving: every connection closes, so peers' outstanding operations fail at once. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        // Connections first: a request still arriving must meet a closed connection (the node stopped), not a
        // region that is suddenly missing.
        server.close().awaitUninterruptibly(CLOSE_MILLIS);
        served.close().awaitUninterruptibly(CLOSE_MILLIS);
        dialed.close().awaitUninterruptibly(CLOSE_MILLIS);
        regions.clear();
        if (delayed != null) {
            delayed.shutdownNow();
        }
        group.shutdownGracefully(0, CLOSE_MILLIS, TimeUnit.MILLISECONDS).awaitUninterruptibly(CLOSE_MILLIS);
    }
}
