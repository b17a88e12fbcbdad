package io.ferry.server.cluster.control;

import java.nio.charset.StandardCharsets;

import io.ferry.fabric.NodeAddress;
import io.ferry.fabric.RegionDescriptor;
import io.ferry.fabric.frame.MalformedFrameException;

/**
 * Reads a control message's body, checking every length against what is left: a short or corrupt body fails with
 * a {@link MalformedFrameException}, never with an exception from deep inside a decoder or a huge allocation.
 */
public final class WireReader {
    private final byte[] buf;
    private int pos;

    public WireReader(byte[] buf) {
        this.buf = buf;
    }

    private void need(int n, String what) {
        if (n < 0 || n > buf.length - pos) {
            throw new MalformedFrameException("control message ends inside " + what + " (" + (buf.length - pos)
                    + " bytes left, " + n + " needed)");
        }
    }

    public int readByte() {
        need(1, "a byte");
        return buf[pos++] & 0xFF;
    }

    public boolean readBoolean() {
        return readByte() != 0;
    }

    public int readInt() {
        need(4, "an int");
        int v = 0;
        for (int i = 0; i < 4; i++) {
            v = (v << 8) | (buf[pos++] & 0xFF);
        }
        return v;
    }

    public long readLong() {
        need(8, "a long");
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (buf[pos++] & 0xFF);
        }
        return v;
    }

    public double readDouble() {
        return Double.longBitsToDouble(readLong());
    }

    public byte[] readBytes() {
        int n = readInt();
        need(n, "a byte string");
        byte[] out = new byte[n];
        System.arraycopy(buf, pos, out, 0, n);
        pos += n;
        return out;
    }

    public String readString() {
        return new String(readBytes(), StandardCharsets.UTF_8);
    }

    /** A count of items that each take at least {@code minBytes}: bounded by what is left. */
    public int readCount(int minBytes) {
        int n = readInt();
        need((int) Math.min(Integer.MAX_VALUE, (long) n * Math.max(1, minBytes)), "a list of " + n + " items");
        return n;
    }

    public NodeAddress readAddress() {
        String host = readString();
        int port = readInt();
        try {
            return new NodeAddress(host, port);
        } catch (IllegalArgumentException e) {
            throw new MalformedFrameException("bad node address in a control message: " + e.getMessage());
        }
    }

    public RegionDescriptor readDescriptor() {
        NodeAddress node = readAddress();
        long address = readLong();
        int length = readInt();
        int key = readInt();
        try {
            return new RegionDescriptor(node, address, length, key);
        } catch (IllegalArgumentException e) {
            throw new MalformedFrameException("bad region descriptor in a control message: " + e.getMessage());
        }
    }

    /** Bytes not read yet: for a message whose last fields are optional. */
    public int remaining() {
        return buf.length - pos;
    }

    /** Fails if bytes are left over: a body longer than its message is as wrong as a short one. */
    public void end() {
        if (pos != buf.length) {
            throw new MalformedFrameException("control message has " + (buf.length - pos) + " unexpected trailing bytes");
        }
    }
}
