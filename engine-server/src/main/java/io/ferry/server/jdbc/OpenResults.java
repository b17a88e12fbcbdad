package io.ferry.server.jdbc;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiPredicate;

/**
 * The results the JDBC server has served in part, with when their client last fetched from them, and those it
 * abandoned. A result its client has fetched none of for the client timeout is abandoned, as Trino abandons a query
 * whose client stopped polling: {@link FerryMeta} then stops its query and closes its result set, which frees the
 * memory it holds. The statement stays, so the client's next fetch gets 57014 rather than a re-run of the query
 * (Avatica's client re-executes a statement the server no longer knows).
 */
final class OpenResults {
    /** A statement whose result has more rows for its client. */
    record Open(String connectionId, int statementId, long fetchedNanos) {
    }

    private final Duration clientTimeout;
    private final Map<String, Open> open = new ConcurrentHashMap<>();
    private final Set<String> abandoned = ConcurrentHashMap.newKeySet();

    OpenResults(Duration clientTimeout) {
        this.clientTimeout = requireNonNull(clientTimeout, "clientTimeout is null");
    }

    Duration clientTimeout() {
        return clientTimeout;
    }

    /** Statement {@code statementId} served rows (or a new result); {@code more}: its client has more to fetch. */
    void served(String connectionId, int statementId, boolean more) {
        String key = key(connectionId, statementId);
        abandoned.remove(key);
        if (more) {
            open.put(key, new Open(connectionId, statementId, System.nanoTime()));
        } else {
            open.remove(key);
        }
    }

    /** Whether the statement's result was abandoned since it last served one. */
    boolean abandoned(String connectionId, int statementId) {
        return abandoned.contains(key(connectionId, statementId));
    }

    /**
     * The results whose client has fetched nothing for the client timeout, except those {@code busy} says a request
     * is being served for; they are abandoned from now on.
     */
    List<Open> abandonIdle(BiPredicate<String, Integer> busy) {
        long now = System.nanoTime();
        List<Open> idle = new ArrayList<>();
        for (Map.Entry<String, Open> e : open.entrySet()) {
            Open r = e.getValue();
            if (now - r.fetchedNanos() >= clientTimeout.toNanos() && !busy.test(r.connectionId(), r.statementId())
                    && open.remove(e.getKey(), r)) {
                abandoned.add(e.getKey());
                idle.add(r);
            }
        }
        return idle;
    }

    /** The statement is closed. */
    void forget(String connectionId, int statementId) {
        open.remove(key(connectionId, statementId));
        abandoned.remove(key(connectionId, statementId));
    }

    /** The connection is closed. */
    void forget(String connectionId) {
        open.keySet().removeIf(k -> k.startsWith(connectionId + "/"));
        abandoned.removeIf(k -> k.startsWith(connectionId + "/"));
    }

    private static String key(String connectionId, int statementId) {
        return connectionId + "/" + statementId;
    }
}
