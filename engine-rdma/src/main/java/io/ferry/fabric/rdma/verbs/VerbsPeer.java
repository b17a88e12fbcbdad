package io.ferry.fabric.rdma.verbs;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import org.apache.arrow.memory.util.MemoryUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.ibm.disni.verbs.IbvMr;
import com.ibm.disni.verbs.IbvSendWR;
import com.ibm.disni.verbs.IbvSge;
import com.ibm.disni.verbs.IbvWC;
import com.ibm.disni.verbs.RdmaCm;
import com.ibm.disni.verbs.RdmaCmEvent;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.RdmaEventChannel;
import com.ibm.disni.verbs.SVCPollCq;
import com.ibm.disni.verbs.impl.NatIbvQP;

import io.ferry.core.SqlStates;
import io.ferry.fabric.FabricException;
import io.ferry.fabric.FabricRegion;
import io.ferry.fabric.NodeAddress;
import io.ferry.fabric.Peer;
import io.ferry.fabric.Region;
import io.ferry.fabric.RegionDescriptor;
import io.ferry.fabric.WordAtomics;

/**
 * The active end of an RDMA connection. READ, WRITE and the atomics are posted as signalled work requests; one completion thread
 * polls the completion queue and completes their futures, and watches the connection's CM events, so a peer that
 * disconnects fails every outstanding operation at once. Posting blocks only when {@value #SENDS} operations are
 * already outstanding.
 */
final class VerbsPeer implements Peer {
    private static final Logger LOG = LoggerFactory.getLogger(VerbsPeer.class);
    static final int SENDS = 256;
    private static final int POLL_BATCH = 32;
    /** Empty polls before the completion thread sleeps while operations are outstanding. */
    private static final int SPINS = 256;
    /** Its sleep while operations are outstanding, and when none are (posting wakes it at once). */
    private static final long BUSY_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(20);
    private static final long IDLE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final VerbsFabric fabric;
    private final NodeAddress node;
    private final RdmaEventChannel channel;
    private final QueuePair qp;
    private final Map<Long, CompletableFuture<Void>> pending = new ConcurrentHashMap<>();
    /** Atomics posted and not yet completed, by work request id (shared with {@link #pending}). */
    private final Map<Long, CompletableFuture<Long>> atomics = new ConcurrentHashMap<>();
    /**
     * Where atomics' old values land: one 8-byte word per send slot, work request {@code id} in word
     * {@code id % SENDS} (at most {@value #SENDS} operations are outstanding, so two never share one); registered on
     * first use, with the queue pair's protection domain. Guarded by {@link #postLock}.
     */
    private long results;
    private IbvMr resultsMr;
    private final Semaphore slots = new Semaphore(SENDS);
    private final Object postLock = new Object();
    private final Thread completer;
    private long ids;
    private volatile String lost;
    /** Set once by {@link #close()}; also tells the completion thread to stop. */
    private final AtomicBoolean closed = new AtomicBoolean();

    private VerbsPeer(VerbsFabric fabric, NodeAddress node, RdmaEventChannel channel, QueuePair qp) {
        this.fabric = fabric;
        this.node = node;
        this.channel = channel;
        this.qp = qp;
        this.completer = new Thread(this::complete, "ferry-rdma-cq-" + node);
        completer.setDaemon(true);
        completer.start();
    }

    /** Resolves, connects and waits for the connection, every step bounded by {@code timeout} in total. */
    static VerbsPeer connect(VerbsFabric fabric, NodeAddress node, Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        int millis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        RdmaEventChannel channel = RdmaEventChannel.createEventChannel();
        RdmaCmId id = null;
        QueuePair qp = null;
        try {
            id = channel.createId(RdmaCm.RDMA_PS_TCP);
            id.resolveAddr(null, new InetSocketAddress(node.host(), node.port()), millis);
            CmEvents.expect(channel, RdmaCmEvent.EventType.RDMA_CM_EVENT_ADDR_RESOLVED, deadline, "resolving "
                    + node);
            id.resolveRoute(millis);
            CmEvents.expect(channel, RdmaCmEvent.EventType.RDMA_CM_EVENT_ROUTE_RESOLVED, deadline, "routing to "
                    + node);
            qp = QueuePair.create(id, fabric.pd(), SENDS);
            id.connect(QueuePair.connParam());
            CmEvents.expect(channel, RdmaCmEvent.EventType.RDMA_CM_EVENT_ESTABLISHED, deadline, "connecting to "
                    + node);
            return new VerbsPeer(fabric, node, channel, qp);
        } catch (IOException | RuntimeException e) {
            try {
                if (qp != null) {
                    qp.destroy();
                } else if (id != null) {
                    id.destroyId();
                }
            } catch (IOException cleanup) {
                e.addSuppressed(cleanup);
            }
            channel.destroyEventChannel();
            throw e;
        }
    }

    @Override
    public NodeAddress address() {
        return node;
    }

    @Override
    public CompletableFuture<Void> read(RegionDescriptor remote, long remoteOffset, Region local, long localOffset,
            int length) {
        return post(IbvSendWR.IBV_WR_RDMA_READ, remote, remoteOffset, local, localOffset, length);
    }

    @Override
    public CompletableFuture<Void> write(Region local, long localOffset, RegionDescriptor remote, long remoteOffset,
            int length) {
        return post(IbvSendWR.IBV_WR_RDMA_WRITE, remote, remoteOffset, local, localOffset, length);
    }

    private CompletableFuture<Void> post(int opcode, RegionDescriptor remote, long remoteOffset, Region local,
            long localOffset, int length) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        try {
            remote.checkAccess(node, remoteOffset, length);
            VerbsRegion mine = FabricRegion.local(local, VerbsRegion.class, fabric, localOffset, length);
            IbvSge sge = new IbvSge();
            sge.setAddr(mine.descriptor().address() + localOffset);
            sge.setLength(length);
            sge.setLkey(mine.lkey());
            LinkedList<IbvSge> sges = new LinkedList<>();
            sges.add(sge);
            IbvSendWR wr = new IbvSendWR();
            wr.setSg_list(sges);
            wr.setOpcode(opcode);
            wr.setSend_flags(IbvSendWR.IBV_SEND_SIGNALED);
            wr.getRdma().setRemote_addr(remote.address() + remoteOffset);
            wr.getRdma().setRkey(remote.key());
            posting(done, pending, id -> {
                wr.setWr_id(id);
                qp.qp.postSend(List.of(wr), null).execute().free();
            });
        } catch (RuntimeException e) {
            done.completeExceptionally(e);
        }
        return done;
    }

    @Override
    public CompletableFuture<Long> compareAndSwap(RegionDescriptor remote, long remoteOffset, long expect,
            long update) {
        return atomic(true, remote, remoteOffset, expect, update);
    }

    @Override
    public CompletableFuture<Long> fetchAndAdd(RegionDescriptor remote, long remoteOffset, long delta) {
        return atomic(false, remote, remoteOffset, delta, 0);
    }

    /**
     * An atomic work request through Ferry's libdisni ({@link AtomicWorkRequests}); its old value lands in a word of
     * {@link #results}.
     */
    private CompletableFuture<Long> atomic(boolean compareAndSwap, RegionDescriptor remote, long remoteOffset,
            long compareAdd, long swap) {
        CompletableFuture<Long> done = new CompletableFuture<>();
        try {
            WordAtomics.checkWord(node, remote, remoteOffset);
            posting(done, atomics, id -> {
                if (resultsMr == null) {
                    registerResults();
                }
                AtomicWorkRequests.post(((NatIbvQP) qp.qp).getObjId(), id, compareAndSwap, resultOf(id),
                        resultsMr.getLkey(), remote.address() + remoteOffset, remote.key(), compareAdd, swap);
            });
        } catch (RuntimeException e) {
            done.completeExceptionally(e);
        }
        return done;
    }

    /** Posts one work request given its id. */
    @FunctionalInterface
    private interface Post {
        void post(long id) throws IOException;
    }

    /**
     * What posting any operation takes: a send slot (waiting for one, except on the completion thread, which runs
     * callbacks of completed futures and must never wait for itself), an id, {@code done} registered under it in
     * {@code outstanding}, and the post, all under the post lock; a connection already lost fails it at once.
     */
    private <T> void posting(CompletableFuture<T> done, Map<Long, CompletableFuture<T>> outstanding, Post post) {
        try {
            acquireSlot();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            done.completeExceptionally(new FabricException(SqlStates.QUERY_CANCELED, "interrupted while posting"));
            return;
        }
        synchronized (postLock) {
            String why = lost;
            if (why != null) {
                slots.release();
                throw FabricException.connectionLost(node, why);
            }
            long id = ++ids;
            outstanding.put(id, done);
            try {
                post.post(id);
            } catch (IOException e) {
                outstanding.remove(id);
                slots.release();
                throw FabricException.connectionLost(node, "posting failed: " + e.getMessage());
            }
        }
        LockSupport.unpark(completer);
    }

    private void registerResults() throws IOException {
        long bytes = 8L * SENDS;
        long at = MemoryUtil.allocateMemory(bytes);
        MemoryUtil.setMemory(at, bytes, (byte) 0);
        try {
            var call = fabric.pd().regMr(at, (int) bytes, IbvMr.IBV_ACCESS_LOCAL_WRITE).execute();
            resultsMr = call.getMr();
            call.free();
            results = at;
        } catch (IOException | RuntimeException e) {
            MemoryUtil.freeMemory(at);
            throw e;
        }
    }

    private long resultOf(long id) {
        return results + 8L * (id % SENDS);
    }

    /** Waits for a send slot (never on the completion thread, which must not wait for itself). */
    private void acquireSlot() throws InterruptedException {
        boolean free = Thread.currentThread() == completer ? slots.tryAcquire()
                : slots.tryAcquire(30, TimeUnit.SECONDS);
        if (!free) {
            throw new FabricException(SqlStates.CONNECTION_FAILURE, SENDS + " operations to " + node
                    + " have been outstanding for 30 s; the peer is not completing them");
        }
    }

    /**
     * The completion thread: polls the queue while operations are outstanding (spinning briefly, then in short
     * sleeps), watches for a disconnect whenever it sleeps, and sleeps longer when nothing is outstanding, until a
     * post wakes it.
     */
    private void complete() {
        IbvWC[] wcs = new IbvWC[POLL_BATCH];
        for (int i = 0; i < wcs.length; i++) {
            wcs[i] = new IbvWC();
        }
        SVCPollCq poll = null;
        int empty = 0;
        try {
            poll = qp.cq.poll(wcs, POLL_BATCH);
            while (!closed.get()) {
                int n = poll.execute().getPolls();
                for (int i = 0; i < n; i++) {
                    finish(wcs[i]);
                }
                if (n > 0) {
                    empty = 0;
                } else if ((!pending.isEmpty() || !atomics.isEmpty()) && ++empty < SPINS) {
                    Thread.onSpinWait();
                } else {
                    // On a shared core a busy poller would slow the very peers it waits for: sleep, briefly while
                    // operations are outstanding.
                    watchConnection();
                    LockSupport.parkNanos(pending.isEmpty() && atomics.isEmpty() ? IDLE_PARK_NANOS : BUSY_PARK_NANOS);
                }
            }
        } catch (IOException | RuntimeException e) {
            if (!closed.get()) {
                lost("polling completions failed: " + e);
            }
        } finally {
            if (poll != null) {
                poll.free();
            }
        }
    }

    private void watchConnection() throws IOException {
        RdmaCmEvent e = channel.getCmEvent(0);
        if (e != null) {
            RdmaCmEvent.EventType type = CmEvents.type(e);
            e.ackEvent();
            if (type == RdmaCmEvent.EventType.RDMA_CM_EVENT_DISCONNECTED) {
                lost("the node disconnected");
            }
        }
    }

    private void finish(IbvWC wc) {
        long id = wc.getWr_id();
        CompletableFuture<?> f = pending.remove(id);
        CompletableFuture<Long> atomic = f == null ? atomics.remove(id) : null;
        int status = wc.getStatus();
        boolean ok = status == IbvWC.IbvWcStatus.IBV_WC_SUCCESS.ordinal();
        // read before the slot is freed: the next work request in that slot may reuse the word
        long old = atomic != null && ok ? MemoryUtil.getLong(resultOf(id)) : 0;
        slots.release();
        if (atomic != null) {
            f = atomic;
            if (ok) {
                atomic.complete(old);
                return;
            }
        }
        if (f == null) {
            return;
        }
        if (ok) {
            ((CompletableFuture<Void>) f).complete(null);
            return;
        }
        // Any error moves a reliable-connected queue pair to the error state: nothing more can be posted on it.
        String name = status < IbvWC.IbvWcStatus.values().length ? IbvWC.IbvWcStatus.values()[status].name()
                : "status " + status;
        if (status == IbvWC.IbvWcStatus.IBV_WC_REM_ACCESS_ERR.ordinal()) {
            f.completeExceptionally(new FabricException(SqlStates.INVALID_PARAMETER_VALUE, "the region is not "
                    + "registered at " + node + " (deregistered, or a stale descriptor): " + name
                    + "; the connection must be reopened"));
            lost("a remote access error closed the connection");
        } else {
            f.completeExceptionally(FabricException.connectionLost(node, name));
            lost(name);
        }
    }

    /** The connection is unusable: fail what is outstanding, and everything posted from now on. */
    private void lost(String why) {
        synchronized (postLock) {
            if (lost == null) {
                lost = why;
            }
        }
        for (Long id : pending.keySet()) {
            CompletableFuture<Void> f = pending.remove(id);
            if (f != null) {
                f.completeExceptionally(FabricException.connectionLost(node, why));
            }
        }
        for (Long id : atomics.keySet()) {
            CompletableFuture<Long> f = atomics.remove(id);
            if (f != null) {
                f.completeExceptionally(FabricException.connectionLost(node, why));
            }
        }
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        lost("the connection was closed by this node");
        LockSupport.unpark(completer);
        if (Thread.currentThread() != completer) {
            try {
                completer.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (completer.isAlive() && Thread.currentThread() != completer) {
            // It may be inside a poll of the CQ: destroying the CQ now would free memory under it.
            LOG.warn("the completion thread for {} did not stop; leaving its queue pair allocated", node);
            fabric.closed(this);
            return;
        }
        try {
            qp.id.disconnect();
            RdmaCmEvent e = CmEvents.next(channel, System.nanoTime() + TimeUnit.SECONDS.toNanos(1));
            if (e != null) {
                e.ackEvent();
            }
        } catch (IOException e) {
            LOG.debug("disconnecting from {}: {}", node, e.toString());
        }
        try {
            qp.destroy();
        } catch (IOException e) {
            LOG.warn("releasing the connection to {}: {}", node, e.toString());
        }
        synchronized (postLock) {
            if (resultsMr != null) {
                try {
                    resultsMr.deregMr().execute().free();
                    MemoryUtil.freeMemory(results);
                } catch (IOException e) {
                    LOG.warn("releasing the atomics' result words for {}: {}", node, e.toString());
                }
                resultsMr = null;
            }
        }
        try {
            channel.destroyEventChannel();
        } catch (IOException e) {
            LOG.warn("releasing the event channel of {}: {}", node, e.toString());
        }
        fabric.closed(this);
    }
}
