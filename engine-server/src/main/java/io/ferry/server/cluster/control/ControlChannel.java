package io.ferry.server.cluster.control;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.fabric.frame.DataSink;
import io.ferry.fabric.frame.FrameDecoder;
import io.ferry.fabric.frame.FrameHandler;
import io.ferry.fabric.frame.Frames;
import io.ferry.fabric.frame.MalformedFrameException;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;

/**
 * One end of a control connection between the coordinator and a node: framed messages ({@link Frames}) whose body
 * starts with a correlation id. A call ({@link #call}) carries a fresh id and completes when the peer answers with
 * {@link #REPLY} or {@link #ERROR} under that id; a notice carries id 0 and expects nothing. Both ends can call.
 * When the connection closes, every call still waiting fails at once with SQLSTATE 08006, naming the peer.
 */
public final class ControlChannel {
    /** Frame type of a successful answer. */
    public static final int REPLY = 250;
    /** Frame type of a failed answer: SQLSTATE and message. */
    public static final int ERROR = 251;
    /** Control bodies are small; a plan fragment is the largest. */
    public static final int MAX_BODY = 16 << 20;

    private static final Logger LOG = LoggerFactory.getLogger(ControlChannel.class);

    private final Channel channel;
    private final Receiver receiver;
    private final Map<Long, CompletableFuture<WireReader>> pending = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private volatile String peerName;
    private volatile boolean closed;

    /** What the owner of a channel does with what arrives. */
    public interface Receiver {
        /**
         * A call or notice from the peer. Runs on the connection's network thread: decode here, and hand anything
         * slow to another thread, answering later with {@link #reply} or {@link #fail}.
         */
        void onMessage(ControlChannel channel, Message message);

        /** The connection closed; calls waiting on it have failed. */
        void onClose(ControlChannel channel);
    }

    /** One received message: {@code id} is 0 for a notice. */
    public record Message(int type, long id, byte[] body) {
        public WireReader reader() {
            return new WireReader(body);
        }
    }

    private ControlChannel(Channel channel, Receiver receiver, String peerName) {
        this.channel = channel;
        this.receiver = receiver;
        this.peerName = peerName;
    }

    /** Sets up {@code channel}'s pipeline for control messages and returns its end. */
    public static ControlChannel attach(Channel channel, Receiver receiver, String peerName) {
        ControlChannel c = new ControlChannel(requireNonNull(channel, "channel is null"), receiver, peerName);
        ChannelPipeline p = channel.pipeline();
        p.addLast("frames", new FrameDecoder(c.new Handler(), MAX_BODY, 0));
        p.addLast("control", c.new Lifecycle());
        return c;
    }

    /** How errors name the peer (e.g. "worker w1 at 10.0.0.2:7001"); set once the peer has introduced itself. */
    public void setPeerName(String name) {
        this.peerName = name;
    }

    public String peerName() {
        return peerName;
    }

    public boolean isOpen() {
        return !closed && channel.isActive();
    }

    /** Sends a call; the future completes with the reply's body, or fails with the peer's error or a lost connection. */
    public CompletableFuture<WireReader> call(int type, WireWriter body) {
        long id = ids.incrementAndGet();
        CompletableFuture<WireReader> reply = new CompletableFuture<>();
        pending.put(id, reply);
        if (closed) {
            pending.remove(id);
            reply.completeExceptionally(lost("the connection is closed"));
            return reply;
        }
        send(type, id, body).addListener(f -> {
            if (!f.isSuccess()) {
                CompletableFuture<WireReader> r = pending.remove(id);
                if (r != null) {
                    r.completeExceptionally(lost("sending failed: " + f.cause()));
                }
            }
        });
        return reply;
    }

    /** Sends a notice, expecting no answer. */
    public void notice(int type, WireWriter body) {
        if (!closed) {
            send(type, 0, body);
        }
    }

    public void reply(Message call, WireWriter body) {
        if (call.id() != 0 && !closed) {
            send(REPLY, call.id(), body);
        }
    }

    /** Answers a call with an error the caller rethrows as a {@link FerryException} with the same SQLSTATE. */
    public void fail(Message call, String sqlState, String message) {
        if (call.id() != 0 && !closed) {
            send(ERROR, call.id(), new WireWriter().writeString(sqlState).writeString(message));
        }
    }

    private io.netty.channel.ChannelFuture send(int type, long id, WireWriter body) {
        ByteBuf frame = Frames.start(channel.alloc(), type, 8 + body.size(), 0);
        frame.writeLong(id).writeBytes(body.toBytes());
        return channel.writeAndFlush(Frames.finish(frame));
    }

    public void close() {
        channel.close();
    }

    private FerryException lost(String why) {
        return new FerryException(SqlStates.CONNECTION_FAILURE, "lost the control connection to " + peerName + ": "
                + why + "; check that the node is running, or see sys.nodes");
    }

    private final class Handler implements FrameHandler {
        @Override
        public DataSink onFrame(ChannelHandlerContext ctx, int type, ByteBuf body, int dataLength) {
            if (body.readableBytes() < 8) {
                throw new MalformedFrameException("control message without a correlation id");
            }
            long id = body.readLong();
            byte[] bytes = new byte[body.readableBytes()];
            body.readBytes(bytes);
            if (type == REPLY || type == ERROR) {
                CompletableFuture<WireReader> waiting = pending.remove(id);
                if (waiting == null) {
                    return null; // the caller gave up (timeout or cancel) before the answer came
                }
                WireReader r = new WireReader(bytes);
                if (type == REPLY) {
                    waiting.complete(r);
                } else {
                    String state = r.readString();
                    waiting.completeExceptionally(new FerryException(state, r.readString()));
                }
                return null;
            }
            receiver.onMessage(ControlChannel.this, new Message(type, id, bytes));
            return null;
        }
    }

    private final class Lifecycle extends ChannelInboundHandlerAdapter {
        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            closed = true;
            FerryException e = lost("the connection closed");
            for (Long id : pending.keySet()) {
                CompletableFuture<WireReader> f = pending.remove(id);
                if (f != null) {
                    f.completeExceptionally(e);
                }
            }
            try {
                receiver.onClose(ControlChannel.this);
            } catch (RuntimeException ex) {
                LOG.warn("handling the close of the control connection to {} failed", peerName, ex);
            }
            ctx.fireChannelInactive();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.warn("control connection to {} failed: {}", peerName, cause.toString());
            ctx.close();
        }
    }
}
