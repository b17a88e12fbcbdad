package io.ferry.core.ipc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.zip.CRC32C;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.message.ArrowBlock;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.storage.Block;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TableSchema;
import io.ferry.core.types.TypeKind;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;
import io.ferry.core.vector.WideDecimal;

/**
 * A table's rows as an Arrow IPC file (the format {@code pyarrow.ipc.open_file} and DuckDB's arrow extension read),
 * its buffers LZ4-frame compressed: one record batch per block, the columns named as the table's, each with its SQL
 * type in the field metadata {@value #TYPE_KEY}. Values are held as Arrow types them (a DECIMAL as Decimal128 of its
 * precision and scale), so other tools read the files as they are.
 *
 * <p>Arrow's reader trusts the offsets in a file, so a file is read only after its length and CRC32C, recorded when
 * it was written, have been checked.
 */
public final class TableFile {
    /** The field metadata key of a column's SQL type. */
    public static final String TYPE_KEY = "ferry.type";
    /** The schema metadata key of the table's name. */
    public static final String TABLE_KEY = "ferry.table";
    private static final int CHECK_CHUNK = 1 << 20;

    private TableFile() {
    }

    /** What {@link #write} wrote. */
    public record Written(long bytes, int crc, long rows) {
    }

    /**
     * Writes the rows of {@code blocks} to {@code file}, which must not exist, and forces it
     * to the device.
     */
    public static Written write(Path file, String table, TableSchema schema, List<Block> blocks,
            BufferAllocator allocator) throws IOException {
        List<Field> fields = new ArrayList<>(schema.size());
        for (int c = 0; c < schema.size(); c++) {
            FerryType type = schema.type(c);
            ArrowType arrow = type.kind() == TypeKind.DECIMAL ? type.arrowType() : BatchIpc.arrowType(type);
            fields.add(new Field(schema.column(c).name(), new FieldType(true, arrow, null,
                    Map.of(TYPE_KEY, type.sqlName())), null));
        }
        long rows = 0;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                ChecksummedChannel out = new ChecksummedChannel(channel);
                VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(fields), allocator);
                ArrowFileWriter writer = new ArrowFileWriter(root, null, out, Map.of(TABLE_KEY, table),
                        IpcOption.DEFAULT, Lz4FrameCodec.FACTORY, CompressionUtil.CodecType.LZ4_FRAME)) {
            writer.start();
            for (Block block : blocks) {
                int n = block.rowCount();
                if (n == 0) {
                    continue;
                }
                // a block on another node is read back first (a cluster's coordinator keeps its tables' files)
                block.read(reader -> {
                    for (int c = 0; c < schema.size(); c++) {
                        Vector v = reader.decode(c, schema.type(c), 0, n);
                        if (root.getVector(c) instanceof DecimalVector d) {
                            fillDecimal(d, v, n);
                        } else {
                            BatchIpc.fill(root.getVector(c), v, n);
                        }
                    }
                });
                root.setRowCount(n);
                writer.writeBatch();
                rows += n;
            }
            writer.end();
            channel.force(true);
            return new Written(out.bytes, (int) out.crc.getValue(), rows);
        }
    }

    /**
     * Checks that {@code file} is {@code bytes} long with CRC32C {@code crc}, as written: XX001 if it is not, 58030 if
     * it cannot be read. A file is checked before any of it is {@linkplain #read read}.
     */
    public static void check(Path file, long bytes, int crc) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            if (size != bytes) {
                throw damaged(file, "it is " + size + " bytes long where " + bytes + " were written");
            }
            CRC32C sum = new CRC32C();
            ByteBuffer chunk = ByteBuffer.allocateDirect(CHECK_CHUNK);
            while (channel.read(chunk) > 0 || chunk.position() > 0) {
                chunk.flip();
                sum.update(chunk);
                chunk.clear();
            }
            if ((int) sum.getValue() != crc) {
                throw damaged(file, "its checksum does not match what was written");
            }
        } catch (IOException e) {
            throw new FerryException(SqlStates.IO_ERROR, "cannot read data file " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Hands part {@code part} of {@code parts} of the rows of {@code file}, a {@linkplain #check checked} file of a
     * table of {@code schema}, to {@code sink} batch by batch: the record batches of the part's share, in order.
     */
    public static void read(Path file, TableSchema schema, BufferAllocator allocator, int part, int parts,
            Consumer<Batch> sink) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
                ArrowFileReader reader = new ArrowFileReader(channel, allocator, Lz4FrameCodec.FACTORY)) {
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            List<Field> fields = root.getSchema().getFields();
            if (fields.size() != schema.size()) {
                throw damaged(file, "it has " + fields.size() + " columns where the table has " + schema.size());
            }
            for (int c = 0; c < fields.size(); c++) {
                String type = fields.get(c).getMetadata().get(TYPE_KEY);
                if (!schema.type(c).sqlName().equals(type)) {
                    throw damaged(file, "its column " + (c + 1) + " is " + type + " where the table's is "
                            + schema.type(c).sqlName());
                }
            }
            List<ArrowBlock> batches = reader.getRecordBlocks();
            int from = (int) ((long) batches.size() * part / parts);
            int to = (int) ((long) batches.size() * (part + 1) / parts);
            for (int b = from; b < to; b++) {
                reader.loadRecordBatch(batches.get(b));
                int n = root.getRowCount();
                Vector[] columns = new Vector[schema.size()];
                for (int c = 0; c < columns.length; c++) {
                    columns[c] = root.getVector(c) instanceof DecimalVector d ? decimals(d, schema.type(c), n)
                            : BatchIpc.toFerry(root.getVector(c), schema.type(c), n);
                }
                sink.accept(new Batch(n, columns));
            }
        } catch (IOException e) {
            throw new FerryException(SqlStates.IO_ERROR, "cannot read data file " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * A DECIMAL column as Arrow's Decimal128: 16 little-endian bytes of the unscaled two's-complement value, from a
     * long (precision up to 18) or the two halves of a {@link WideDecimal}.
     */
    private static void fillDecimal(DecimalVector target, Vector v, int n) {
        target.reset();
        target.allocateNew(n); // zeroed: NULL rows stay invalid
        ArrowBuf validity = target.getValidityBuffer();
        ArrowBuf data = target.getDataBuffer();
        for (int i = 0; i < n; i++) {
            if (v.isNull(i)) {
                continue;
            }
            BitVectorHelper.setBit(validity, i);
            long lo;
            long hi;
            if (v instanceof LongVector l) {
                lo = l.get(i);
                hi = lo >> 63;
            } else {
                BytesVector b = (BytesVector) v;
                lo = WideDecimal.lo(b.data(), b.start(i));
                hi = WideDecimal.hi(b.data(), b.start(i));
            }
            data.setLong(16L * i, lo);
            data.setLong(16L * i + 8, hi);
        }
        target.setValueCount(n);
    }

    private static Vector decimals(DecimalVector d, FerryType type, int n) {
        ArrowBuf data = d.getDataBuffer();
        boolean[] nulls = BatchIpc.nulls(d, n);
        if (!type.isWideDecimal()) {
            long[] out = new long[n];
            for (int i = 0; i < n; i++) {
                if (nulls == null || !nulls[i]) {
                    out[i] = data.getLong(16L * i);
                }
            }
            return new LongVector(out, nulls, n);
        }
        byte[] bytes = new byte[n * WideDecimal.BYTES];
        int[] offsets = new int[n + 1];
        for (int i = 0; i < n; i++) {
            WideDecimal.put(bytes, i * WideDecimal.BYTES, data.getLong(16L * i + 8), data.getLong(16L * i));
            offsets[i + 1] = (i + 1) * WideDecimal.BYTES;
        }
        return new BytesVector(bytes, offsets, nulls, n);
    }

    private static FerryException damaged(Path file, String why) {
        return new FerryException(SqlStates.DATA_CORRUPTED, "data file " + file + " is damaged: " + why + "; "
                + "restore the data directory from a backup, or move this table's files and manifest entry away");
    }

    /** Counts and checksums the bytes written through it. */
    private static final class ChecksummedChannel implements WritableByteChannel {
        private final WritableByteChannel out;
        private final CRC32C crc = new CRC32C();
        private long bytes;

        ChecksummedChannel(WritableByteChannel out) {
            this.out = out;
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            ByteBuffer seen = src.duplicate();
            int n = out.write(src);
            seen.limit(seen.position() + n);
            crc.update(seen);
            bytes += n;
            return n;
        }

        @Override
        public boolean isOpen() {
            return out.isOpen();
        }

        @Override
        public void close() {
            // the file channel is closed by its owner
        }
    }
}
