package io.ferry.server.data;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.storage.Catalog;
import io.ferry.core.storage.Table;
import io.ferry.core.storage.TableAppender;
import io.ferry.core.types.Column;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TableSchema;
import io.ferry.core.types.TypeKind;
import io.ferry.core.vector.BatchBuilder;
import io.ferry.core.vector.Vector;
import io.ferry.core.vector.WideDecimal;

/**
 * Loads CSV (RFC 4180, UTF-8) into a table — the one named, if it exists, else a new one with the schema given or
 * inferred from the first rows. A load is all or nothing: rows are staged and published by one commit, so a bad
 * line anywhere leaves an existing table exactly as it was, and a table the load created is dropped again.
 *
 * <p>Fields are parsed straight from the read buffer into the batch's primitive arrays; no object is made per row
 * or per value, save for DOUBLE text with more than 18 significant digits.
 *
 * <p>NULL: an unquoted field equal to {@link Options#nullString()} (by default the empty field). For a column that
 * is not VARCHAR, an empty or all-blank field is NULL too, quoted or not; for VARCHAR, {@code ""} is the empty
 * string. Blank lines are skipped unless the table has a single column (where they are that column's empty field).
 *
 * <p>Type inference (when the table does not exist and no schema is given) looks at up to
 * {@link Options#sampleRows()} rows and gives each column the narrowest type all its values fit: BIGINT, DOUBLE,
 * DATE ({@code yyyy-mm-dd}), TIMESTAMP ({@code yyyy-mm-dd hh:mm[:ss[.fff]]}), BOOLEAN ({@code true}/{@code false}),
 * else VARCHAR. BIGINT widens to DOUBLE and DATE to TIMESTAMP; any other mix is VARCHAR, and so is a column with
 * only NULLs. Inferred columns are nullable; names come from the header (lower-cased), else column1, column2, ...
 *
 * <p>Errors are {@link FerryException}s naming the source, line, column and value: 22P04 for a malformed file
 * (wrong number of fields, unclosed quote), 22018 for text that is not a value of the column's type, 22007 for a
 * malformed date or timestamp, 22003 for a number out of the type's range, 22001 for a string longer than its
 * VARCHAR(n), 23502 for NULL in a NOT NULL column, 22021 for bytes that are not UTF-8, 58P01 for a missing file.
 */
public final class CsvLoader {
    /** PostgreSQL's character_not_in_repertoire, which it raises for invalid UTF-8 ("invalid byte sequence"). */
    static final String INVALID_ENCODING = "22021";
    /** PostgreSQL's undefined_file, which COPY FROM raises for a missing file. */
    static final String UNDEFINED_FILE = "58P01";

    private static final int MAX_SHOWN_VALUE = 60;

    /**
     * How the CSV is written. {@code header}: the first line names the columns (and is not data);
     * {@code delimiter} and {@code quote}: ASCII characters; {@code nullString}: the unquoted text that means NULL;
     * {@code sampleRows}: rows type inference looks at.
     */
    public record Options(boolean header, char delimiter, char quote, String nullString, int sampleRows) {
        public static final Options DEFAULT = new Options(true, ',', '"', "", 10_000);

        public Options {
            if (!isUsable(delimiter) || !isUsable(quote) || delimiter == quote) {
                throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "the CSV delimiter and quote must be two "
                        + "different ASCII characters other than CR and LF, got '" + delimiter + "' and '" + quote
                        + "'");
            }
            if (nullString == null) {
                throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "the NULL string must not be null; "
                        + "use \"\" for empty fields");
            }
            if (sampleRows < 1) {
                throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "type inference needs at least one "
                        + "sample row, got " + sampleRows);
            }
        }

        private static boolean isUsable(char c) {
            return c > 0 && c < 128 && c != '\n' && c != '\r';
        }

        public Options withHeader(boolean header) {
            return new Options(header, delimiter, quote, nullString, sampleRows);
        }

        public Options withDelimiter(char delimiter) {
            return new Options(header, delimiter, quote, nullString, sampleRows);
        }

        public Options withQuote(char quote) {
            return new Options(header, delimiter, quote, nullString, sampleRows);
        }

        public Options withNullString(String nullString) {
            return new Options(header, delimiter, quote, nullString, sampleRows);
        }

        public Options withSampleRows(int sampleRows) {
            return new Options(header, delimiter, quote, nullString, sampleRows);
        }
    }

    private final CsvRecordReader reader;
    private final String source;
    private final Options options;
    private final byte[] nullBytes;
    private final FieldParser parser = new FieldParser();
    /** Column names for error messages, once the target schema is known. */
    private String[] columnNames;

    private CsvLoader(InputStream in, String source, Options options) {
        this.reader = new CsvRecordReader(in, source, options.delimiter(), options.quote());
        this.source = source;
        this.options = options;
        this.nullBytes = options.nullString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Loads {@code file} into table {@code tableName}: into the existing table if there is one, else into a new table
     * with {@code schema}, or with an inferred schema when {@code schema} is null. Returns the number of rows added.
     */
    public static long load(Catalog catalog, String tableName, Path file, Options options, TableSchema schema,
            ProgressListener progress) throws IOException {
        try (InputStream in = open(file)) {
            long size = Files.isRegularFile(file) ? Files.size(file) : -1;
            return new CsvLoader(in, file.toString(), options).load(catalog, tableName, schema, size, progress);
        }
    }

    /** As {@link #load(Catalog, String, Path, Options, TableSchema, ProgressListener)}, from characters. */
    public static long load(Catalog catalog, String tableName, Reader reader, String sourceName, Options options,
            TableSchema schema) throws IOException {
        try (InputStream in = new ReaderInputStream(reader)) {
            return new CsvLoader(in, sourceName, options).load(catalog, tableName, schema, -1, ProgressListener.NONE);
        }
    }

    /** The schema {@link #load} would infer for {@code file}. */
    public static TableSchema inferSchema(Path file, Options options) throws IOException {
        try (InputStream in = open(file)) {
            CsvLoader loader = new CsvLoader(in, file.toString(), options);
            return loader.inferSchema(loader.readHeader());
        }
    }

    /** As {@link #inferSchema(Path, Options)}, from characters. */
    public static TableSchema inferSchema(Reader reader, String sourceName, Options options) throws IOException {
        try (InputStream in = new ReaderInputStream(reader)) {
            CsvLoader loader = new CsvLoader(in, sourceName, options);
            return loader.inferSchema(loader.readHeader());
        }
    }

    private static InputStream open(Path file) throws IOException {
        try {
            return Files.newInputStream(file);
        } catch (NoSuchFileException e) {
            throw new FerryException(UNDEFINED_FILE, "file " + file + " does not exist; check the path (a relative "
                    + "path starts from the directory Ferry runs in)", e);
        }
    }

    private long load(Catalog catalog, String tableName, TableSchema schema, long totalBytes,
            ProgressListener progress) throws IOException {
        String[] header = readHeader();
        Table table = catalog.get(tableName);
        boolean inferred = false;
        TableSchema target;
        if (table != null) {
            target = table.schema();
            if (schema != null && !schema.types().equals(target.types())) {
                throw new FerryException(SqlStates.DATATYPE_MISMATCH, "table '" + table.name() + "' exists with "
                        + "column types " + target.types() + ", not " + schema.types() + "; load it without a schema "
                        + "or into a new table");
            }
        } else if (schema != null) {
            target = schema;
        } else {
            target = inferSchema(header);
            inferred = true;
        }
        if (header != null && header.length != target.size()) {
            throw new FerryException(SqlStates.BAD_COPY_FILE_FORMAT, source + ", line 1: the header has "
                    + header.length + " fields but the table has " + target.size() + " columns; check the delimiter ('"
                    + options.delimiter() + "') or the table");
        }
        boolean typesInferred = inferred;
        progress.start("load " + (table == null ? Catalog.normalize(tableName) : table.name()), totalBytes,
                ProgressListener.Unit.BYTES);
        try {
            return StagedAppend.run(catalog, table, tableName, target,
                    appender -> readRows(target, typesInferred, appender, progress));
        } finally {
            progress.finish();
        }
    }

    /** The header's fields, or null without a header option (or for an empty input). */
    private String[] readHeader() throws IOException {
        if (!options.header() || !reader.next()) {
            return null;
        }
        String[] names = new String[reader.fieldCount()];
        for (int i = 0; i < names.length; i++) {
            names[i] = new String(reader.array(i), reader.start(i), reader.length(i), StandardCharsets.UTF_8);
        }
        return names;
    }

    private long readRows(TableSchema schema, boolean inferred, TableAppender appender, ProgressListener progress)
            throws IOException {
        int columns = schema.size();
        TypeKind[] kinds = new TypeKind[columns];
        columnNames = new String[columns];
        for (int c = 0; c < columns; c++) {
            kinds[c] = schema.type(c).kind();
            columnNames[c] = schema.column(c).name();
        }
        BatchBuilder batch = new BatchBuilder(schema, Vector.MAX_ROWS);
        long rows = 0;
        while (reader.next()) {
            int fields = reader.fieldCount();
            if (isBlankLine() && columns > 1) {
                continue;
            }
            if (fields != columns) {
                throw fieldCountError(columns, fields);
            }
            for (int c = 0; c < columns; c++) {
                convert(schema, kinds, c, batch, inferred);
            }
            batch.endRow();
            rows++;
            if (batch.isFull()) {
                appender.append(batch.build());
                progress.update(reader.bytesRead());
            }
        }
        if (batch.rows() > 0) {
            appender.append(batch.build());
        }
        progress.update(reader.bytesRead());
        return rows;
    }

    private boolean isBlankLine() {
        return reader.fieldCount() == 1 && reader.length(0) == 0 && !reader.quoted(0);
    }

    /** Parses field {@code c} of the current record into the batch's column {@code c}. */
    private void convert(TableSchema schema, TypeKind[] kinds, int c, BatchBuilder batch, boolean inferred) {
        byte[] b = reader.array(c);
        int from = reader.start(c);
        int len = reader.length(c);
        TypeKind kind = kinds[c];
        if ((!reader.quoted(c) && isNullText(b, from, len)) || (kind != TypeKind.VARCHAR
                && FieldParser.isBlank(b, from, len))) {
            if (!schema.column(c).nullable()) {
                throw error(SqlStates.NOT_NULL_VIOLATION, c, "is NULL, but the column is NOT NULL; give it a value "
                        + "or load into a table where the column allows NULL", false);
            }
            batch.setNull(c);
            return;
        }
        int status;
        switch (kind) {
            case VARCHAR -> {
                checkText(schema.type(c), b, from, len, c);
                batch.appendBytes(c, b, from, len);
                status = FieldParser.OK;
            }
            case BIGINT -> {
                status = parser.parseLong(b, from, len);
                batch.setLong(c, parser.value);
            }
            case INTEGER -> {
                status = parser.parseLong(b, from, len);
                if (status == FieldParser.OK && parser.value != (int) parser.value) {
                    status = FieldParser.RANGE;
                }
                batch.setLong(c, parser.value);
            }
            case DOUBLE -> {
                status = parser.parseDouble(b, from, len);
                batch.setDouble(c, parser.doubleValue);
            }
            case DECIMAL -> {
                FerryType type = schema.type(c);
                if (type.isWideDecimal()) {
                    status = parser.parseWideDecimal(b, from, len, type.precision(), type.scale());
                    batch.appendBytes(c, status == FieldParser.OK ? parser.wide : new byte[WideDecimal.BYTES]);
                } else {
                    status = parser.parseDecimal(b, from, len, type.precision(), type.scale());
                    batch.setLong(c, parser.value);
                }
            }
            case DATE -> {
                status = parser.parseDate(b, from, len);
                batch.setLong(c, parser.value);
            }
            case TIMESTAMP -> {
                status = parser.parseTimestamp(b, from, len);
                batch.setLong(c, parser.value);
            }
            case BOOLEAN -> {
                status = parser.parseBoolean(b, from, len);
                batch.setLong(c, parser.value);
            }
            default -> throw new IllegalStateException("no CSV conversion for " + kind);
        }
        if (status != FieldParser.OK) {
            throw valueError(schema.type(c), c, status, inferred);
        }
    }

    private boolean isNullText(byte[] b, int from, int len) {
        if (len != nullBytes.length) {
            return false;
        }
        for (int i = 0; i < len; i++) {
            if (b[from + i] != nullBytes[i]) {
                return false;
            }
        }
        return true;
    }

    /** Checks UTF-8 well-formedness and VARCHAR(n)'s length in characters (code points). */
    private void checkText(FerryType type, byte[] b, int from, int len, int column) {
        long chars = Utf8Text.characters(b, from, from + len);
        if (chars < 0) {
            int at = (int) (-1 - chars);
            throw error(INVALID_ENCODING, column, "is not valid UTF-8 (byte 0x" + Integer.toHexString(b[from + at]
                    & 0xff) + " at offset " + at + "); save the file as UTF-8", true);
        }
        if (type.precision() > 0 && chars > type.precision()) {
            throw error(SqlStates.STRING_DATA_RIGHT_TRUNCATION, column, "has " + chars + " characters, more than "
                    + type.sqlName() + " allows; shorten it or widen the column", true);
        }
    }

    private TableSchema inferSchema(String[] header) throws IOException {
        reader.mark();
        int width = header == null ? -1 : header.length;
        Inferred[] inferred = null;
        int sampled = 0;
        while (sampled < options.sampleRows() && reader.next()) {
            if (isBlankLine() && width != 1) {
                continue;
            }
            if (width < 0) {
                width = reader.fieldCount();
            }
            if (reader.fieldCount() != width) {
                throw fieldCountError(width, reader.fieldCount());
            }
            if (inferred == null) {
                inferred = new Inferred[width];
                Arrays.fill(inferred, Inferred.NONE);
            }
            for (int c = 0; c < width; c++) {
                inferred[c] = inferred[c].widen(classify(c));
            }
            sampled++;
        }
        reader.reset();
        if (width < 0) {
            throw new FerryException(SqlStates.BAD_COPY_FILE_FORMAT, source + " is empty, so there is nothing to infer "
                    + "the table's columns from; give the schema explicitly");
        }
        List<Column> columns = new ArrayList<>(width);
        List<String> names = ColumnNames.of(header == null ? Arrays.asList(new String[width]) : List.of(header));
        for (int c = 0; c < width; c++) {
            columns.add(new Column(names.get(c), inferred == null ? FerryType.VARCHAR : inferred[c].type(), true));
        }
        return new TableSchema(columns);
    }

    /** The inference lattice: NONE below all; BIGINT below DOUBLE; DATE below TIMESTAMP; VARCHAR above all. */
    private enum Inferred {
        NONE, BIGINT, DOUBLE, DATE, TIMESTAMP, BOOLEAN, VARCHAR;

        Inferred widen(Inferred other) {
            if (this == other || other == NONE) {
                return this;
            }
            if (this == NONE) {
                return other;
            }
            if ((this == BIGINT && other == DOUBLE) || (this == DOUBLE && other == BIGINT)) {
                return DOUBLE;
            }
            if ((this == DATE && other == TIMESTAMP) || (this == TIMESTAMP && other == DATE)) {
                return TIMESTAMP;
            }
            return VARCHAR;
        }

        FerryType type() {
            return switch (this) {
                case BIGINT -> FerryType.BIGINT;
                case DOUBLE -> FerryType.DOUBLE;
                case DATE -> FerryType.DATE;
                case TIMESTAMP -> FerryType.TIMESTAMP;
                case BOOLEAN -> FerryType.BOOLEAN;
                default -> FerryType.VARCHAR;
            };
        }
    }

    private Inferred classify(int c) {
        byte[] b = reader.array(c);
        int from = reader.start(c);
        int len = reader.length(c);
        if ((!reader.quoted(c) && isNullText(b, from, len)) || FieldParser.isBlank(b, from, len)) {
            return Inferred.NONE;
        }
        if (parser.parseLong(b, from, len) == FieldParser.OK) {
            return Inferred.BIGINT;
        }
        if (parser.parseDouble(b, from, len) == FieldParser.OK) {
            return Inferred.DOUBLE;
        }
        if (parser.parseDate(b, from, len) == FieldParser.OK) {
            return Inferred.DATE;
        }
        if (parser.hasTime(b, from, len) && parser.parseTimestamp(b, from, len) == FieldParser.OK) {
            return Inferred.TIMESTAMP;
        }
        if (parser.isBooleanWord(b, from, len)) {
            return Inferred.BOOLEAN;
        }
        return Inferred.VARCHAR;
    }

    private FerryException fieldCountError(int expected, int found) {
        return new FerryException(SqlStates.BAD_COPY_FILE_FORMAT, source + ", line " + reader.recordLine()
                + ": expected " + expected + " fields but found " + found + "; check the delimiter ('"
                + options.delimiter() + "') and that fields containing it are quoted. No rows were loaded.");
    }

    private FerryException valueError(FerryType type, int column, int status, boolean inferred) {
        String hint = inferred ? " (the type was inferred from the first " + options.sampleRows()
                + " rows; give the schema explicitly to override it)" : "";
        return switch (type.kind()) {
            case DATE -> error(SqlStates.INVALID_DATETIME_FORMAT, column, "is not a valid DATE (expected yyyy-mm-dd "
                    + "with a real month and day); fix the value" + hint, true);
            case TIMESTAMP -> error(SqlStates.INVALID_DATETIME_FORMAT, column, "is not a valid TIMESTAMP (expected "
                    + "yyyy-mm-dd hh:mm:ss[.fff]); fix the value" + hint, true);
            default -> status == FieldParser.RANGE
                    ? error(SqlStates.NUMERIC_OUT_OF_RANGE, column, "is out of range for " + type.sqlName()
                            + "; give the column a wider type (BIGINT, DOUBLE or DECIMAL)" + hint, true)
                    : error(SqlStates.INVALID_CHARACTER_VALUE_FOR_CAST, column, "is not a valid " + type.sqlName()
                            + "; fix the value or give the column another type (for example VARCHAR)" + hint, true);
        };
    }

    /** "source, line L, column 'name' (field k): value 'v' {what}. No rows were loaded." */
    private FerryException error(String sqlState, int column, String what, boolean showValue) {
        String value = "";
        if (showValue) {
            String text = new String(reader.array(column), reader.start(column), reader.length(column),
                    StandardCharsets.UTF_8);
            if (text.length() > MAX_SHOWN_VALUE) {
                text = text.substring(0, MAX_SHOWN_VALUE) + "...";
            }
            value = " '" + text + "'";
        }
        String name = columnNames == null ? "" : "column '" + columnNames[column] + "' ";
        return new FerryException(sqlState, source + ", line " + reader.recordLine() + ", " + name + "(field "
                + (column + 1) + "): value" + value + " " + what + ". No rows were loaded.");
    }
}
