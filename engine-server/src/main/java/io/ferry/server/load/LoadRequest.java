package io.ferry.server.load;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What {@code POST /ferry/load} asks the server to do: load the CSV or Parquet file at {@code path} — a path on the
 * server's machine, read by the server — into {@code table}. The CSV settings do not apply to Parquet.
 *
 * @param table      the table to load into
 * @param path       absolute path of the CSV file on the server
 * @param header     whether the first line names the columns (default true)
 * @param delimiter  the field delimiter, one ASCII character (default comma)
 * @param quote      the quote character, one ASCII character (default double quote)
 * @param nullString the unquoted text that means NULL (default: the empty field)
 * @param create     create the table (inferring its columns unless {@code schema} is given); without it the table
 *                   must exist
 * @param schema     column definitions for the new table, as in CREATE TABLE: {@code "a BIGINT, b VARCHAR"};
 *                   implies {@code create}
 * @param format     {@code csv} or {@code parquet}; by default parquet for a path ending in {@code .parquet}, else csv
 * @param binaryAsString Parquet: read BINARY columns without a STRING annotation as VARCHAR
 * @param partitionBy    partition the created table: {@code [column=]domain:parts, ...} (needs {@code create})
 * @param placement      where a cluster places the partitions: {@code nam} (default) or {@code partition}
 * @param generate       instead of a file, a workload the server generates: {@code skew:rows=N,...} makes the
 *                       I-Store skew paper's tables a, b, c and d ({@code SkewWorkload.Spec}); table and path are
 *                       then not used
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LoadRequest(
        @JsonProperty("table") String table,
        @JsonProperty("path") String path,
        @JsonProperty("header") Boolean header,
        @JsonProperty("delimiter") String delimiter,
        @JsonProperty("quote") String quote,
        @JsonProperty("null") String nullString,
        @JsonProperty("create") Boolean create,
        @JsonProperty("schema") String schema,
        @JsonProperty("format") String format,
        @JsonProperty("binary_as_string") Boolean binaryAsString,
        @JsonProperty("partition_by") String partitionBy,
        @JsonProperty("placement") String placement,
        @JsonProperty("generate") String generate) {

    /** Loads {@code path} into the existing {@code table}, with a header line and commas. */
    public static LoadRequest of(String table, String path) {
        return new LoadRequest(table, path, true, ",", "\"", "", false, null, null, null, null, null, null);
    }

    public LoadRequest withHeader(boolean header) {
        return new LoadRequest(table, path, header, delimiter, quote, nullString, create,
                schema, format, binaryAsString, partitionBy, placement, generate);
    }

    public LoadRequest withDelimiter(char delimiter) {
        return new LoadRequest(table, path, header, String.valueOf(delimiter), quote, nullString, create,
                schema, format, binaryAsString, partitionBy, placement, generate);
    }

    public LoadRequest withNullString(String nullString) {
        return new LoadRequest(table, path, header, delimiter, quote, nullString, create,
                schema, format, binaryAsString, partitionBy, placement, generate);
    }

    public LoadRequest withCreate(boolean create) {
        return new LoadRequest(table, path, header, delimiter, quote, nullString, create,
                schema, format, binaryAsString, partitionBy, placement, generate);
    }

    public LoadRequest withFormat(String format) {
        return new LoadRequest(table, path, header, delimiter, quote, nullString, create,
                schema, format, binaryAsString, partitionBy, placement, generate);
    }

    public LoadRequest withBinaryAsString(boolean binaryAsString) {
        return new LoadRequest(table, path, header, delimiter, quote, nullString, create,
                schema, format, binaryAsString, partitionBy, placement, generate);
    }

    public LoadRequest withPartitioning(String partitionBy, String placement) {
        return new LoadRequest(table, path, header, delimiter, quote, nullString, create, schema, format,
                binaryAsString, partitionBy, placement, generate);
    }

    /** Generates {@code workload} on the server instead of loading a file. */
    public static LoadRequest generating(String workload) {
        return new LoadRequest(null, null, null, null, null, null, null, null, null, null, null, null, workload);
    }

    /** What the load reads, for logs: the file, or the workload generated. */
    @JsonIgnore
    public String source() {
        return generate != null ? "generated " + generate : path;
    }

    /** What the load fills, for logs and the client: the table, or a generated workload's tables. */
    @JsonIgnore
    public String target() {
        return generate != null ? "the tables of " + generate : table;
    }

    /** Whether the file is Parquet: so declared, or, with no format given, named {@code *.parquet}. */
    @JsonIgnore
    public boolean isParquet() {
        if (format == null || format.isBlank()) {
            return path != null && path.toLowerCase(java.util.Locale.ROOT).endsWith(".parquet");
        }
        return format.equalsIgnoreCase("parquet");
    }

    public LoadRequest withSchema(String schema) {
        return new LoadRequest(table, path, header, delimiter, quote, nullString, create,
                schema, format, binaryAsString, partitionBy, placement, generate);
    }
}
