package io.ferry.server.runtime;

import java.util.ArrayList;
import java.util.List;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;

import io.ferry.fabric.RegionDescriptor;
import io.ferry.server.cluster.control.WireReader;
import io.ferry.server.cluster.control.WireWriter;
import io.ferry.sql.SessionSettings;

/**
 * Function shipping's request (ship-or-not section II-A): run {@code plan} on the listed blocks and write the result
 * (Arrow IPC, LZ4 if {@code compress}) into {@code result}, a region the coordinator registered.
 *
 * @param queryId    the query the fragment is part of
 * @param fragmentId which of the query's fragments this is: a node may run several of one query at once (a compute
 *                   server gets one per memory server), and holds, returns or cancels each by (query, fragment)
 * @param plan      the encoded fragment
 * @param scans     per scan of the fragment (in {@code PlanCodec.scans} order), the blocks it reads
 * @param timeoutMillis how long the fragment may run (0: no limit)
 * @param prefetch  reads each of the fragment's block streams keeps in flight ({@code SET prefetch})
 * @param splitBy   for a stage of a shuffle join ({@code parts > 0}): the columns whose hash picks each row's part
 * @param parts     for a stage of a shuffle join: how many parts its rows are split into and held on the node (then
 *                  {@code result} is not written); 0 for a fragment whose result goes to the coordinator
 * @param stealing  for a fragment whose divided scan shares its work through queues ({@code SET steal = 'on'}): which
 *                  scan, the queues, and which is this node's; null otherwise (the scan reads its listed blocks)
 */
public record FragmentRequest(long queryId, int fragmentId, byte[] plan, List<List<BlockLocation>> scans,
        RegionDescriptor result, boolean compress, long timeoutMillis, int prefetch, int[] splitBy, int parts,
        Stealing stealing) {
    /** A fragment whose result is written to the coordinator. */
    public FragmentRequest(long queryId, int fragmentId, byte[] plan, List<List<BlockLocation>> scans,
            RegionDescriptor result, boolean compress, long timeoutMillis, int prefetch) {
        this(queryId, fragmentId, plan, scans, result, compress, timeoutMillis, prefetch, new int[0], 0, null);
    }

    /**
     * How a fragment's divided scan shares its work: its blocks (in {@code scans}) are the elements of {@code queues},
     * and the node drains queue {@code own} first, then steals ({@link WorkQueues}).
     */
    public record Stealing(int scan, List<WorkQueues.Queue> queues, int own) {
    }

    public WireWriter encode() {
        WireWriter w = new WireWriter().writeLong(queryId).writeInt(fragmentId).writeBytes(plan)
                .writeInt(scans.size());
        for (List<BlockLocation> blocks : scans) {
            w.writeInt(blocks.size());
            for (BlockLocation b : blocks) {
                b.encode(w);
            }
        }
        w.writeDescriptor(result).writeBoolean(compress).writeLong(timeoutMillis).writeInt(prefetch)
                .writeInt(splitBy.length);
        for (int k : splitBy) {
            w.writeInt(k);
        }
        w.writeInt(parts).writeBoolean(stealing != null);
        if (stealing != null) {
            w.writeInt(stealing.scan());
            WorkQueues.encode(w, stealing.queues(), stealing.own());
        }
        return w;
    }

    public static FragmentRequest decode(WireReader r) {
        long queryId = r.readLong();
        int fragmentId = r.readInt();
        byte[] plan = r.readBytes();
        int scanCount = r.readCount(4);
        List<List<BlockLocation>> scans = new ArrayList<>(scanCount);
        for (int s = 0; s < scanCount; s++) {
            int n = r.readCount(32);
            List<BlockLocation> blocks = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                blocks.add(BlockLocation.decode(r));
            }
            scans.add(blocks);
        }
        RegionDescriptor result = r.readDescriptor();
        boolean compress = r.readBoolean();
        long timeoutMillis = r.readLong();
        int prefetch = Math.max(1, Math.min(SessionSettings.MAX_PREFETCH, r.readInt()));
        int[] splitBy = new int[r.readCount(4)];
        for (int i = 0; i < splitBy.length; i++) {
            splitBy[i] = r.readInt();
        }
        int parts = r.readInt();
        Stealing stealing = null;
        if (r.readBoolean()) {
            int scan = r.readInt();
            List<WorkQueues.Queue> queues = WorkQueues.decodeQueues(r);
            int own = r.readInt();
            if (scan < 0 || scan >= scans.size() || own < -1 || own >= queues.size()) {
                throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "a fragment request's work queues "
                        + "name scan " + scan + " of " + scans.size() + " and queue " + own + " of " + queues.size());
            }
            for (WorkQueues.Queue q : queues) {
                for (int e : q.elements()) {
                    if (e < 0 || e >= scans.get(scan).size()) {
                        throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "a work queue lists block " + e
                                + " of a scan of " + scans.get(scan).size());
                    }
                }
            }
            stealing = new Stealing(scan, queues, own);
        }
        FragmentRequest f = new FragmentRequest(queryId, fragmentId, plan, scans, result, compress, timeoutMillis,
                prefetch, splitBy, parts, stealing);
        r.end();
        return f;
    }

    /**
     * What the node answers.
     *
     * @param resultBytes the encoded result's size
     * @param written     whether it fit the coordinator's region and was written; if not, the node holds it until
     *                    the coordinator sends a larger region ({@code WRITE_RESULT}) or cancels
     * @param cpuNanos    CPU time the node's process spent while running the fragment
     * @param claimed     under stealing, the blocks of the divided scan the node ran (by index), else empty
     * @param stolen      how many of them it took from other nodes' queues
     */
    public record Reply(int resultBytes, boolean written, long rows, long cpuNanos, long wallNanos, int[] claimed,
            int stolen) {
        public Reply(int resultBytes, boolean written, long rows, long cpuNanos, long wallNanos) {
            this(resultBytes, written, rows, cpuNanos, wallNanos, new int[0], 0);
        }

        public WireWriter encode() {
            WireWriter w = new WireWriter().writeInt(resultBytes).writeBoolean(written).writeLong(rows)
                    .writeLong(cpuNanos).writeLong(wallNanos).writeInt(claimed.length);
            for (int c : claimed) {
                w.writeInt(c);
            }
            return w.writeInt(stolen);
        }

        public static Reply decode(WireReader r) {
            int resultBytes = r.readInt();
            boolean written = r.readBoolean();
            long rows = r.readLong();
            long cpu = r.readLong();
            long wall = r.readLong();
            int[] claimed = new int[r.readCount(4)];
            for (int i = 0; i < claimed.length; i++) {
                claimed[i] = r.readInt();
            }
            Reply reply = new Reply(resultBytes, written, rows, cpu, wall, claimed, r.readInt());
            r.end();
            return reply;
        }
    }
}
