package io.ferry.server.cluster;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ferry.fabric.auth.ClusterSecret;
import io.ferry.fabric.auth.SecretHandshake;
import io.ferry.fabric.Completions;
import io.ferry.server.cluster.control.ControlChannel;
import io.ferry.server.cluster.control.MessageType;
import io.ferry.server.cluster.control.WireReader;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;

/**
 * A node's connection to the coordinator's control plane: introduces the node, sends heartbeats, and reconnects
 * (introducing itself again) whenever the connection breaks, so a restarted coordinator or a network blip only
 * delays a node, never strands it.
 */
final class ControlClient implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ControlClient.class);
    static final Duration HEARTBEAT = Duration.ofMillis(500);

    private final InetSocketAddress coordinator;
    private final NodeHello hello;
    private final ControlChannel.Receiver receiver;
    private final java.util.function.Supplier<NodeLoad> load;
    private final ScheduledExecutorService scheduler;
    private final Duration timeout;
    private final EventLoopGroup group = new NioEventLoopGroup(1);
    private final Consumer<Integer> onJoined;
    /** The cluster's secret, proven to the coordinator before anything else is sent; null for none. */
    private final ClusterSecret secret;
    /** TLS to the coordinator, or null for plain TCP. */
    private final ControlTls tls;
    private volatile ControlChannel channel;
    private volatile boolean closed;
    private long lastWarned;

    ControlClient(InetSocketAddress coordinator, NodeHello hello, ControlChannel.Receiver receiver,
            java.util.function.Supplier<NodeLoad> load, ScheduledExecutorService scheduler, Duration timeout,
            Consumer<Integer> onJoined, ClusterSecret secret, ControlTls tls) {
        this.secret = secret;
        this.tls = tls;
        this.coordinator = coordinator;
        this.hello = hello;
        this.receiver = receiver;
        this.load = load;
        this.scheduler = scheduler;
        this.timeout = timeout;
        this.onJoined = onJoined;
    }

    void start() {
        scheduler.execute(this::connect);
        scheduler.scheduleAtFixedRate(this::beat, HEARTBEAT.toMillis(), HEARTBEAT.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void connect() {
        if (closed) {
            return;
        }
        try {
            Bootstrap b = new Bootstrap().group(group).channel(NioSocketChannel.class)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) timeout.toMillis())
                    .option(ChannelOption.TCP_NODELAY, true)
                    .handler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            if (tls != null) {
                                tls.install(ch, coordinator, timeout);
                            }
                            if (secret != null) {
                                ch.pipeline().addLast(new SecretHandshake(secret, true, timeout));
                            }
                        }
                    });
            // the name is resolved again at every attempt: a coordinator restarted in a container may come back at
            // another address under the same name
            ChannelFuture f = b.connect(new InetSocketAddress(coordinator.getHostString(), coordinator.getPort()));
            if (!f.awaitUninterruptibly(timeout.toMillis() + 1000) || !f.isSuccess()) {
                f.channel().close();
                throw new IllegalStateException(f.cause() == null ? "timed out" : f.cause().toString());
            }
            Channel ch = f.channel();
            ControlChannel c = ControlChannel.attach(ch, new ControlChannel.Receiver() {
                @Override
                public void onMessage(ControlChannel channel, ControlChannel.Message message) {
                    receiver.onMessage(channel, message);
                }

                @Override
                public void onClose(ControlChannel closedChannel) {
                    receiver.onClose(closedChannel);
                    if (!closed) {
                        LOG.warn("lost the coordinator at {}; reconnecting", coordinator);
                        scheduler.schedule(ControlClient.this::connect, 1, TimeUnit.SECONDS);
                    }
                }
            }, "the coordinator at " + coordinator);
            WireReader welcome = Completions.result(c.call(MessageType.HELLO, hello.encode()), timeout,
                    "joining the coordinator at " + coordinator);
            int id = welcome.readInt();
            channel = c;
            LOG.info("joined the cluster of {}:{} as {} {} (node {})", coordinator.getHostString(), coordinator.getPort(), hello.role().label(), hello.name(), id);
            onJoined.accept(id);
        } catch (RuntimeException e) {
            long now = System.nanoTime();
            if (now - lastWarned > 10_000_000_000L) {
                lastWarned = now;
                LOG.warn("cannot join the coordinator at {} ({}); retrying every second (a node needs the "
                        + "coordinator's --cluster-secret, and --coordinator-truststore when its control port speaks "
                        + "TLS)", coordinator, e.getMessage());
            }
            scheduler.schedule(this::connect, 1, TimeUnit.SECONDS);
        }
    }

    private void beat() {
        ControlChannel c = channel;
        if (c != null && c.isOpen()) {
            c.notice(MessageType.HEARTBEAT, load.get().encode());
        }
    }

    boolean joined() {
        ControlChannel c = channel;
        return c != null && c.isOpen();
    }

    @Override
    public void close() {
        closed = true;
        ControlChannel c = channel;
        if (c != null) {
            c.close();
        }
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5000);
    }
}
