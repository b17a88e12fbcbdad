package io.ferry.server.cluster;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ferry.core.SqlStates;
import io.ferry.fabric.BlockStream;
import io.ferry.fabric.Completions;
import io.ferry.fabric.Peer;
import io.ferry.fabric.Region;
import io.ferry.fabric.RegionDescriptor;
import io.ferry.server.StartupException;
import io.ferry.server.cluster.control.ControlChannel;
import io.ferry.server.cluster.control.MessageType;
import io.ferry.server.cluster.control.WireWriter;
import io.ferry.fabric.auth.ClusterSecret;
import io.ferry.fabric.auth.SecretHandshake;
import io.ferry.sql.SessionSettings;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;

/**
 * The coordinator's control plane and its view of the cluster: nodes join over it, report load in heartbeats, and
 * are marked down when their connection breaks or their heartbeats stop ({@link #SILENCE_LIMIT}). When a node joins,
 * the coordinator reads the node's probe region through the fabric to measure the link (the per-connection bandwidth
 * of the cost model).
 */
public final class Cluster implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Cluster.class);
    /**
     * A node silent this long, its connection still open, is down: twenty missed heartbeats. A killed process is
     * noticed at once by its closed connection; this catches a frozen one. At 3 s, a worker starved of CPU on a
     * loaded machine (a 20 000-query fuzzer run beside two builds on 2 cores) was declared down with its blocks.
     */
    public static final Duration SILENCE_LIMIT = Duration.ofSeconds(10);

    /** Told when nodes come and go. */
    public interface Listener {
        default void onUp(Member member) {
        }

        default void onDown(Member member) {
        }
    }

    private final Peers peers;
    private final BufferAllocator allocator;
    private final Duration timeout;
    private final EventLoopGroup boss = new NioEventLoopGroup(1);
    private final EventLoopGroup io = new NioEventLoopGroup(1);
    private final ExecutorService work = Executors.newCachedThreadPool(DataNode.daemon("ferry-cluster"));
    private final ScheduledExecutorService watchdog = Executors.newScheduledThreadPool(1,
            DataNode.daemon("ferry-watchdog"));
    private final Map<Integer, Member> members = new ConcurrentHashMap<>();
    private final Map<ControlChannel, Member> byChannel = new ConcurrentHashMap<>();
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    private final AtomicInteger ids = new AtomicInteger();
    private final Channel server;

    public Cluster(String host, int port, Peers peers, BufferAllocator allocator, Duration timeout) {
        this(host, port, peers, allocator, timeout, null);
    }

    /** As above; with {@code secret}, a node joins only after proving it holds it ({@link SecretHandshake}). */
    public Cluster(String host, int port, Peers peers, BufferAllocator allocator, Duration timeout,
            ClusterSecret secret) {
        this(host, port, peers, allocator, timeout, secret, null);
    }

    /** As above; with {@code tls}, the control port speaks TLS only ({@link ControlTls}). */
    public Cluster(String host, int port, Peers peers, BufferAllocator allocator, Duration timeout,
            ClusterSecret secret, ControlTls tls) {
        this.peers = peers;
        this.allocator = allocator;
        this.timeout = timeout;
        try {
            this.server = new ServerBootstrap().group(boss, io).channel(NioServerSocketChannel.class)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            if (tls != null) {
                                tls.install(ch, ch.remoteAddress(), timeout);
                            }
                            if (secret != null) {
                                ch.pipeline().addLast(new SecretHandshake(secret, false, timeout));
                            }
                            ControlChannel.attach(ch, new Receiver(), "a node at " + ch.remoteAddress());
                        }
                    }).bind(host, port).syncUninterruptibly().channel();
        } catch (RuntimeException e) {
            boss.shutdownGracefully();
            io.shutdownGracefully();
            throw new StartupException("cannot listen for nodes on " + host + ":" + port + " (" + e.getMessage()
                    + "); choose another --control-port", e);
        }
        watchdog.scheduleAtFixedRate(this::checkSilence, 500, 500, TimeUnit.MILLISECONDS);
    }

    /** The control plane's address: what nodes pass as {@code --coordinator}. */
    public InetSocketAddress address() {
        return (InetSocketAddress) server.localAddress();
    }

    public void addListener(Listener l) {
        listeners.add(l);
    }

    /** Every node that ever joined, by id (a restarted node appears again under a new id). */
    public List<Member> members() {
        List<Member> out = new ArrayList<>(members.values());
        out.sort(Comparator.comparingInt(Member::id));
        return out;
    }

    /** The nodes that are up and satisfy {@code filter}, by id. */
    public List<Member> up(Predicate<Member> filter) {
        List<Member> out = new ArrayList<>();
        for (Member m : members()) {
            if (m.isUp() && filter.test(m)) {
                out.add(m);
            }
        }
        return out;
    }

    /**
     * Whether {@code m} is gone for good: it is down and a new process joined under its name since, so the memory
     * it held, and every block there, is lost.
     */
    public boolean replaced(Member m) {
        if (m.state() != Member.State.DOWN) {
            return false;
        }
        for (Member other : members.values()) {
            if (other.id() > m.id() && other.name().equals(m.name())
                    && !other.hello().incarnation().equals(m.hello().incarnation())) {
                return true;
            }
        }
        return false;
    }

    public Member member(int id) {
        return members.get(id);
    }

    /** Waits until {@code count} nodes holding blocks or running fragments are up; false on timeout. */
    public boolean awaitNodes(int count, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (up(m -> true).size() < count) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(50);
        }
        return true;
    }

    private final class Receiver implements ControlChannel.Receiver {
        @Override
        public void onMessage(ControlChannel channel, ControlChannel.Message m) {
            switch (m.type()) {
                case MessageType.HELLO -> join(channel, m);
                case MessageType.HEARTBEAT -> {
                    Member member = byChannel.get(channel);
                    if (member != null) {
                        member.heard(NodeLoad.decode(m.reader()));
                    }
                }
                default -> channel.fail(m, SqlStates.FEATURE_NOT_SUPPORTED, "the coordinator does not take control "
                        + "message type " + m.type() + " from nodes");
            }
        }

        @Override
        public void onClose(ControlChannel channel) {
            Member member = byChannel.remove(channel);
            if (member != null) {
                down(member, "its control connection closed");
            }
        }
    }

    /**
     * A node joins. If it is a node that was here before in the same process (its name, incarnation and fabric
     * endpoint as then) — a process frozen past {@link #SILENCE_LIMIT} (a long GC pause, a stopped container) or a
     * control connection that broke — it is the same member again, under its id: its memory, and so every block the
     * catalog placed there, is still there, and tables with blocks on it answer again without a reload. Under a new
     * incarnation (the process restarted) its memory is gone: a new member, and the old one's blocks stay lost.
     */
    private void join(ControlChannel channel, ControlChannel.Message m) {
        NodeHello hello = NodeHello.decode(m.reader());
        Member back = null;
        for (Member old : members.values()) {
            if (!old.name().equals(hello.name())) {
                continue;
            }
            if (old.state() != Member.State.DOWN) {
                down(old, "it rejoined");
            }
            if (old.hello().incarnation().equals(hello.incarnation()) && old.hello().fabric().equals(hello.fabric())) {
                back = old;
            }
        }
        Member member = back != null && back.revive(channel) ? back : new Member(ids.incrementAndGet(), hello, channel);
        channel.setPeerName(member.describe());
        members.put(member.id(), member);
        byChannel.put(channel, member);
        channel.reply(m, new WireWriter().writeInt(member.id()));
        if (member == back) {
            LOG.info("{} is back with its memory: its blocks are served again once its link is measured",
                    member.describe());
        } else {
            LOG.info("{} joined: {} threads, {} bytes of block memory, fabric {}", member.describe(), hello.threads(),
                    hello.memory(), hello.provider());
        }
        work.execute(() -> measure(member));
    }

    /**
     * Bandwidth as data shipping sees it: a {@link BlockStream} of 1 MiB blocks (the probe region's quarters, over
     * and over) with the prefetch depth data shipping uses, timed for at least 16 blocks and 200 ms after the first
     * window. One read at a time measured a fifth of what the stream gets over tcp on loopback.
     */
    private double streamBandwidth(Peer peer, RegionDescriptor probe) {
        int block = probe.length() / 4;
        List<BlockStream.BlockRef> refs = new ArrayList<>();
        for (int i = 0; i < 256; i++) {
            refs.add(new BlockStream.BlockRef(probe, (long) (i % 4) * block, block));
        }
        try (BlockStream stream = new BlockStream(peers.fabric(), peer, allocator, refs, SessionSettings.DEFAULT_PREFETCH, block,
                timeout)) {
            for (int i = 0; i < SessionSettings.DEFAULT_PREFETCH; i++) {
                stream.next();
            }
            long t0 = System.nanoTime();
            long bytes = 0;
            while ((bytes < 16L * block || System.nanoTime() - t0 < 200_000_000L) && stream.next() != null) {
                bytes += block;
            }
            return bytes / Math.max(1e-9, (System.nanoTime() - t0) / 1e9);
        }
    }

    /**
     * Reads the node's probe region: many small reads for latency, then a prefetching stream of it for bandwidth.
     */
    private void measure(Member member) {
        RegionDescriptor probe = member.hello().probe();
        try (ArrowBuf buf = allocator.buffer(probe.length());
                Region local = peers.fabric().register(buf, 0, probe.length())) {
            Peer peer = peers.get(member.hello().fabric());
            // The first reads of a new connection pay for JIT compilation and buffer set-up on both ends; the
            // link is what a query sees later, so the best of many small reads is its latency.
            double latency = Double.MAX_VALUE;
            for (int i = 0; i < 200; i++) {
                long t0 = System.nanoTime();
                Completions.await(peer.read(probe, 0, local, 0, 64), timeout, "measuring the link to "
                        + member.describe());
                latency = Math.min(latency, (System.nanoTime() - t0) / 1e9);
            }
            double bandwidth = streamBandwidth(peer, probe);
            member.measured(bandwidth, latency);
            LOG.info("{} is up: link {} MB/s, {} us per small read", member.describe(),
                    String.format("%.0f", bandwidth / 1e6), String.format("%.0f", latency * 1e6));
            for (Listener l : listeners) {
                l.onUp(member);
            }
        } catch (RuntimeException e) {
            LOG.warn("cannot reach {} through the fabric: {}", member.describe(), e.getMessage());
            down(member, "its fabric endpoint is unreachable (" + e.getMessage() + ")");
            member.channel().close();
        }
    }

    private void checkSilence() {
        for (Member m : members.values()) {
            if (m.state() != Member.State.DOWN && m.silentNanos() > SILENCE_LIMIT.toNanos()) {
                down(m, "no heartbeat for " + SILENCE_LIMIT.toMillis() / 1000 + " s");
                m.channel().close();
            }
        }
    }

    private void down(Member member, String reason) {
        if (member.markDown(reason)) {
            LOG.warn("{} is down: {}", member.describe(), reason);
            peers.forget(member.hello().fabric());
            for (Listener l : listeners) {
                l.onDown(member);
            }
        }
    }

    @Override
    public void close() {
        watchdog.shutdownNow();
        server.close().syncUninterruptibly();
        for (Member m : members.values()) {
            m.channel().close();
        }
        work.shutdownNow();
        io.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        boss.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
