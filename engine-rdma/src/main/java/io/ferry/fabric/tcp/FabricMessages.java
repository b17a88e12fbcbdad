package io.ferry.fabric.tcp;

import java.nio.charset.StandardCharsets;

import io.ferry.fabric.frame.Frames;
import io.ferry.fabric.frame.MalformedFrameException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * The tcp fabric's frame bodies. A READ or WRITE names the region by key and base address (so a stale descriptor
 * of a since-reused key is refused), then the offset and length; replies carry the request's id.
 */
final class FabricMessages {
    static final int READ = 1;
    static final int WRITE = 2;
    static final int READ_REPLY = 3;
    static final int WRITE_ACK = 4;
    static final int ERROR = 5;
    static final int COMPARE_AND_SWAP = 6;
    static final int FETCH_AND_ADD = 7;
    static final int ATOMIC_REPLY = 8;

    private static final int ACCESS_BYTES = 32;
    private static final int ATOMIC_BYTES = ACCESS_BYTES + 16;
    private static final int SQLSTATE_BYTES = 5;

    /** The body of a READ or WRITE. */
    record Access(long id, int key, long address, long offset, int length) {
    }

    private FabricMessages() {
    }

    static ByteBuf access(ByteBufAllocator alloc, int type, Access a, int dataLength) {
        ByteBuf f = Frames.start(alloc, type, ACCESS_BYTES, dataLength);
        f.writeLong(a.id()).writeInt(a.key()).writeLong(a.address()).writeLong(a.offset()).writeInt(a.length());
        return Frames.finish(f);
    }

    static Access access(ByteBuf body) {
        expect(body, ACCESS_BYTES, "READ/WRITE");
        Access a = new Access(body.readLong(), body.readInt(), body.readLong(), body.readLong(), body.readInt());
        if (a.length() < 0 || a.offset() < 0) {
            throw new MalformedFrameException("access of " + a.length() + " bytes at offset " + a.offset());
        }
        return a;
    }

    /**
     * The body of a COMPARE_AND_SWAP ({@code first} expected, {@code second} the update) or FETCH_AND_ADD
     * ({@code first} the delta): the word's access (8 bytes), then the operands.
     */
    record Atomic(Access word, long first, long second) {
    }

    static ByteBuf atomic(ByteBufAllocator alloc, int type, Atomic a) {
        ByteBuf f = Frames.start(alloc, type, ATOMIC_BYTES, 0);
        Access w = a.word();
        f.writeLong(w.id()).writeInt(w.key()).writeLong(w.address()).writeLong(w.offset()).writeInt(w.length());
        f.writeLong(a.first()).writeLong(a.second());
        return Frames.finish(f);
    }

    static Atomic atomic(ByteBuf body) {
        expect(body, ATOMIC_BYTES, "atomic");
        Access w = new Access(body.readLong(), body.readInt(), body.readLong(), body.readLong(), body.readInt());
        if (w.length() != 8 || w.offset() < 0) {
            throw new MalformedFrameException("atomic on " + w.length() + " bytes at offset " + w.offset());
        }
        return new Atomic(w, body.readLong(), body.readLong());
    }

    /** An ATOMIC_REPLY: the request's id and the value the word held. */
    static ByteBuf atomicReply(ByteBufAllocator alloc, long id, long value) {
        return Frames.finish(Frames.start(alloc, ATOMIC_REPLY, 16, 0).writeLong(id).writeLong(value));
    }

    /** An ATOMIC_REPLY's body: {id, value}. */
    static long[] atomicReply(ByteBuf body) {
        expect(body, 16, "atomic reply");
        return new long[] {body.readLong(), body.readLong()};
    }

    /** A READ_REPLY (followed by {@code dataLength} bytes) or a WRITE_ACK. */
    static ByteBuf reply(ByteBufAllocator alloc, int type, long id, int dataLength) {
        return Frames.finish(Frames.start(alloc, type, 8, dataLength).writeLong(id));
    }

    static long replyId(ByteBuf body) {
        expect(body, 8, "reply");
        return body.readLong();
    }

    static ByteBuf error(ByteBufAllocator alloc, long id, String sqlState, String message) {
        byte[] text = message.getBytes(StandardCharsets.UTF_8);
        ByteBuf f = Frames.start(alloc, ERROR, 8 + SQLSTATE_BYTES + text.length, 0);
        f.writeLong(id).writeBytes(sqlState.getBytes(StandardCharsets.US_ASCII), 0, SQLSTATE_BYTES).writeBytes(text);
        return Frames.finish(f);
    }

    /** An ERROR body: the failed request's id, its SQLSTATE and message. */
    record Error(long id, String sqlState, String message) {
    }

    static Error error(ByteBuf body) {
        if (body.readableBytes() < 8 + SQLSTATE_BYTES) {
            throw new MalformedFrameException("ERROR body of " + body.readableBytes() + " bytes is too short");
        }
        long id = body.readLong();
        String state = body.readCharSequence(SQLSTATE_BYTES, StandardCharsets.US_ASCII).toString();
        String message = body.readCharSequence(body.readableBytes(), StandardCharsets.UTF_8).toString();
        return new Error(id, state, message);
    }

    private static void expect(ByteBuf body, int bytes, String what) {
        if (body.readableBytes() != bytes) {
            throw new MalformedFrameException(what + " body of " + body.readableBytes() + " bytes, expected " + bytes);
        }
    }
}
