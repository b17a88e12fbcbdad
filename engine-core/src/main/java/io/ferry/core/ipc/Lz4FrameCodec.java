package io.ferry.core.ipc;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.compression.AbstractCompressionCodec;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.compression.NoCompressionCodec;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4FrameInputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;
import net.jpountz.xxhash.XXHash32;
import net.jpountz.xxhash.XXHashFactory;

/**
 * Arrow IPC's LZ4_FRAME buffer compression on lz4-java (the LZ4 poster's result compression): each buffer is a
 * standard LZ4 frame behind Arrow's 8-byte uncompressed-length prefix, so any Arrow reader with an LZ4 codec reads
 * it. Arrow's own codec goes through commons-compress and is far too slow to sit on the result path
 * (../shared/notes/dependencies.md). Decompression uses lz4-java's safe decompressor and checks the lengths, since
 * the bytes come from another node.
 */
public final class Lz4FrameCodec extends AbstractCompressionCodec {
    /** LZ4 cannot expand data by more than this factor, so a larger claimed length is corrupt. */
    private static final long MAX_RATIO = 256;
    /** Both are thread-safe and stateless; the frame writer's default looks them up per stream. */
    private static final LZ4Compressor COMPRESSOR = LZ4Factory.fastestInstance().fastCompressor();
    private static final XXHash32 HEADER_HASH = XXHashFactory.fastestInstance().hash32();

    public static final CompressionCodec.Factory FACTORY = new CompressionCodec.Factory() {
        @Override
        public CompressionCodec createCodec(CompressionUtil.CodecType type) {
            return switch (type) {
                case LZ4_FRAME -> new Lz4FrameCodec();
                case NO_COMPRESSION -> NoCompressionCodec.INSTANCE;
                default -> throw new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, "Arrow compression " + type
                        + " is not supported; Ferry ships results with LZ4_FRAME or uncompressed");
            };
        }

        @Override
        public CompressionCodec createCodec(CompressionUtil.CodecType type, int level) {
            return createCodec(type);
        }
    };

    @Override
    protected ArrowBuf doCompress(BufferAllocator allocator, ArrowBuf uncompressed) {
        byte[] in = new byte[(int) uncompressed.writerIndex()];
        uncompressed.getBytes(0, in);
        ByteArrayOutputStream frame = new ByteArrayOutputStream(in.length / 2 + 64);
        try (LZ4FrameOutputStream out = new LZ4FrameOutputStream(frame, blockSize(in.length), -1, COMPRESSOR,
                HEADER_HASH, LZ4FrameOutputStream.FLG.Bits.BLOCK_INDEPENDENCE)) {
            out.write(in);
        } catch (IOException e) {
            throw new IllegalStateException("LZ4 compression failed", e);
        }
        byte[] bytes = frame.toByteArray();
        long prefix = CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH;
        ArrowBuf out = allocator.buffer(prefix + bytes.length);
        out.setBytes(prefix, bytes);
        out.writerIndex(prefix + bytes.length);
        return out;
    }

    /**
     * The smallest frame block that holds the whole buffer. The frame writer zeroes its whole compressed-block array
     * before every block, so the default 4 MiB block cost a 4 MiB fill per 32 KiB column buffer: that, not LZ4, was
     * most of a worker's time shipping a million-group result.
     */
    static LZ4FrameOutputStream.BLOCKSIZE blockSize(int length) {
        for (LZ4FrameOutputStream.BLOCKSIZE s : LZ4FrameOutputStream.BLOCKSIZE.values()) {
            if (length <= 1 << (2 * s.getIndicator() + 8)) {
                return s;
            }
        }
        return LZ4FrameOutputStream.BLOCKSIZE.SIZE_4MB;
    }

    @Override
    protected ArrowBuf doDecompress(BufferAllocator allocator, ArrowBuf compressed) {
        long prefix = CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH;
        long length = readUncompressedLength(compressed);
        long frameBytes = compressed.writerIndex() - prefix;
        if (length < 0 || length > MAX_RATIO * frameBytes + 64 || length > Integer.MAX_VALUE) {
            throw corrupt("claims " + length + " bytes from a " + frameBytes + "-byte frame");
        }
        byte[] in = new byte[(int) frameBytes];
        compressed.getBytes(prefix, in);
        byte[] out = new byte[(int) length];
        try (LZ4FrameInputStream frame = new LZ4FrameInputStream(new ByteArrayInputStream(in))) {
            int n = frame.readNBytes(out, 0, out.length);
            if (n != out.length || frame.read() != -1) {
                throw corrupt("holds " + (n == out.length ? "more" : "fewer") + " bytes than its length says");
            }
        } catch (IOException | RuntimeException e) {
            if (e instanceof FerryException f) {
                throw f;
            }
            throw corrupt("cannot be decompressed (" + e.getMessage() + ")");
        }
        ArrowBuf buf = allocator.buffer(length);
        buf.setBytes(0, out);
        buf.writerIndex(length);
        return buf;
    }

    private static FerryException corrupt(String why) {
        return new FerryException(SqlStates.PROTOCOL_VIOLATION, "corrupt LZ4 buffer in a shipped result: it " + why);
    }

    @Override
    public CompressionUtil.CodecType getCodecType() {
        return CompressionUtil.CodecType.LZ4_FRAME;
    }
}
