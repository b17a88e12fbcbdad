package io.ferry.server.runtime;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.ferry.core.storage.Table;

/** The most recent units of work of the cluster's queries and how each ran: what {@code sys.fragments} lists. */
final class FragmentLog {
    /** Units sys.fragments keeps. */
    private static final int KEPT = 1000;

    private final Deque<FragmentRecord> recent = new ArrayDeque<>();
    /** The statement (sys.queries) each recent query ran for; the oldest forgotten first. */
    private final Map<Long, Long> statements = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Long> eldest) {
            return size() > KEPT;
        }
    };

    /** Query {@code queryId} runs for statement {@code statementId} of sys.queries (0: none). */
    void started(long queryId, long statementId) {
        synchronized (statements) {
            statements.put(queryId, statementId);
        }
    }

    /** The statement query {@code queryId} ran for, or 0. */
    long statementOf(long queryId) {
        synchronized (statements) {
            return statements.getOrDefault(queryId, 0L);
        }
    }

    /** Unit {@code u} of query {@code queryId}, run in {@code mode} (function or data). */
    void unit(long queryId, Table table, Unit u, String mode, long resultBytes, double elapsed, double cpu) {
        boolean compressed = "function".equals(mode) && u.compress;
        add(new FragmentRecord(queryId, statementOf(queryId), table.name(), u.node(), mode, u.reason, u.rows, u.bytes, resultBytes,
                compressed, u.costs == null ? Double.NaN : u.costs.functionShipping() * 1e3,
                u.costs == null ? Double.NaN : u.costs.dataShipping() * 1e3, elapsed, cpu));
    }

    void add(FragmentRecord r) {
        synchronized (recent) {
            recent.addLast(r);
            while (recent.size() > KEPT) {
                recent.removeFirst();
            }
        }
    }

    /** Oldest first. */
    List<FragmentRecord> recent() {
        synchronized (recent) {
            return List.copyOf(recent);
        }
    }
}
