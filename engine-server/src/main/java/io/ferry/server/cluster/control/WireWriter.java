package io.ferry.server.cluster.control;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import io.ferry.fabric.NodeAddress;
import io.ferry.fabric.RegionDescriptor;

/** Writes a control message's body: big-endian fixed-width numbers and length-prefixed UTF-8 strings and bytes. */
public final class WireWriter {
    private byte[] buf = new byte[128];
    private int size;

    private void ensure(int more) {
        if (size + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
        }
    }

    public WireWriter writeByte(int v) {
        ensure(1);
        buf[size++] = (byte) v;
        return this;
    }

    public WireWriter writeBoolean(boolean v) {
        return writeByte(v ? 1 : 0);
    }

    public WireWriter writeInt(int v) {
        ensure(4);
        for (int shift = 24; shift >= 0; shift -= 8) {
            buf[size++] = (byte) (v >>> shift);
        }
        return this;
    }

    public WireWriter writeLong(long v) {
        ensure(8);
        for (int shift = 56; shift >= 0; shift -= 8) {
            buf[size++] = (byte) (v >>> shift);
        }
        return this;
    }

    public WireWriter writeDouble(double v) {
        return writeLong(Double.doubleToLongBits(v));
    }

    public WireWriter writeBytes(byte[] bytes) {
        writeInt(bytes.length);
        ensure(bytes.length);
        System.arraycopy(bytes, 0, buf, size, bytes.length);
        size += bytes.length;
        return this;
    }

    public WireWriter writeString(String s) {
        return writeBytes(s.getBytes(StandardCharsets.UTF_8));
    }

    public WireWriter writeAddress(NodeAddress a) {
        return writeString(a.host()).writeInt(a.port());
    }

    public WireWriter writeDescriptor(RegionDescriptor d) {
        return writeAddress(d.node()).writeLong(d.address()).writeInt(d.length()).writeInt(d.key());
    }

    public int size() {
        return size;
    }

    public byte[] toBytes() {
        return Arrays.copyOf(buf, size);
    }
}
