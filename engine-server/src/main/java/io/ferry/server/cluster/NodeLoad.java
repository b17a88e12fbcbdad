package io.ferry.server.cluster;

import io.ferry.server.cluster.control.WireReader;
import io.ferry.server.cluster.control.WireWriter;

/**
 * A heartbeat's load report.
 *
 * @param systemCpu   CPU utilization of the cores the node may run on (its affinity mask; on other systems than Linux
 *                    the machine's), 0..1
 * @param processCpu  this process's share of those cores, 0..1
 * @param cpuNanos    CPU time this process has used since it started (shows that data shipping leaves it idle)
 * @param running     fragments the node is running
 * @param busyFraction share of the last interval during which it ran at least one fragment
 * @param usedMemory  bytes of block memory allocated
 * @param freeMemory  bytes of block memory still available
 * @param machineCores the cores the node may run on (what {@code systemCpu} is a share of)
 * @param regions     fabric regions registered on the node: its blocks' and its queries' while they run
 */
public record NodeLoad(double systemCpu, double processCpu, long cpuNanos, int running, double busyFraction,
        long usedMemory, long freeMemory, int machineCores, int regions) {
    public static final NodeLoad NONE = new NodeLoad(0, 0, 0, 0, 0, 0, 0, 1, 0);

    public WireWriter encode() {
        return new WireWriter().writeDouble(systemCpu).writeDouble(processCpu).writeLong(cpuNanos).writeInt(running)
                .writeDouble(busyFraction).writeLong(usedMemory).writeLong(freeMemory).writeInt(machineCores)
                .writeInt(regions);
    }

    public static NodeLoad decode(WireReader r) {
        NodeLoad l = new NodeLoad(r.readDouble(), r.readDouble(), r.readLong(), r.readInt(), r.readDouble(),
                r.readLong(), r.readLong(), Math.max(1, r.readInt()), r.readInt());
        r.end();
        return l;
    }

    /** Of the node's cores, how many are busy with work other than its own: other processes on a shared host. */
    public double otherCores() {
        return Math.max(0, systemCpu - processCpu) * machineCores;
    }

    /** Below this share of an interval spent running fragments, the cores a node got say little about contention. */
    static final double MEASURING_BUSY = 0.2;

    /**
     * The cores this node can give a fragment, as this heartbeat saw it (at most {@code threads}): when it ran
     * fragments for a good part of the interval, the cores it actually got while it did — its CPU time over its busy
     * time, whatever the scheduler did to share its cores with others; when it was mostly idle, its fair share
     * beside the cores the other processes kept busy ({@link #fairShare}).
     */
    double coresFor(int threads) {
        if (busyFraction >= MEASURING_BUSY) {
            return Math.max(0.1, Math.min(threads, processCpu * machineCores / busyFraction));
        }
        return fairShare(threads, machineCores, otherCores());
    }

    /**
     * Cores {@code threads} runnable threads get on {@code cores} cores of which {@code others} are busy with other
     * work: all they want if enough cores are idle, else the scheduler's fair share (one thread beside one busy
     * process gets half a core, not none). Never below 0.1: a fragment still makes progress.
     */
    static double fairShare(int threads, int cores, double others) {
        double idle = cores - others;
        double share = cores * threads / (threads + others);
        return Math.max(0.1, Math.min(threads, Math.max(idle, share)));
    }
}
