package io.ferry.fabric.rdma.verbs;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.apache.arrow.memory.ArrowBuf;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.ibm.disni.verbs.IbvMr;
import com.ibm.disni.verbs.IbvPd;
import com.ibm.disni.verbs.RdmaCm;
import com.ibm.disni.verbs.RdmaCmEvent;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.RdmaEventChannel;

import io.ferry.core.SqlStates;
import io.ferry.fabric.Fabric;
import io.ferry.fabric.FabricException;
import io.ferry.fabric.NodeAddress;
import io.ferry.fabric.Peer;
import io.ferry.fabric.Region;
import io.ferry.fabric.RegionDescriptor;

/**
 * The fabric over RDMA verbs through DiSNI: reliable-connected queue pairs set up with RDMA CM, Arrow memory
 * registered as memory regions, RDMA READ and WRITE work requests. A node listens on an address of its RDMA device;
 * it accepts connections and then does nothing for them: peers' READs and WRITEs are carried out by the device.
 *
 * <p>Loaded only through {@link io.ferry.fabric.rdma.VerbsLoader}, which supplies Ferry's libdisni.
 */
public final class VerbsFabric implements Fabric {
    private static final Logger LOG = LoggerFactory.getLogger(VerbsFabric.class);
    /** Peers may read, write and run atomics on every region (a work queue's word is one). */
    private static final int ACCESS = IbvMr.IBV_ACCESS_LOCAL_WRITE | IbvMr.IBV_ACCESS_REMOTE_READ
            | IbvMr.IBV_ACCESS_REMOTE_WRITE | IbvMr.IBV_ACCESS_REMOTE_ATOMIC;
    /** The passive side posts nothing; its queue pairs need room for one work request. */
    private static final int PASSIVE_SENDS = 1;

    private final RdmaEventChannel channel;
    private final RdmaCmId listener;
    private final IbvPd pd;
    private final NodeAddress address;
    private final Map<Integer, VerbsRegion> regions = new ConcurrentHashMap<>();
    private final Map<RdmaCmId, QueuePair> accepted = new ConcurrentHashMap<>();
    private final Set<VerbsPeer> dialed = ConcurrentHashMap.newKeySet();
    private final Thread acceptor;
    private volatile boolean closed;

    /** Listens on {@code host:port} (port 0: any free one); {@code host} must be an address of an RDMA device. */
    public VerbsFabric(String host, int port) throws IOException {
        this.channel = RdmaEventChannel.createEventChannel();
        RdmaCmId id = null;
        IbvPd pd = null;
        int bound;
        try {
            id = channel.createId(RdmaCm.RDMA_PS_TCP);
            id.bindAddr(new InetSocketAddress(host, port));
            id.listen(64);
            if (id.getVerbs() == null) {
                throw new IOException(host + " is not the address of an RDMA device");
            }
            pd = id.getVerbs().allocPd();
            bound = ((InetSocketAddress) id.getSource()).getPort();
        } catch (IOException | RuntimeException e) {
            try {
                if (pd != null) {
                    pd.deallocPd();
                }
                if (id != null) {
                    id.destroyId();
                }
                channel.destroyEventChannel();
            } catch (Exception cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
        this.pd = pd;
        this.listener = id;
        this.address = new NodeAddress(host, bound);
        this.acceptor = new Thread(this::acceptLoop, "ferry-rdma-cm-" + bound);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    @Override
    public String provider() {
        return "rdma";
    }

    @Override
    public NodeAddress address() {
        return address;
    }

    IbvPd pd() {
        return pd;
    }

    /**
     * Answers connection requests and disconnections: the only work this node does for its peers. The queue pair
     * of an accepted connection is created in this node's protection domain, so peers can reach every region.
     */
    private void acceptLoop() {
        while (!closed) {
            try {
                RdmaCmEvent e = CmEvents.next(channel, System.nanoTime() + 100_000_000L);
                if (e == null) {
                    continue;
                }
                RdmaCmEvent.EventType type = CmEvents.type(e);
                RdmaCmId conn = e.getConnIdPriv();
                e.ackEvent();
                switch (type) {
                    case RDMA_CM_EVENT_CONNECT_REQUEST -> accept(conn);
                    case RDMA_CM_EVENT_ESTABLISHED -> LOG.debug("rdma fabric {}: a peer connected", address);
                    // Every other event on an accepted connection ends it (disconnected, rejected, unreachable,
                    // a connect error when the dialer gave up first, device removal): free what it held.
                    default -> release(conn);
                }
            } catch (IOException | RuntimeException e) {
                if (!closed) {
                    LOG.warn("rdma fabric {}: connection management failed: {}", address, e.toString());
                }
            }
        }
    }

    private void accept(RdmaCmId conn) throws IOException {
        QueuePair qp;
        try {
            qp = QueuePair.create(conn, pd, PASSIVE_SENDS);
        } catch (IOException e) {
            conn.destroyId(); // the kernel rejects the request, so the dialer fails at once, not at its timeout
            throw e;
        }
        accepted.put(conn, qp);
        try {
            conn.accept(QueuePair.connParam());
        } catch (IOException e) {
            release(conn);
            throw e;
        }
    }

    private void release(RdmaCmId conn) {
        if (conn == null) {
            return;
        }
        QueuePair qp = accepted.remove(conn);
        if (qp != null) {
            try {
                qp.destroy();
            } catch (IOException e) {
                LOG.warn("rdma fabric {}: releasing a connection: {}", address, e.toString());
            }
        }
    }

    @Override
    public int registeredRegions() {
        return regions.size();
    }

    @Override
    public Region register(ArrowBuf buffer, long offset, int length) {
        if (closed) {
            throw new IllegalStateException("fabric " + address + " is closed");
        }
        long start = RegionDescriptor.of(address, buffer, offset, length, 0).address();
        try {
            var call = pd.regMr(start, length, ACCESS).execute();
            IbvMr mr = call.getMr();
            call.free();
            VerbsRegion r = new VerbsRegion(this, new RegionDescriptor(address, start, length, mr.getRkey()), buffer,
                    mr);
            regions.put(mr.getRkey(), r);
            return r;
        } catch (IOException e) {
            throw new FabricException(SqlStates.OUT_OF_MEMORY, "cannot register " + length + " bytes with the RDMA "
                    + "device: " + e.getMessage() + "; raise the locked-memory limit (ulimit -l)", e);
        }
    }

    void deregistered(VerbsRegion region) {
        regions.remove(region.descriptor().key(), region);
    }

    @Override
    public Peer connect(NodeAddress node, Duration timeout) {
        if (closed) {
            throw new IllegalStateException("fabric " + address + " is closed");
        }
        try {
            VerbsPeer peer = VerbsPeer.connect(this, node, timeout);
            dialed.add(peer);
            return peer;
        } catch (IOException e) {
            throw new FabricException(SqlStates.UNABLE_TO_CONNECT, "cannot reach the rdma fabric of " + node + ": "
                    + e.getMessage() + "; check that the node is running and its address is on an RDMA device", e);
        }
    }

    void closed(VerbsPeer peer) {
        dialed.remove(peer);
    }

    /**
     * Stops serving: accepted connections are disconnected, so peers' outstanding operations fail at once; then
     * every region is deregistered and the device resources are freed.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            acceptor.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (VerbsPeer p : dialed) {
            p.close();
        }
        for (Map.Entry<RdmaCmId, QueuePair> e : accepted.entrySet()) {
            try {
                e.getKey().disconnect();
            } catch (IOException ex) {
                LOG.debug("rdma fabric {}: disconnect: {}", address, ex.toString());
            }
            release(e.getKey());
        }
        for (VerbsRegion r : regions.values()) {
            r.close();
        }
        try {
            pd.deallocPd();
            listener.destroyId();
            channel.destroyEventChannel();
        } catch (Exception e) {
            LOG.warn("rdma fabric {}: releasing device resources: {}", address, e.toString());
        }
    }
}
