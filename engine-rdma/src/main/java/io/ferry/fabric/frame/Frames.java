package io.ferry.fabric.frame;

import java.util.zip.CRC32C;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * The wire format of every message between Ferry nodes: versioned, length-prefixed, checksummed frames.
 *
 * <pre>
 *  offset  size  field
 *   0      4     magic "FRRY"
 *   4      1     protocol version ({@link #VERSION})
 *   5      1     type (what the body means; each protocol defines its own)
 *   6      2     reserved, zero
 *   8      4     body length (control fields; at most the receiver's limit)
 *  12      4     data length (bulk bytes after the body; zero for control messages)
 *  16      4     CRC32C of bytes 0..15 and the body
 *  20      ...   body, then data
 * </pre>
 *
 * The checksum covers the header and the body, so a corrupt length, type or address is caught before it is acted
 * on. Bulk data (block bytes of a READ or WRITE) is not checksummed here: TCP checksums it in transit, as RDMA's
 * ICRC does on the RDMA path, and a CRC over every block would put the serving node's CPU to work on each read,
 * which data shipping exists to avoid.
 */
public final class Frames {
    public static final int MAGIC = 0x46525259; // "FRRY"
    public static final int VERSION = 1;
    public static final int HEADER_BYTES = 20;
    /** Default limit on a body: control messages are small; anything larger is a broken or hostile peer. */
    public static final int DEFAULT_MAX_BODY = 1 << 20;

    private Frames() {
    }

    /**
     * Starts a frame: a buffer holding its header, positioned for the caller to write the body. {@link #finish}
     * then fills in the body length and checksum. The caller sends {@code dataLength} bulk bytes right after it.
     */
    public static ByteBuf start(ByteBufAllocator alloc, int type, int bodyCapacity, int dataLength) {
        if (type < 0 || type > 255) {
            throw new IllegalArgumentException("frame type " + type + " is not a byte");
        }
        if (dataLength < 0) {
            throw new IllegalArgumentException("negative data length " + dataLength);
        }
        ByteBuf frame = alloc.directBuffer(HEADER_BYTES + bodyCapacity);
        return frame.writeInt(MAGIC).writeByte(VERSION).writeByte(type).writeShort(0).writeInt(0)
                .writeInt(dataLength).writeInt(0);
    }

    /** Completes a frame begun with {@link #start} once its body is written. */
    public static ByteBuf finish(ByteBuf frame) {
        int bodyLength = frame.writerIndex() - frame.readerIndex() - HEADER_BYTES;
        int at = frame.readerIndex();
        frame.setInt(at + 8, bodyLength);
        frame.setInt(at + 16, checksum(frame, at, frame.slice(at + HEADER_BYTES, bodyLength)));
        return frame;
    }

    /** CRC32C over the 16 header bytes at {@code headerIndex} of {@code header} and the readable bytes of body. */
    static int checksum(ByteBuf header, int headerIndex, ByteBuf body) {
        CRC32C crc = new CRC32C();
        crc.update(header.nioBuffer(headerIndex, 16));
        if (body.isReadable()) {
            crc.update(body.nioBuffer(body.readerIndex(), body.readableBytes()));
        }
        return (int) crc.getValue();
    }
}
