package io.ferry.fabric.frame;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.embedded.EmbeddedChannel;

class FrameDecoderTest {
    /** What a test handler saw: each frame's type, body and data. */
    private static final class Recorder implements FrameHandler {
        final List<Integer> types = new ArrayList<>();
        final List<byte[]> bodies = new ArrayList<>();
        final List<byte[]> data = new ArrayList<>();

        @Override
        public DataSink onFrame(ChannelHandlerContext ctx, int type, ByteBuf body, int dataLength) {
            types.add(type);
            byte[] b = new byte[body.readableBytes()];
            body.readBytes(b);
            bodies.add(b);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            return new DataSink() {
                @Override
                public void accept(ByteBuf chunk) {
                    byte[] c = new byte[chunk.readableBytes()];
                    chunk.readBytes(c);
                    out.writeBytes(c);
                }

                @Override
                public void end() {
                    data.add(out.toByteArray());
                }
            };
        }
    }

    private static byte[] frame(int type, byte[] body, byte[] data) {
        ByteBuf f = Frames.start(ByteBufAllocator.DEFAULT, type, body.length, data.length);
        f.writeBytes(body);
        Frames.finish(f).writeBytes(data);
        byte[] bytes = new byte[f.readableBytes()];
        f.readBytes(bytes);
        f.release();
        return bytes;
    }

    private static byte[] bytes(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31 + seed);
        }
        return b;
    }

    @Test
    void framesSplitAtEveryByteArriveWhole() {
        byte[] one = frame(7, bytes(12, 1), bytes(300, 2));
        byte[] two = frame(9, bytes(0, 0), bytes(0, 0));
        byte[] three = frame(255, bytes(40, 3), bytes(1, 4));
        byte[] stream = new byte[one.length + two.length + three.length];
        System.arraycopy(one, 0, stream, 0, one.length);
        System.arraycopy(two, 0, stream, one.length, two.length);
        System.arraycopy(three, 0, stream, one.length + two.length, three.length);
        for (int chunk : new int[] {1, 3, 19, 20, 21, stream.length}) {
            Recorder r = new Recorder();
            EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(r, 1024, 1 << 20));
            for (int at = 0; at < stream.length; at += chunk) {
                ch.writeInbound(Unpooled.wrappedBuffer(stream, at, Math.min(chunk, stream.length - at)));
            }
            assertEquals(List.of(7, 9, 255), r.types, "chunks of " + chunk);
            assertArrayEquals(bytes(12, 1), r.bodies.get(0));
            assertArrayEquals(bytes(40, 3), r.bodies.get(2));
            assertEquals(2, r.data.size(), "frames with data");
            assertArrayEquals(bytes(300, 2), r.data.get(0));
            assertArrayEquals(bytes(1, 4), r.data.get(1));
            assertTrue(ch.isOpen());
            ch.finishAndReleaseAll();
        }
    }

    /** Feeds a valid frame after {@code damage} and checks that nothing was handled and the connection closed. */
    private static void assertRejected(Consumer<byte[]> damage, int maxBody, int maxData) {
        byte[] bad = frame(1, bytes(16, 5), bytes(64, 6));
        damage.accept(bad);
        Recorder r = new Recorder();
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(r, maxBody, maxData));
        // A valid frame right behind the bad one, in the same read: it must not be handled either.
        ch.writeInbound(Unpooled.wrappedBuffer(bad, frame(2, bytes(4, 7), new byte[0])));
        assertTrue(r.types.isEmpty(), "a malformed frame, or one after it, was handled: " + r.types);
        assertFalse(ch.isOpen(), "the connection stayed open");
        ch.finishAndReleaseAll();
    }

    @Test
    void aBadMagicClosesTheConnection() {
        assertRejected(f -> f[0] = 'X', 1024, 1024);
    }

    @Test
    void anotherProtocolVersionClosesTheConnection() {
        assertRejected(f -> f[4] = 2, 1024, 1024);
    }

    @Test
    void aCorruptBodyOrHeaderFailsTheChecksum() {
        assertRejected(f -> f[Frames.HEADER_BYTES + 3] ^= 1, 1024, 1024);
        assertRejected(f -> f[5] = 3, 1024, 1024); // the type
        assertRejected(f -> f[15] ^= 1, 1024, 1024); // the data length
    }

    @Test
    void oversizedFramesCloseTheConnection() {
        assertRejected(f -> { }, 15, 1024); // a 16-byte body over a 15-byte limit
        assertRejected(f -> { }, 1024, 63); // 64 data bytes over a 63-byte limit
        assertRejected(f -> f[8] = (byte) 0x80, 1024, 1024); // a negative body length
    }

    @Test
    void aHandlerThatRejectsABodyClosesTheConnection() {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder((ctx, type, body, dataLength) -> {
            throw new MalformedFrameException("type " + type + " is not a request");
        }, 1024, 1024));
        ch.writeInbound(Unpooled.wrappedBuffer(frame(3, bytes(8, 1), new byte[0])));
        assertFalse(ch.isOpen());
        ch.finishAndReleaseAll();
    }
}
