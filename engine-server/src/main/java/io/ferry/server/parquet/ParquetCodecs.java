package io.ferry.server.parquet;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.xerial.snappy.Snappy;

import com.github.luben.zstd.Zstd;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import net.jpountz.lz4.LZ4Factory;

/**
 * The page codecs Ferry reads and writes Parquet with: UNCOMPRESSED, SNAPPY (snappy-java), ZSTD (zstd-jni), GZIP
 * (the JDK) and LZ4_RAW (lz4-java, which Ferry already ships for its wire). parquet-java's own factory goes through
 * Hadoop's codec classes and a Hadoop {@code Configuration}, which would drag Hadoop's runtime in; these are the same
 * formats without it. LZO, BROTLI and Hadoop's framed LZ4 (deprecated by the Parquet format) are refused with a
 * sentence naming the codec.
 *
 * <p>Stateless: one instance serves every reader and writer.
 */
final class ParquetCodecs implements CompressionCodecFactory {
    static final ParquetCodecs INSTANCE = new ParquetCodecs();

    private ParquetCodecs() {
    }

    /** The codec a {@code COMPRESSION 'name'} option means (DuckDB's names); null means SNAPPY, as DuckDB writes. */
    static CompressionCodecName named(String name) {
        if (name == null) {
            return CompressionCodecName.SNAPPY;
        }
        return switch (name.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "snappy" -> CompressionCodecName.SNAPPY;
            case "zstd" -> CompressionCodecName.ZSTD;
            case "gzip" -> CompressionCodecName.GZIP;
            case "lz4", "lz4_raw" -> CompressionCodecName.LZ4_RAW;
            case "uncompressed", "none" -> CompressionCodecName.UNCOMPRESSED;
            default -> throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "Parquet compression '" + name
                    + "' is not one Ferry writes; use snappy (the default), zstd, gzip, lz4_raw or uncompressed");
        };
    }

    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codec) {
        return new BytesInputCompressor() {
            @Override
            public BytesInput compress(BytesInput input) throws IOException {
                byte[] raw = input.toByteArray();
                return BytesInput.from(switch (codec) {
                    case UNCOMPRESSED -> raw;
                    case SNAPPY -> Snappy.compress(raw);
                    case ZSTD -> Zstd.compress(raw, 3);
                    case LZ4_RAW -> LZ4Factory.fastestInstance().fastCompressor().compress(raw);
                    case GZIP -> gzip(raw);
                    default -> throw unsupported(codec);
                });
            }

            @Override
            public CompressionCodecName getCodecName() {
                return codec;
            }

            @Override
            public void release() {
            }
        };
    }

    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
        return new BytesInputDecompressor() {
            @Override
            public BytesInput decompress(BytesInput input, int size) throws IOException {
                byte[] packed = input.toByteArray();
                return BytesInput.from(inflate(codec, packed, size));
            }

            @Override
            public void decompress(ByteBuffer input, int packedSize, ByteBuffer output, int size) throws IOException {
                byte[] packed = new byte[packedSize];
                input.get(packed);
                output.put(inflate(codec, packed, size));
            }

            @Override
            public void release() {
            }
        };
    }

    @Override
    public void release() {
    }

    private static byte[] inflate(CompressionCodecName codec, byte[] packed, int size) throws IOException {
        byte[] out = new byte[size];
        int n;
        switch (codec) {
            case UNCOMPRESSED -> {
                return packed;
            }
            case SNAPPY -> n = Snappy.uncompress(packed, 0, packed.length, out, 0);
            case ZSTD -> {
                long got = Zstd.decompressByteArray(out, 0, size, packed, 0, packed.length);
                if (Zstd.isError(got)) {
                    throw new IOException("a ZSTD page does not decompress: " + Zstd.getErrorName(got));
                }
                n = (int) got;
            }
            case LZ4_RAW -> {
                try {
                    n = LZ4Factory.fastestInstance().safeDecompressor().decompress(packed, 0, packed.length, out, 0,
                            size);
                } catch (net.jpountz.lz4.LZ4Exception e) {
                    throw new IOException("an LZ4_RAW page does not decompress: " + e.getMessage(), e);
                }
            }
            case GZIP -> {
                try (InputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream(packed))) {
                    n = in.readNBytes(out, 0, size);
                }
            }
            default -> throw unsupported(codec);
        }
        if (n != size) {
            throw new IOException("a " + codec + " page holds " + n + " bytes, but its header says " + size);
        }
        return out;
    }

    private static byte[] gzip(byte[] raw) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length / 2 + 64);
        try (GZIPOutputStream z = new GZIPOutputStream(out)) {
            z.write(raw);
        }
        return out.toByteArray();
    }

    private static FerryException unsupported(CompressionCodecName codec) {
        return new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, "the file's pages are compressed with " + codec
                + ", which Ferry does not read; rewrite it with SNAPPY, ZSTD, GZIP or LZ4_RAW (DuckDB: COPY ... TO "
                + "'x.parquet' (FORMAT parquet, COMPRESSION zstd))");
    }
}
