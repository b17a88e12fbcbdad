package io.ferry.it;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.CompletableFuture;

/** A query run on another thread, for tests that stop it from this one. */
final class QueryInBackground {
    /** A query, as a statement or a prepared statement runs it. */
    interface Query {
        ResultSet run() throws SQLException;
    }

    private QueryInBackground() {
    }

    /** Runs {@code query} and closes its result; the future holds the error it ended with, or null. */
    static CompletableFuture<SQLException> start(Query query) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                query.run().close();
                return null;
            } catch (SQLException e) {
                return e;
            }
        });
    }
}
