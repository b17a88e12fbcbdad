package io.ferry.server.load;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What {@code POST /ferry/load} asks the server to do: load the CSV file at {@code path} — a path on the server's
 * machine, read by the server — into {@code table}.
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
        @JsonProperty("schema") String schema) {

    /** Loads {@code path} into the existing {@code table}, with a header line and commas. */
    public static LoadRequest of(String table, String path) {
        return new LoadRequest(table, path, true, ",", "\"", "", false, null);
    }

    public LoadRequest withHeader(boolean header) {
        return new LoadRequest(table, path, header, delimiter, quote, nullString, create, schema);
    }

    public LoadRequest withDelimiter(char delimiter) {
        return new LoadRequest(table, path, header, String.valueOf(delimiter), quote, nullString, create, schema);
    }

    public LoadRequest withNullString(String nullString) {
        return new LoadRequest(table, path, header, delimiter, quote, nullString, create, schema);
    }

    public LoadRequest withCreate(boolean create) {
        return new LoadRequest(table, path, header, delimiter, quote, nullString, create, schema);
    }

    public LoadRequest withSchema(String schema) {
        return new LoadRequest(table, path, header, delimiter, quote, nullString, create, schema);
    }
}
