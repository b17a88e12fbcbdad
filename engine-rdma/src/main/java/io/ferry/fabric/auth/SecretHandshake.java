package io.ferry.fabric.auth;

import java.net.SocketAddress;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.PendingWriteQueue;

/**
 * The first handler of every connection between a cluster's processes when they share a {@link ClusterSecret}: each
 * side sends a magic word and a fresh 32-byte nonce, then an HMAC-SHA256 under the secret of its role and both nonces,
 * and checks the other's. Only a process that holds the secret can produce a proof for nonces it did not choose, and
 * the roles in the MAC keep one side's proof from being replayed as the other's. Nothing else passes either way until
 * both proofs check: writes of the handlers behind wait, and bytes that arrive are held. Then the handler steps out
 * of the pipeline. A peer without the secret (or none at all, speaking frames at once) is disconnected, and so is
 * one that has not finished within the timeout.
 */
public final class SecretHandshake extends ChannelDuplexHandler {
    private static final Logger LOG = LoggerFactory.getLogger(SecretHandshake.class);
    private static final byte[] MAGIC = {'F', 'E', 'R', 'R', 'Y', 'S', 'E', 'C'};
    private static final int NONCE = 32;
    private static final int PROOF = 32;
    private static final SecureRandom RANDOM = new SecureRandom();
    /** What a peer may send before its proof checks: the handshake, and the first frames it pipelines after it. */
    private static final int MAX_HELD = 1 << 20;

    private final ClusterSecret secret;
    private final String role;
    private final String peerRole;
    private final Duration timeout;
    private final byte[] nonce = new byte[NONCE];
    private byte[] peerNonce;
    private ByteBuf received;
    private PendingWriteQueue held;
    private ScheduledFuture<?> deadline;
    /** The peer proved itself: everything passes. */
    private boolean open;
    /** The peer failed: nothing passes, the connection is closing. */
    private boolean refused;

    /**
     * @param initiator whether this side dialled the connection (the roles in the proofs differ by side)
     * @param timeout   how long the peer may take to prove itself
     */
    public SecretHandshake(ClusterSecret secret, boolean initiator, Duration timeout) {
        this.secret = secret;
        this.role = initiator ? "ferry-dialler" : "ferry-listener";
        this.peerRole = initiator ? "ferry-listener" : "ferry-dialler";
        this.timeout = timeout;
        RANDOM.nextBytes(nonce);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        received = ctx.alloc().buffer(MAGIC.length + NONCE + PROOF);
        held = new PendingWriteQueue(ctx);
        if (ctx.channel().isActive()) {
            start(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        start(ctx);
        super.channelActive(ctx);
    }

    private void start(ChannelHandlerContext ctx) {
        if (deadline != null) {
            return;
        }
        deadline = ctx.executor().schedule(() -> refuse(ctx, "did not prove it holds the cluster secret within "
                + timeout.toMillis() + " ms"), timeout.toMillis(), TimeUnit.MILLISECONDS);
        ctx.writeAndFlush(Unpooled.wrappedBuffer(MAGIC, nonce));
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (open) {
            ctx.fireChannelRead(msg);
            return;
        }
        ByteBuf in = (ByteBuf) msg;
        if (refused) {
            in.release();
            return;
        }
        try {
            if (received.readableBytes() + in.readableBytes() > MAX_HELD) {
                refuse(ctx, "sent more than " + MAX_HELD + " bytes before proving it holds the cluster secret");
                return;
            }
            received.writeBytes(in);
        } finally {
            in.release();
        }
        if (peerNonce == null && received.readableBytes() >= MAGIC.length + NONCE) {
            byte[] magic = new byte[MAGIC.length];
            received.readBytes(magic);
            if (!MessageDigest.isEqual(magic, MAGIC)) {
                refuse(ctx, "does not have the cluster secret (it spoke no secret handshake; start it with the same "
                        + "--cluster-secret)");
                return;
            }
            peerNonce = new byte[NONCE];
            received.readBytes(peerNonce);
            ctx.writeAndFlush(Unpooled.wrappedBuffer(secret.mac(role, peerNonce, nonce)));
        }
        if (peerNonce != null && received.readableBytes() >= PROOF) {
            byte[] proof = new byte[PROOF];
            received.readBytes(proof);
            if (!MessageDigest.isEqual(proof, secret.mac(peerRole, nonce, peerNonce))) {
                refuse(ctx, "does not have this cluster's secret (its proof is wrong; give every process the same "
                        + "--cluster-secret file)");
                return;
            }
            accept(ctx);
        }
    }

    private void accept(ChannelHandlerContext ctx) {
        open = true;
        deadline.cancel(false);
        held.removeAndWriteAll();
        ctx.flush();
        ByteBuf rest = received;
        received = null;
        ctx.pipeline().remove(this);
        if (rest.isReadable()) {
            ctx.fireChannelRead(rest);
        } else {
            rest.release();
        }
    }

    private void refuse(ChannelHandlerContext ctx, String why) {
        if (open || refused) {
            return;
        }
        refused = true;
        SocketAddress peer = ctx.channel().remoteAddress();
        LOG.warn("refused the connection {} {}: it {}", role.equals("ferry-listener") ? "from" : "to", peer, why);
        held.removeAndFailAll(new IllegalStateException("the peer at " + peer + " " + why));
        ctx.close();
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (open) {
            ctx.write(msg, promise);
        } else {
            held.add(msg, promise);
        }
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        if (open) {
            ctx.flush();
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (received != null) {
            received.release();
            received = null;
        }
        if (deadline != null) {
            deadline.cancel(false);
        }
        if (!held.isEmpty()) {
            held.removeAndFailAll(new IllegalStateException("the connection closed before the secret handshake"));
        }
    }
}
