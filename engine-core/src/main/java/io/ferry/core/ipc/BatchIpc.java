package io.ferry.core.ipc;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * Result tables as an Arrow IPC stream, optionally LZ4-compressed ({@link Lz4FrameCodec}): what a worker writes into
 * the coordinator's region under function shipping. Types: BOOLEAN as Bit, INTEGER as Int32, BIGINT as Int64, DATE
 * as DateDay, TIMESTAMP as millisecond timestamps, DOUBLE as Float8, VARCHAR as Utf8, and DECIMAL as its unscaled
 * Int64 (both ends know the scale from the plan), or of more than 18 digits as Binary, the 16 bytes of
 * {@link io.ferry.core.vector.WideDecimal}.
 *
 * <p>The stream sits behind a 12-byte header — magic, length and a CRC32C of the stream — checked before Arrow parses
 * a byte: Arrow's readers trust buffer offsets (with unchecked memory access on, a corrupt offset reads outside the
 * buffer), so a result damaged on its way must be rejected first.
 */
public final class BatchIpc {
    private BatchIpc() {
    }

    public static byte[] write(List<Batch> batches, List<FerryType> types, boolean compress, BufferAllocator allocator) {
        List<Field> fields = new ArrayList<>();
        for (int c = 0; c < types.size(); c++) {
            fields.add(new Field("c" + c, FieldType.nullable(arrowType(types.get(c))), null));
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(fields), allocator);
                ArrowStreamWriter writer = new ArrowStreamWriter(root, null, Channels.newChannel(bytes),
                        IpcOption.DEFAULT, Lz4FrameCodec.FACTORY, compress ? CompressionUtil.CodecType.LZ4_FRAME
                                : CompressionUtil.CodecType.NO_COMPRESSION)) {
            writer.start();
            for (Batch b : batches) {
                int n = b.rowCount();
                if (n == 0) {
                    continue;
                }
                for (int c = 0; c < types.size(); c++) {
                    fill(root.getVector(c), b.column(c), n);
                }
                root.setRowCount(n);
                writer.writeBatch();
            }
            writer.end();
        } catch (IOException e) {
            throw new IllegalStateException("writing a result as Arrow IPC failed", e);
        }
        byte[] stream = bytes.toByteArray();
        byte[] out = new byte[HEADER + stream.length];
        ByteBuffer header = ByteBuffer.wrap(out);
        header.putInt(MAGIC).putInt(stream.length).putInt(crc(stream, 0, stream.length));
        System.arraycopy(stream, 0, out, HEADER, stream.length);
        return out;
    }

    private static final int MAGIC = 0x46524553; // "FRES"
    private static final int HEADER = 12;

    private static int crc(byte[] b, int from, int length) {
        CRC32C crc = new CRC32C();
        crc.update(b, from, length);
        return (int) crc.getValue();
    }

    public static List<Batch> read(byte[] bytes, int offset, int length, List<FerryType> types,
            BufferAllocator allocator) {
        if (length < HEADER) {
            throw corrupt("it has only " + length + " bytes");
        }
        ByteBuffer header = ByteBuffer.wrap(bytes, offset, HEADER);
        int magic = header.getInt();
        int streamLength = header.getInt();
        int checksum = header.getInt();
        if (magic != MAGIC || streamLength != length - HEADER) {
            throw corrupt("its header does not match its " + length + " bytes");
        }
        if (crc(bytes, offset + HEADER, streamLength) != checksum) {
            throw corrupt("its checksum does not match (damaged in transit)");
        }
        List<Batch> out = new ArrayList<>();
        try (ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(bytes, offset + HEADER,
                streamLength),
                allocator, Lz4FrameCodec.FACTORY)) {
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            if (root.getFieldVectors().size() != types.size()) {
                throw corrupt("it has " + root.getFieldVectors().size() + " columns, the plan " + types.size());
            }
            while (reader.loadNextBatch()) {
                int n = root.getRowCount();
                Vector[] cols = new Vector[types.size()];
                for (int c = 0; c < cols.length; c++) {
                    cols[c] = toFerry(root.getVector(c), types.get(c), n);
                }
                out.add(new Batch(n, cols));
            }
        } catch (IOException | RuntimeException e) {
            if (e instanceof FerryException f) {
                throw f;
            }
            throw corrupt("cannot be read (" + e + ")");
        }
        return out;
    }

    private static FerryException corrupt(String why) {
        return new FerryException(SqlStates.PROTOCOL_VIOLATION, "malformed result from a node: " + why);
    }

    static ArrowType arrowType(FerryType t) {
        return switch (t.kind()) {
            case BOOLEAN -> ArrowType.Bool.INSTANCE;
            case INTEGER -> new ArrowType.Int(32, true);
            case BIGINT -> new ArrowType.Int(64, true);
            // a wide DECIMAL travels as its 16 order-preserving bytes (WideDecimal), as it is held
            case DECIMAL -> t.isWideDecimal() ? ArrowType.Binary.INSTANCE : new ArrowType.Int(64, true);
            case DATE -> new ArrowType.Date(DateUnit.DAY);
            case TIMESTAMP -> new ArrowType.Timestamp(TimeUnit.MILLISECOND, null);
            case DOUBLE -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
            case VARCHAR -> ArrowType.Utf8.INSTANCE;
        };
    }

    static void fill(FieldVector target, Vector v, int n) {
        target.reset();
        if (target instanceof BaseVariableWidthVector s) {
            fillBytes(s, (BytesVector) v, n);
        } else if (target instanceof Float8Vector d) {
            d.allocateNew(n);
            DoubleVector dv = (DoubleVector) v;
            for (int i = 0; i < n; i++) {
                if (dv.isNull(i)) {
                    d.setNull(i);
                } else {
                    d.set(i, dv.get(i));
                }
            }
        } else {
            LongVector l = (LongVector) v;
            fillLong(target, l, n);
        }
        target.setValueCount(n);
    }

    /**
     * A BytesVector's rows lie one after another in its data, as Arrow's do: the bytes go over in one copy, the offsets
     * rebased to start at 0, and only the validity bits row by row.
     */
    private static void fillBytes(BaseVariableWidthVector s, BytesVector b, int n) {
        int[] off = b.offsets();
        int first = off[0];
        int bytes = off[n] - first;
        s.allocateNew(Math.max(1, bytes), n); // zeroed validity: NULL rows stay invalid
        s.getDataBuffer().setBytes(0, b.data(), first, bytes);
        ArrowBuf offsets = s.getOffsetBuffer();
        ArrowBuf validity = s.getValidityBuffer();
        boolean[] nulls = b.nulls();
        for (int i = 0; i <= n; i++) {
            offsets.setInt(4L * i, off[i] - first);
        }
        for (int i = 0; i < n; i++) {
            if (nulls == null || !nulls[i]) {
                BitVectorHelper.setBit(validity, i);
            }
        }
        s.setLastSet(n - 1);
    }

    /**
     * Every long-valued Ferry column maps to a fixed-width Arrow vector of 8 bytes (Int64, timestamps), 4 bytes
     * (Int32, dates) or 1 bit (booleans): written straight into its buffers, one loop per width.
     */
    private static void fillLong(FieldVector target, LongVector l, int n) {
        BaseFixedWidthVector f = (BaseFixedWidthVector) target;
        f.allocateNew(n); // zeroed: NULL rows stay invalid, false bits stay 0
        ArrowBuf validity = f.getValidityBuffer();
        ArrowBuf data = f.getDataBuffer();
        long[] values = l.values();
        int width = f.getTypeWidth();
        for (int i = 0; i < n; i++) {
            if (l.isNull(i)) {
                continue;
            }
            BitVectorHelper.setBit(validity, i);
            if (width == 8) {
                data.setLong(8L * i, values[i]);
            } else if (width == 4) {
                data.setInt(4L * i, (int) values[i]);
            } else if (values[i] != 0) {
                BitVectorHelper.setBit(data, i);
            }
        }
    }

    static Vector toFerry(FieldVector v, FerryType type, int n) {
        boolean[] nulls = nulls(v, n);
        if (v instanceof VarCharVector || v instanceof VarBinaryVector) {
            if ((v instanceof VarBinaryVector) != type.isWideDecimal()) {
                throw corrupt("column of " + type + " arrived as " + v.getField().getType());
            }
            // the data in one copy and the offsets rebased; a NULL row's bytes (none, in a valid stream) are kept
            if (n == 0) {
                return new BytesVector(new byte[0], new int[1], null, 0);
            }
            BaseVariableWidthVector s = (BaseVariableWidthVector) v;
            ArrowBuf offsets = s.getOffsetBuffer();
            int[] off = new int[n + 1];
            int first = offsets.getInt(0);
            for (int i = 0; i <= n; i++) {
                off[i] = offsets.getInt(4L * i) - first;
                if (i > 0 && off[i] < off[i - 1]) {
                    throw corrupt("its string offsets decrease at row " + i);
                }
            }
            if (off[0] != 0 || (long) first + off[n] > s.getDataBuffer().capacity()) {
                throw corrupt("its string offsets point outside its data");
            }
            byte[] data = new byte[off[n]];
            s.getDataBuffer().getBytes(first, data, 0, off[n]);
            return new BytesVector(data, off, nulls, n);
        }
        if (v instanceof Float8Vector d) {
            double[] out = new double[n];
            values(d.getDataBuffer(), n, 8).asDoubleBuffer().get(out, 0, n);
            if (nulls != null) {
                for (int i = 0; i < n; i++) {
                    out[i] = nulls[i] ? 0 : out[i];
                }
            }
            return new DoubleVector(out, nulls, n);
        }
        if (!(v instanceof BaseFixedWidthVector f) || (f.getTypeWidth() != 8 && f.getTypeWidth() != 4
                && !(v instanceof BitVector))) {
            throw corrupt("column of " + type + " arrived as " + v.getField().getType());
        }
        ArrowBuf data = f.getDataBuffer();
        int width = f.getTypeWidth();
        long[] out = new long[n];
        if (width == 8) {
            values(data, n, 8).asLongBuffer().get(out, 0, n);
        } else if (width == 4) {
            java.nio.IntBuffer ints = values(data, n, 4).asIntBuffer();
            for (int i = 0; i < n; i++) {
                out[i] = ints.get(i);
            }
        } else {
            for (int i = 0; i < n; i++) {
                out[i] = BitVectorHelper.get(data, i);
            }
        }
        if (nulls != null) {
            for (int i = 0; i < n; i++) {
                out[i] = nulls[i] ? 0 : out[i]; // a NULL row holds 0, whatever the sender left in its slot
            }
        }
        return new LongVector(out, nulls, n);
    }

    /** Which of the first n rows are NULL, or null when none is (the validity bitmap's count says so at once). */
    static boolean[] nulls(FieldVector v, int n) {
        if (v.getNullCount() == 0) {
            return null;
        }
        boolean[] nulls = new boolean[n];
        for (int i = 0; i < n; i++) {
            nulls[i] = v.isNull(i);
        }
        return nulls;
    }

    /** The first n values of {@code width} bytes in {@code data}, little-endian, for one bulk copy. */
    private static ByteBuffer values(ArrowBuf data, int n, int width) {
        long bytes = (long) n * width;
        if (bytes > data.capacity()) {
            throw corrupt("a column of " + n + " rows has only " + data.capacity() + " bytes of values");
        }
        return data.nioBuffer(0, (int) bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    }
}
