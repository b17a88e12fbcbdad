package io.ferry.server.cluster;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.ferry.fabric.Fabric;
import io.ferry.fabric.NodeAddress;
import io.ferry.fabric.Peer;

/**
 * One fabric connection per other node, made on first use and shared by every query. A connection that broke is
 * replaced on the next use, so a node that restarts is reachable again without anyone restarting.
 */
public final class Peers implements AutoCloseable {
    private final Fabric fabric;
    private final Duration timeout;
    private final Map<NodeAddress, Peer> peers = new ConcurrentHashMap<>();

    public Peers(Fabric fabric, Duration timeout) {
        this.fabric = fabric;
        this.timeout = timeout;
    }

    public Fabric fabric() {
        return fabric;
    }

    public Peer get(NodeAddress node) {
        return peers.computeIfAbsent(node, n -> fabric.connect(n, timeout));
    }

    /** Drops the connection to {@code node} (it failed); the next {@link #get} connects anew. */
    public void forget(NodeAddress node) {
        Peer p = peers.remove(node);
        if (p != null) {
            p.close();
        }
    }

    @Override
    public void close() {
        for (NodeAddress n : peers.keySet()) {
            forget(n);
        }
    }
}
