package io.ferry.server.parquet;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.regex.Pattern;

import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.FileMetaData;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.MessageType;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.storage.Catalog;
import io.ferry.core.storage.Table;
import io.ferry.core.storage.TableAppender;
import io.ferry.core.types.Column;
import io.ferry.core.types.TableSchema;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.Vector;
import io.ferry.server.data.ColumnNames;
import io.ferry.server.data.ProgressListener;
import io.ferry.server.data.StagedAppend;

/**
 * Loads a Parquet file into a table — the one named, if it exists, else a new one whose columns are the file's, with
 * the types {@link ParquetColumn} gives them. A load is all or nothing, as a CSV load is ({@link StagedAppend}).
 *
 * <p>Reading is columnar: for each row group, each column's pages are decoded by parquet-java and copied, one batch
 * of {@link Vector#MAX_ROWS} rows at a time, straight into a Ferry vector ({@link ColumnFill}); no record is
 * assembled per row. Decoding runs on a thread of its own, overlapping the staging of the batches (see
 * {@link #readRows}). Into an existing table, the file's columns are taken by position (as COPY FROM takes a CSV's
 * fields), each converted to the table column's type where that is lossless or checked per value.
 *
 * <p>Errors name the file and say what is wrong: 22P04 for a file that is not Parquet or is cut short or corrupt
 * (with the row group and column being read), 0A000 for a column Ferry cannot hold (nested, TIME, BLOB), 42804 for a
 * column that does not fit the table's, 22003/22001/23502/22021 for a value (with its row), 58P01 for a missing file.
 */
public final class ParquetLoader {
    /** PostgreSQL's undefined_file, which COPY FROM raises for a missing file. */
    private static final String UNDEFINED_FILE = "58P01";
    /** Decoded batches waiting to be appended, at most. */
    private static final int IN_FLIGHT = 4;
    /** What the decoder hands over after the last batch. */
    private static final Object END = new Object();
    /** A Java class name, maybe with an object's identity hash, as parquet-java puts them into messages. */
    private static final Pattern CLASS_NAME =
            Pattern.compile("\\b[a-z][a-z0-9_]*(\\.[a-z0-9_]+)+\\.[A-Z][A-Za-z0-9_$]*(@[0-9a-f]+)?");

    private ParquetLoader() {
    }

    /** What the reader is told. {@code binaryAsString}: read un-annotated BINARY columns as VARCHAR. */
    public record Options(boolean binaryAsString) {
        public static final Options DEFAULT = new Options(false);
    }

    /**
     * Loads {@code file} into table {@code tableName}: into the existing table if there is one, else into a new table
     * with the file's columns. Returns the number of rows added.
     */
    public static long load(Catalog catalog, String tableName, Path file, Options options, ProgressListener progress)
            throws IOException {
        try (ParquetFileReader reader = open(file)) {
            List<ParquetColumn> columns = columns(file, reader, options);
            Table table = catalog.get(tableName);
            TableSchema target = table != null ? table.schema() : schemaOf(columns);
            ColumnFill[] fills = fills(file, columns, target, table == null ? tableName : table.name());
            progress.start("load " + Catalog.normalize(tableName), reader.getRecordCount(),
                    ProgressListener.Unit.ROWS);
            try {
                return StagedAppend.run(catalog, table, tableName, target,
                        appender -> readRows(file, reader, columns, fills, appender, progress));
            } finally {
                progress.finish();
            }
        }
    }

    /** The table {@link #load} would create for {@code file}. */
    public static TableSchema inferSchema(Path file, Options options) throws IOException {
        try (ParquetFileReader reader = open(file)) {
            return schemaOf(columns(file, reader, options));
        }
    }

    private static ParquetFileReader open(Path file) throws IOException {
        if (!Files.exists(file)) {
            throw new FerryException(UNDEFINED_FILE, "file " + file + " does not exist; check the path");
        }
        ParquetReadOptions options = ParquetReadOptions.builder(new PlainParquetConfiguration())
                .withCodecFactory(ParquetCodecs.INSTANCE)
                .usePageChecksumVerification(true) // pages that carry a CRC (parquet-java writes one) are checked
                .build();
        try {
            return ParquetFileReader.open(new LocalInputFile(file), options);
        } catch (IOException | RuntimeException e) {
            if (e instanceof FerryException) {
                throw e;
            }
            throw new FerryException(SqlStates.BAD_COPY_FILE_FORMAT, file + " is not a readable Parquet file ("
                    + describe(e) + "); check that the file is Parquet and was written completely. No rows were "
                    + "loaded.", e);
        }
    }

    private static List<ParquetColumn> columns(Path file, ParquetFileReader reader, Options options) {
        FileMetaData meta = reader.getFooter().getFileMetaData();
        MessageType schema = meta.getSchema();
        List<ParquetColumn> columns = new ArrayList<>();
        for (org.apache.parquet.schema.Type field : schema.getFields()) {
            ColumnDescriptor descriptor = field.isPrimitive()
                    ? schema.getColumnDescription(new String[] {field.getName()}) : null;
            columns.add(ParquetColumn.of(file.toString(), field, descriptor, options.binaryAsString()));
        }
        if (columns.isEmpty()) {
            throw new FerryException(SqlStates.BAD_COPY_FILE_FORMAT, file + " has no columns; nothing to load");
        }
        return columns;
    }

    /** A new table's columns: the file's names in lower case (made unique) and natural types, all nullable. */
    private static TableSchema schemaOf(List<ParquetColumn> columns) {
        List<String> names = ColumnNames.of(columns.stream().map(ParquetColumn::name).toList());
        List<Column> out = new ArrayList<>();
        for (int c = 0; c < columns.size(); c++) {
            out.add(new Column(names.get(c), columns.get(c).natural(), true));
        }
        return new TableSchema(out);
    }

    private static ColumnFill[] fills(Path file, List<ParquetColumn> columns, TableSchema target, String table) {
        if (columns.size() != target.size()) {
            throw new FerryException(SqlStates.BAD_COPY_FILE_FORMAT, file + " has " + columns.size() + " columns "
                    + names(columns) + " but table '" + table + "' has " + target.size() + " " + target.columns()
                    .stream().map(Column::name).toList() + "; columns are taken by position. No rows were loaded.");
        }
        ColumnFill[] fills = new ColumnFill[columns.size()];
        for (int c = 0; c < fills.length; c++) {
            ParquetColumn pc = columns.get(c);
            Column tc = target.column(c);
            if (!pc.loadsInto(tc.type())) {
                throw new FerryException(SqlStates.DATATYPE_MISMATCH, file + ": column " + (c + 1) + " '"
                        + pc.name() + "' is " + pc.fileType() + ", which does not load into column '" + tc.name()
                        + "' " + tc.type().sqlName() + " of table '" + table + "'; load into a new table and "
                        + "INSERT ... SELECT with a CAST. No rows were loaded.");
            }
            fills[c] = new ColumnFill(pc, tc.type(), tc.nullable(), "'" + table + "." + tc.name() + "' "
                    + tc.type().sqlName());
        }
        return fills;
    }

    private static List<String> names(List<ParquetColumn> columns) {
        return columns.stream().map(ParquetColumn::name).toList();
    }

    /**
     * Decodes on a second thread while this one appends: decoding a batch and staging it (encoding blocks, keeping
     * column statistics) cost about the same, so the two overlap. A few batches are in flight at most; when the
     * append fails, the decoder stops at its next batch, and a decoding error is thrown here as it was raised.
     */
    private static long readRows(Path file, ParquetFileReader reader, List<ParquetColumn> columns,
            ColumnFill[] fills, TableAppender appender, ProgressListener progress) {
        BlockingQueue<Object> queue = new ArrayBlockingQueue<>(IN_FLIGHT);
        AtomicBoolean stop = new AtomicBoolean();
        Thread decoder = new Thread(() -> {
            Object last = END;
            try {
                decode(file, reader, columns, fills, batch -> hand(queue, batch, stop));
            } catch (Stopped e) {
                return;
            } catch (RuntimeException | Error e) {
                last = e;
            }
            try {
                hand(queue, last, stop);
            } catch (Stopped e) {
                // nobody is waiting any more
            }
        }, "ferry-parquet-decode");
        decoder.setDaemon(true);
        decoder.start();
        long rows = 0;
        try {
            while (true) {
                Object next = queue.take();
                if (next == END) {
                    return rows;
                }
                if (next instanceof RuntimeException e) {
                    throw e;
                }
                if (next instanceof Error e) {
                    throw e;
                }
                Batch batch = (Batch) next;
                appender.append(batch);
                rows += batch.rowCount();
                progress.update(rows);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FerryException(SqlStates.QUERY_CANCELED, "the load of " + file + " was interrupted; no rows "
                    + "were loaded");
        } finally {
            stop.set(true);
            queue.clear();
            joinQuietly(decoder);
        }
    }

    /** Reads every row group of the file, one batch of up to {@link Vector#MAX_ROWS} rows at a time. */
    private static void decode(Path file, ParquetFileReader reader, List<ParquetColumn> columns, ColumnFill[] fills,
            Consumer<Batch> sink) {
        MessageType schema = reader.getFooter().getFileMetaData().getSchema();
        String createdBy = reader.getFooter().getFileMetaData().getCreatedBy();
        GroupConverter values = new ValuesOnly(schema.getFieldCount());
        long rows = 0;
        int group = 0;
        ColumnReader[] readers = new ColumnReader[fills.length];
        while (true) {
            PageReadStore pages;
            try {
                pages = reader.readNextRowGroup();
            } catch (IOException | RuntimeException e) {
                throw corrupt(file, group, null, e);
            }
            if (pages == null) {
                return;
            }
            long groupRows = pages.getRowCount();
            ColumnReadStoreImpl store = new ColumnReadStoreImpl(pages, values, schema, createdBy);
            for (int c = 0; c < fills.length; c++) {
                fills[c].at(file.toString(), rows);
                readers[c] = store.getColumnReader(columns.get(c).descriptor());
            }
            for (long done = 0; done < groupRows; ) {
                int n = (int) Math.min(Vector.MAX_ROWS, groupRows - done);
                Vector[] vectors = new Vector[fills.length];
                for (int c = 0; c < fills.length; c++) {
                    try {
                        vectors[c] = fills[c].read(readers[c], (int) done, n);
                    } catch (FerryException e) {
                        throw e;
                    } catch (RuntimeException e) {
                        throw corrupt(file, group, columns.get(c).name(), e);
                    }
                }
                sink.accept(new Batch(n, vectors));
                done += n;
            }
            rows += groupRows;
            group++;
        }
    }

    /** Puts {@code item} on the queue unless the appending side has stopped, which ends the decoder. */
    private static void hand(BlockingQueue<Object> queue, Object item, AtomicBoolean stop) {
        try {
            while (!queue.offer(item, 100, TimeUnit.MILLISECONDS)) {
                if (stop.get()) {
                    throw new Stopped();
                }
            }
        } catch (InterruptedException e) {
            throw new Stopped();
        }
    }

    private static void joinQuietly(Thread decoder) {
        boolean interrupted = false;
        while (true) {
            try {
                decoder.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Ends the decoder when the appending side is gone. */
    private static final class Stopped extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Stopped() {
            super(null, null, false, false);
        }
    }

    private static FerryException corrupt(Path file, int group, String column, Exception e) {
        return new FerryException(SqlStates.BAD_COPY_FILE_FORMAT, file + ", row group " + (group + 1)
                + (column == null ? "" : ", column '" + column + "'") + ": the data cannot be read (" + describe(e)
                + "); the file is corrupt or cut short. No rows were loaded.", e);
    }

    /** A one-line account of a parquet-java failure, without class names or object identities. */
    private static String describe(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t && (t.getMessage() == null || t.getMessage().isBlank())) {
            t = t.getCause();
        }
        String message = t.getMessage() == null ? "no detail" : t.getMessage();
        if (message.contains("is not a Parquet file")) {
            return "it does not end with Parquet's footer and PAR1 marker";
        }
        int line = message.indexOf('\n');
        message = line < 0 ? message : message.substring(0, line);
        return CLASS_NAME.matcher(message).replaceAll("the file");
    }

    /**
     * parquet-java's column readers want a converter even when values are taken with {@code getLong()} and the like;
     * this one is never called.
     */
    private static final class ValuesOnly extends GroupConverter {
        private final int fields;

        ValuesOnly(int fields) {
            this.fields = fields;
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            if (fieldIndex >= fields) {
                throw new IndexOutOfBoundsException(fieldIndex);
            }
            return new PrimitiveConverter() {
            };
        }

        @Override
        public void start() {
        }

        @Override
        public void end() {
        }
    }
}
