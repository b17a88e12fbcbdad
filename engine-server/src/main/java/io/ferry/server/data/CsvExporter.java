package io.ferry.server.data;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.storage.Table;
import io.ferry.core.types.CivilCalendar;
import io.ferry.core.types.TableSchema;
import io.ferry.core.types.TypeKind;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;
import io.ferry.core.vector.WideDecimal;

/**
 * Writes rows as CSV in UTF-8: a header line with the column names, then one line per row. Quoting follows
 * RFC 4180: a field is quoted when it holds the delimiter, a double quote, CR or LF, and quotes inside are doubled.
 * NULL is an empty unquoted field; an empty string is {@code ""}, so the two survive a round trip through
 * {@link CsvLoader} (and through DuckDB's {@code read_csv} and PostgreSQL's {@code COPY ... CSV}). Lines end in LF
 * (RFC 4180 says CRLF; every reader we care about takes both).
 *
 * <p>Values: integers in decimal, DECIMAL with exactly its scale's digits, DATE as {@code yyyy-mm-dd}, TIMESTAMP as
 * {@code yyyy-mm-dd hh:mm:ss[.fff]}, BOOLEAN as {@code true}/{@code false}, DOUBLE in Java's shortest round-trip
 * form ({@code 1.0E10}, {@code NaN}, {@code Infinity}). Everything but DOUBLE is formatted straight into a byte
 * buffer without objects.
 *
 * <p>Either export a catalog table ({@link #export}) or {@link #open} a file and {@link #write} batches into it,
 * which is how the generators stream their output to disk without holding it in memory.
 */
public final class CsvExporter implements AutoCloseable {
    private static final byte QUOTE = '"';
    private static final byte[] TRUE = "true".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FALSE = "false".getBytes(StandardCharsets.US_ASCII);

    private final OutputStream out;
    private final byte delimiter;
    private final TypeKind[] kinds;
    private final int[] scales;
    private final byte[] buf = new byte[1 << 16];
    private final byte[] digits = new byte[20];
    private int pos;
    private long rows;

    /** Writes the header at once; the stream is closed by {@link #close()}. */
    public CsvExporter(OutputStream out, TableSchema schema, char delimiter) {
        this(out, schema, delimiter, true);
    }

    /** As above, with a header line only if {@code header}. */
    public CsvExporter(OutputStream out, TableSchema schema, char delimiter, boolean header) {
        this.out = requireNonNull(out, "out is null");
        requireNonNull(schema, "schema is null");
        if (delimiter > 127 || delimiter == '"' || delimiter == '\n' || delimiter == '\r') {
            throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "the CSV delimiter must be an ASCII "
                    + "character other than a double quote or a line break, got '" + delimiter + "'");
        }
        this.delimiter = (byte) delimiter;
        this.kinds = new TypeKind[schema.size()];
        this.scales = new int[schema.size()];
        for (int c = 0; c < kinds.length; c++) {
            kinds[c] = schema.type(c).kind();
            scales[c] = schema.type(c).scale();
        }
        if (!header) {
            return;
        }
        for (int c = 0; c < kinds.length; c++) {
            if (c > 0) {
                put(this.delimiter);
            }
            byte[] name = schema.column(c).name().getBytes(StandardCharsets.UTF_8);
            writeText(name, 0, name.length);
        }
        put((byte) '\n');
    }

    /** A comma-separated file at {@code file} (created or truncated). */
    public static CsvExporter open(Path file, TableSchema schema) throws IOException {
        return new CsvExporter(Files.newOutputStream(file), schema, ',');
    }

    /** Writes every committed row of {@code table} to {@code file}; returns the number of rows. */
    public static long export(Table table, Path file, ProgressListener progress) throws IOException {
        try (CsvExporter csv = open(file, table.schema())) {
            progress.start("export " + table.name(), table.rowCount(), ProgressListener.Unit.ROWS);
            try {
                table.forEachBatch(batch -> {
                    csv.write(batch);
                    progress.update(csv.rows());
                });
            } finally {
                progress.finish();
            }
            return csv.rows();
        }
    }

    /** Rows written so far. */
    public long rows() {
        return rows;
    }

    /** Appends the batch's rows; an I/O failure is thrown as {@link UncheckedIOException}. */
    public void write(Batch batch) {
        if (batch.columnCount() != kinds.length) {
            throw new IllegalArgumentException("batch has " + batch.columnCount() + " columns, the CSV has "
                    + kinds.length);
        }
        int n = batch.rowCount();
        Vector[] columns = batch.columns();
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < columns.length; c++) {
                if (c > 0) {
                    put(delimiter);
                }
                Vector v = columns[c];
                if (v.isNull(r)) {
                    continue;
                }
                switch (kinds[c]) {
                    case VARCHAR -> {
                        BytesVector bv = (BytesVector) v;
                        writeText(bv.data(), bv.start(r), bv.length(r));
                    }
                    case DOUBLE -> writeAscii(Double.toString(((DoubleVector) v).get(r)));
                    case BOOLEAN -> writeBytes(((LongVector) v).get(r) != 0 ? TRUE : FALSE);
                    case DECIMAL -> {
                        if (v instanceof BytesVector wide) {
                            writeAscii(WideDecimal.get(wide, r, scales[c]).toPlainString());
                        } else {
                            writeDecimal(((LongVector) v).get(r), scales[c]);
                        }
                    }
                    case DATE -> writeDate(((LongVector) v).get(r));
                    case TIMESTAMP -> writeTimestamp(((LongVector) v).get(r));
                    default -> writeLong(((LongVector) v).get(r));
                }
            }
            put((byte) '\n');
        }
        rows += n;
    }

    @Override
    public void close() throws IOException {
        try (out) {
            flush();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private void writeText(byte[] data, int from, int len) {
        boolean quote = len == 0;
        for (int i = from; i < from + len && !quote; i++) {
            byte b = data[i];
            quote = b == delimiter || b == QUOTE || b == '\n' || b == '\r';
        }
        if (!quote) {
            writeBytes(data, from, len);
            return;
        }
        put(QUOTE);
        int segment = from;
        for (int i = from; i < from + len; i++) {
            if (data[i] == QUOTE) {
                writeBytes(data, segment, i + 1 - segment);
                put(QUOTE);
                segment = i + 1;
            }
        }
        writeBytes(data, segment, from + len - segment);
        put(QUOTE);
    }

    private void writeDate(long epochDay) {
        long civil = CivilCalendar.civil(epochDay);
        writeYear(CivilCalendar.year(civil));
        put((byte) '-');
        writeTwoDigits(CivilCalendar.month(civil));
        put((byte) '-');
        writeTwoDigits(CivilCalendar.day(civil));
    }

    private void writeTimestamp(long epochMillis) {
        writeDate(Math.floorDiv(epochMillis, CivilCalendar.MILLIS_PER_DAY));
        int ms = (int) Math.floorMod(epochMillis, CivilCalendar.MILLIS_PER_DAY);
        put((byte) ' ');
        writeTwoDigits(ms / 3_600_000);
        put((byte) ':');
        writeTwoDigits(ms / 60_000 % 60);
        put((byte) ':');
        writeTwoDigits(ms / 1000 % 60);
        int millis = ms % 1000;
        if (millis != 0) {
            ensure(4);
            buf[pos++] = '.';
            buf[pos++] = (byte) ('0' + millis / 100);
            buf[pos++] = (byte) ('0' + millis / 10 % 10);
            buf[pos++] = (byte) ('0' + millis % 10);
        }
    }

    /** At least four digits (ISO 8601), with a sign outside 0-9999: {@code -0044}, {@code +10000}. */
    private void writeYear(long year) {
        if (year < 0 || year > 9999) {
            put((byte) (year < 0 ? '-' : '+'));
        }
        long abs = Math.abs(year);
        if (abs > 9999) {
            writeLong(abs);
            return;
        }
        ensure(4);
        buf[pos++] = (byte) ('0' + abs / 1000);
        buf[pos++] = (byte) ('0' + abs / 100 % 10);
        buf[pos++] = (byte) ('0' + abs / 10 % 10);
        buf[pos++] = (byte) ('0' + abs % 10);
    }

    private void writeTwoDigits(int v) {
        ensure(2);
        buf[pos++] = (byte) ('0' + v / 10);
        buf[pos++] = (byte) ('0' + v % 10);
    }

    /** Decimal digits of v; works on the negative value so that Long.MIN_VALUE needs no special case. */
    private void writeLong(long v) {
        long neg = v < 0 ? v : -v;
        int n = 0;
        do {
            digits[n++] = (byte) ('0' - neg % 10);
            neg /= 10;
        } while (neg != 0);
        ensure(n + 1);
        if (v < 0) {
            buf[pos++] = '-';
        }
        while (n > 0) {
            buf[pos++] = digits[--n];
        }
    }

    private void writeDecimal(long unscaled, int scale) {
        if (scale == 0) {
            writeLong(unscaled);
            return;
        }
        long neg = unscaled < 0 ? unscaled : -unscaled;
        int n = 0;
        do {
            digits[n++] = (byte) ('0' - neg % 10);
            neg /= 10;
        } while (neg != 0);
        while (n <= scale) {
            digits[n++] = '0';
        }
        ensure(n + 2);
        if (unscaled < 0) {
            buf[pos++] = '-';
        }
        while (n > scale) {
            buf[pos++] = digits[--n];
        }
        buf[pos++] = '.';
        while (n > 0) {
            buf[pos++] = digits[--n];
        }
    }

    private void writeAscii(String s) {
        int len = s.length();
        ensure(len);
        for (int i = 0; i < len; i++) {
            buf[pos++] = (byte) s.charAt(i);
        }
    }

    private void writeBytes(byte[] data) {
        writeBytes(data, 0, data.length);
    }

    private void writeBytes(byte[] data, int from, int len) {
        if (len > buf.length) {
            flush();
            try {
                out.write(data, from, len);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return;
        }
        ensure(len);
        System.arraycopy(data, from, buf, pos, len);
        pos += len;
    }

    private void put(byte b) {
        ensure(1);
        buf[pos++] = b;
    }

    private void ensure(int n) {
        if (pos + n > buf.length) {
            flush();
        }
    }

    private void flush() {
        try {
            out.write(buf, 0, pos);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        pos = 0;
    }
}
