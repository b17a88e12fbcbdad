package io.ferry.server.parquet;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

import io.ferry.core.types.Column;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TableSchema;
import io.ferry.core.types.TypeKind;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.WideDecimal;

/**
 * Writes rows as a Parquet file through parquet-java, each Ferry type as the type DuckDB, Spark and pyarrow read
 * back as the same: BOOLEAN; INTEGER as INT32; BIGINT as INT64; DOUBLE; DECIMAL(p,s) as an INT32 (p up to 9), INT64
 * (up to 18) or 16-byte FIXED_LEN_BYTE_ARRAY DECIMAL; DATE as INT32 DATE; TIMESTAMP as INT64
 * TIMESTAMP(MICROS, not adjusted to UTC), the unit every reader takes; VARCHAR as BINARY STRING. A NOT NULL column
 * is REQUIRED, any other OPTIONAL. Pages are SNAPPY-compressed unless told otherwise ({@link ParquetCodecs}).
 *
 * <p>Like {@code CsvExporter}: {@link #write} batches, then {@link #close} writes the footer and closes the stream.
 */
public final class ParquetExporter implements AutoCloseable {
    private final ParquetWriter<Row> writer;
    private final Row row = new Row();
    private long rows;

    /** Starts a file on {@code out}; {@code compression}: a COPY option's codec name, or null for SNAPPY. */
    public ParquetExporter(OutputStream out, TableSchema schema, String compression) throws IOException {
        MessageType type = messageType(schema);
        this.writer = new Builder(new StreamFile(out), new RowWriter(type, schema))
                .withConf(new PlainParquetConfiguration())
                .withCodecFactory(ParquetCodecs.INSTANCE)
                .withCompressionCodec(ParquetCodecs.named(compression))
                .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
                .build();
    }

    /** The Parquet schema Ferry writes for {@code schema}. */
    static MessageType messageType(TableSchema schema) {
        List<Type> fields = new ArrayList<>();
        for (Column c : schema.columns()) {
            FerryType t = c.type();
            Type.Repetition repetition = c.nullable() ? Type.Repetition.OPTIONAL : Type.Repetition.REQUIRED;
            fields.add(switch (t.kind()) {
                case BOOLEAN -> Types.primitive(PrimitiveTypeName.BOOLEAN, repetition).named(c.name());
                case INTEGER -> Types.primitive(PrimitiveTypeName.INT32, repetition).named(c.name());
                case BIGINT -> Types.primitive(PrimitiveTypeName.INT64, repetition).named(c.name());
                case DOUBLE -> Types.primitive(PrimitiveTypeName.DOUBLE, repetition).named(c.name());
                case DECIMAL -> {
                    LogicalTypeAnnotation decimal = LogicalTypeAnnotation.decimalType(t.scale(), t.precision());
                    if (t.isWideDecimal()) {
                        yield Types.primitive(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, repetition)
                                .length(WideDecimal.BYTES).as(decimal).named(c.name());
                    }
                    PrimitiveTypeName physical = t.precision() <= 9 ? PrimitiveTypeName.INT32 : PrimitiveTypeName.INT64;
                    yield Types.primitive(physical, repetition).as(decimal).named(c.name());
                }
                case DATE -> Types.primitive(PrimitiveTypeName.INT32, repetition)
                        .as(LogicalTypeAnnotation.dateType()).named(c.name());
                case TIMESTAMP -> Types.primitive(PrimitiveTypeName.INT64, repetition)
                        .as(LogicalTypeAnnotation.timestampType(false, LogicalTypeAnnotation.TimeUnit.MICROS))
                        .named(c.name());
                case VARCHAR -> Types.primitive(PrimitiveTypeName.BINARY, repetition)
                        .as(LogicalTypeAnnotation.stringType()).named(c.name());
            });
        }
        return new MessageType("ferry", fields);
    }

    /** Appends the batch's rows; a failure to write is an {@link UncheckedIOException}, as in CsvExporter. */
    public void write(Batch batch) {
        Batch b = batch.materialize();
        row.batch = b;
        try {
            for (int i = 0; i < b.rowCount(); i++) {
                row.index = i;
                writer.write(row);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        rows += b.rowCount();
    }

    public long rows() {
        return rows;
    }

    @Override
    public void close() throws IOException {
        writer.close();
    }

    /** The row being written: a position in a batch, not a copy of it. */
    private static final class Row {
        Batch batch;
        int index;
    }

    /** Hands one row's values to parquet-java's record consumer, column by column. */
    private static final class RowWriter extends WriteSupport<Row> {
        private final MessageType type;
        private final TypeKind[] kinds;
        private final boolean[] narrowDecimal32;
        private final String[] names;
        private final byte[] wide = new byte[WideDecimal.BYTES];
        private RecordConsumer consumer;

        RowWriter(MessageType type, TableSchema schema) {
            this.type = type;
            int n = schema.size();
            this.kinds = new TypeKind[n];
            this.narrowDecimal32 = new boolean[n];
            this.names = new String[n];
            for (int c = 0; c < n; c++) {
                FerryType t = schema.type(c);
                kinds[c] = t.kind();
                narrowDecimal32[c] = t.kind() == TypeKind.DECIMAL && t.precision() <= 9;
                names[c] = schema.column(c).name();
            }
        }

        @Override
        public WriteContext init(Configuration configuration) {
            return new WriteContext(type, Map.of());
        }

        @Override
        public WriteContext init(ParquetConfiguration configuration) {
            return new WriteContext(type, Map.of());
        }

        @Override
        public void prepareForWrite(RecordConsumer recordConsumer) {
            this.consumer = recordConsumer;
        }

        @Override
        public void write(Row row) {
            Batch b = row.batch;
            int i = row.index;
            consumer.startMessage();
            for (int c = 0; c < kinds.length; c++) {
                var v = b.column(c);
                if (v.isNull(i)) {
                    continue;
                }
                consumer.startField(names[c], c);
                switch (kinds[c]) {
                    case BOOLEAN -> consumer.addBoolean(((LongVector) v).get(i) != 0);
                    case INTEGER -> consumer.addInteger((int) ((LongVector) v).get(i));
                    case BIGINT -> consumer.addLong(((LongVector) v).get(i));
                    case DOUBLE -> consumer.addDouble(((DoubleVector) v).get(i));
                    case DATE -> consumer.addInteger((int) ((LongVector) v).get(i));
                    case TIMESTAMP -> consumer.addLong(Math.multiplyExact(((LongVector) v).get(i), 1_000L));
                    case VARCHAR -> {
                        BytesVector s = (BytesVector) v;
                        consumer.addBinary(Binary.fromReusedByteArray(s.data(), s.start(i), s.length(i)));
                    }
                    case DECIMAL -> {
                        if (v instanceof LongVector l) {
                            if (narrowDecimal32[c]) {
                                consumer.addInteger((int) l.get(i));
                            } else {
                                consumer.addLong(l.get(i));
                            }
                        } else {
                            // Ferry flips the sign bit so bytes order as numbers; Parquet wants plain two's complement.
                            BytesVector d = (BytesVector) v;
                            System.arraycopy(d.data(), d.start(i), wide, 0, WideDecimal.BYTES);
                            wide[0] ^= (byte) 0x80;
                            consumer.addBinary(Binary.fromReusedByteArray(wide));
                        }
                    }
                }
                consumer.endField(names[c], c);
            }
            consumer.endMessage();
        }
    }

    private static final class Builder extends ParquetWriter.Builder<Row, Builder> {
        private final RowWriter support;

        Builder(OutputFile file, RowWriter support) {
            super(file);
            this.support = support;
        }

        @Override
        protected Builder self() {
            return this;
        }

        @Override
        protected WriteSupport<Row> getWriteSupport(Configuration conf) {
            return support;
        }

        @Override
        protected WriteSupport<Row> getWriteSupport(ParquetConfiguration conf) {
            return support;
        }
    }

    /** An {@link OutputFile} over a stream that is already open (a temporary file that replaces the target whole). */
    private static final class StreamFile implements OutputFile {
        private final OutputStream out;

        StreamFile(OutputStream out) {
            this.out = out;
        }

        @Override
        public PositionOutputStream create(long blockSizeHint) {
            return new PositionOutputStream() {
                private long pos;

                @Override
                public long getPos() {
                    return pos;
                }

                @Override
                public void write(int b) throws IOException {
                    out.write(b);
                    pos++;
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    out.write(b, off, len);
                    pos += len;
                }

                @Override
                public void flush() throws IOException {
                    out.flush();
                }

                @Override
                public void close() throws IOException {
                    out.close();
                }
            };
        }

        @Override
        public PositionOutputStream createOrOverwrite(long blockSizeHint) {
            return create(blockSizeHint);
        }

        @Override
        public boolean supportsBlockSize() {
            return false;
        }

        @Override
        public long defaultBlockSize() {
            return 0;
        }
    }
}
