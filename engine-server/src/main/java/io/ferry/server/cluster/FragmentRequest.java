package io.ferry.server.cluster;

import java.util.ArrayList;
import java.util.List;

import io.ferry.fabric.RegionDescriptor;
import io.ferry.server.cluster.control.WireReader;
import io.ferry.server.cluster.control.WireWriter;

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
 */
public record FragmentRequest(long queryId, int fragmentId, byte[] plan, List<List<BlockLocation>> scans,
        RegionDescriptor result, boolean compress, long timeoutMillis) {
    public WireWriter encode() {
        WireWriter w = new WireWriter().writeLong(queryId).writeInt(fragmentId).writeBytes(plan)
                .writeInt(scans.size());
        for (List<BlockLocation> blocks : scans) {
            w.writeInt(blocks.size());
            for (BlockLocation b : blocks) {
                b.encode(w);
            }
        }
        return w.writeDescriptor(result).writeBoolean(compress).writeLong(timeoutMillis);
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
        FragmentRequest f = new FragmentRequest(queryId, fragmentId, plan, scans, r.readDescriptor(), r.readBoolean(),
                r.readLong());
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
     */
    public record Reply(int resultBytes, boolean written, long rows, long cpuNanos, long wallNanos) {
        public WireWriter encode() {
            return new WireWriter().writeInt(resultBytes).writeBoolean(written).writeLong(rows).writeLong(cpuNanos)
                    .writeLong(wallNanos);
        }

        public static Reply decode(WireReader r) {
            Reply reply = new Reply(r.readInt(), r.readBoolean(), r.readLong(), r.readLong(), r.readLong());
            r.end();
            return reply;
        }
    }
}
