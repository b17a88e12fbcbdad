package io.ferry.server.runtime;

/** A unit of work at a gather (or a stage of a shuffle join on one node) and how it ran: a row of sys.fragments. */
public record FragmentRecord(long queryId, long statementId, String table, String node, String mode, String reason, long rows,
        long bytes, long resultBytes, boolean compressed, double fsMillis, double dsMillis, double elapsedMillis,
        double nodeCpuMillis) {
}
