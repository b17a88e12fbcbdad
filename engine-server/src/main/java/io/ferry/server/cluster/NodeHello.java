package io.ferry.server.cluster;

import io.ferry.fabric.NodeAddress;
import io.ferry.fabric.RegionDescriptor;
import io.ferry.server.cluster.control.WireReader;
import io.ferry.server.cluster.control.WireWriter;

/**
 * How a node introduces itself to the coordinator.
 *
 * @param name        the node's name (unique in the cluster; a node that restarts under its name rejoins)
 * @param incarnation random per process start: a rejoin with a new one means the node lost its memory
 * @param fabric      where the node's fabric endpoint listens, and which provider it runs
 * @param threads     cores the node may use
 * @param memory      bytes of block memory it offers (0 for compute servers)
 * @param rates       its measured execution rates
 * @param probe       a small registered region the coordinator reads to measure the link
 */
public record NodeHello(String name, Role role, String incarnation, NodeAddress fabric, String provider, int threads,
        long memory, Calibration rates, RegionDescriptor probe) {
    public WireWriter encode() {
        WireWriter w = new WireWriter().writeString(name).writeByte(role.ordinal()).writeString(incarnation)
                .writeAddress(fabric).writeString(provider).writeInt(threads).writeLong(memory);
        rates.encode(w);
        return w.writeDescriptor(probe);
    }

    public static NodeHello decode(WireReader r) {
        NodeHello h = new NodeHello(r.readString(), Role.decode(r.readByte()), r.readString(), r.readAddress(),
                r.readString(), r.readInt(), r.readLong(), Calibration.decode(r), r.readDescriptor());
        r.end();
        return h;
    }
}
