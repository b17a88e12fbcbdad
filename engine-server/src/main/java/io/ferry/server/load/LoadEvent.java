package io.ferry.server.load;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One line of the load endpoint's answer, which is newline-delimited JSON so that a client can show progress while
 * the load runs. A run of {@code start}, {@code progress}… and {@code finish} per task, ending in exactly one
 * {@code done} (the load committed) or {@code error} (nothing was loaded).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LoadEvent(
        @JsonProperty("event") String event,
        @JsonProperty("task") String task,
        @JsonProperty("total") Long total,
        @JsonProperty("unit") String unit,
        @JsonProperty("done") Long done,
        @JsonProperty("table") String table,
        @JsonProperty("rows") Long rows,
        @JsonProperty("millis") Long millis,
        @JsonProperty("sqlState") String sqlState,
        @JsonProperty("message") String message) {

    static final String START = "start";
    static final String PROGRESS = "progress";
    static final String FINISH = "finish";
    static final String DONE = "done";
    static final String ERROR = "error";

    static LoadEvent start(String task, long total, String unit) {
        return new LoadEvent(START, task, total, unit, null, null, null, null, null, null);
    }

    static LoadEvent progress(long done) {
        return new LoadEvent(PROGRESS, null, null, null, done, null, null, null, null, null);
    }

    static LoadEvent finish() {
        return new LoadEvent(FINISH, null, null, null, null, null, null, null, null, null);
    }

    static LoadEvent done(String table, long rows, long millis) {
        return new LoadEvent(DONE, null, null, null, null, table, rows, millis, null, null);
    }

    static LoadEvent error(String sqlState, String message) {
        return new LoadEvent(ERROR, null, null, null, null, null, null, null, sqlState, message);
    }
}
