package io.ferry.server.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import io.ferry.fabric.Completions;
import io.ferry.fabric.NodeAddress;
import io.ferry.fabric.Peer;
import io.ferry.fabric.RegionDescriptor;
import io.ferry.server.cluster.control.WireReader;
import io.ferry.server.cluster.control.WireWriter;

/**
 * The work queues of one scan and one node's claims on them (I-Store skew paper section 4). Each queue lists work
 * elements (here: blocks, by their index in the scan's list) and lives as one 8-byte word {@code head<<32 | tail} in
 * a region a memory server holds for the query. A node takes runs of elements from its own queue's head and, once
 * that is empty, steals from the tail of the queue with the most elements left, one at a time; every claim is one
 * remote compare-and-swap on the word, so an element goes to exactly one node however the claims race — the owner and a
 * thief on the last element, several thieves on one queue. The queue's word is its only shared state: the elements
 * themselves travel in every node's fragment request. Claims are asynchronous, so a scan claims its next blocks while
 * its threads work on the ones that have landed.
 */
public final class WorkQueues {
    /** One queue: its word (at {@code offset} of {@code words}) and the elements it starts with. */
    public record Queue(RegionDescriptor words, long offset, int[] elements) {
        /** The word a queue of {@code n} elements starts with: head 0, tail n. */
        public static long initial(int n) {
            return word(0, n);
        }
    }

    /** The most elements a node takes from its own queue in one claim. */
    static final int MAX_RUN = 8;

    private final List<Queue> queues;
    private final int own;
    /** Per queue, the peer of the node holding its word: connected up front, as claims run on network threads. */
    private final Peer[] peers;
    private final Duration timeout;
    // The claim state below is touched by one claim at a time (the caller waits for a claim's future before it
    // asks for the next) and published by the future's completion; the counters are read by other threads.
    /** The rest of the run last claimed from the own queue: positions {@code [runNext, runEnd)}. */
    private int runNext;
    private int runEnd;
    /** What this node last saw in its own queue's word: the expected value of its next claim. */
    private long ownWord;
    /** The queue this node last stole from, or -1, and what it last saw in its word. */
    private int victim = -1;
    private long victimWord;
    private int owned;
    private int stolen;

    /**
     * @param own the queue this node drains first (its own work), or -1 for a node that only steals
     */
    public WorkQueues(List<Queue> queues, int own, Function<NodeAddress, Peer> peers, Duration timeout) {
        this.queues = List.copyOf(queues);
        this.own = own;
        this.peers = new Peer[queues.size()];
        for (int q = 0; q < this.peers.length; q++) {
            this.peers[q] = peers.apply(queues.get(q).words().node());
        }
        this.timeout = timeout;
        this.ownWord = own < 0 ? 0 : Queue.initial(queues.get(own).elements().length);
    }

    static long word(int head, int tail) {
        return ((long) head << 32) | (tail & 0xFFFF_FFFFL);
    }

    private static int head(long word) {
        return (int) (word >>> 32);
    }

    private static int tail(long word) {
        return (int) word;
    }

    /** {@link #claimAsync()}, waiting for it. */
    public int claim() {
        return Completions.result(claimAsync(), timeout, "claiming work");
    }

    /**
     * The next element this node runs, or -1 when every queue is empty. One claim at a time: ask for the next only
     * once this one's future has completed. From its own queue a node takes a run of elements per claim — an eighth
     * of what is left, at most {@link #MAX_RUN} — so that it pays one round trip per run rather than per element,
     * while the tail stays for thieves (guided self-scheduling); a thief takes one element at a time.
     */
    public CompletableFuture<Integer> claimAsync() {
        synchronized (this) {
            if (runNext < runEnd) {
                owned++;
                return CompletableFuture.completedFuture(queues.get(own).elements()[runNext++]);
            }
        }
        return own >= 0 ? claimOwn(ownWord) : steal();
    }

    /** A run from the head of the own queue, whose word was last seen as {@code w}. */
    private CompletableFuture<Integer> claimOwn(long w) {
        if (head(w) >= tail(w)) {
            ownWord = w;
            return steal();
        }
        Queue q = queues.get(own);
        int run = Math.max(1, Math.min(MAX_RUN, (tail(w) - head(w)) / 8));
        long next = word(head(w) + run, tail(w));
        return swap(own, w, next).thenCompose(was -> {
            if (was != w) {
                return claimOwn(was); // a thief took from the tail meanwhile
            }
            synchronized (this) {
                ownWord = next;
                owned++;
                runNext = head(w) + 1;
                runEnd = head(w) + run;
            }
            return CompletableFuture.completedFuture(q.elements()[head(w)]);
        });
    }

    /**
     * One element from the tail of another queue. A thief keeps stealing from its victim while that has elements
     * — one round trip per steal, since a failed compare-and-swap returns the word as it is — and looks at every
     * queue again, to pick the one with the most left, once its victim is empty.
     */
    private CompletableFuture<Integer> steal() {
        return victim >= 0 ? stealFrom(victim, victimWord) : look();
    }

    /** Reads every other queue's word and steals from the one with the most elements left; -1 if all are empty. */
    private CompletableFuture<Integer> look() {
        List<CompletableFuture<Long>> reads = new ArrayList<>(queues.size());
        for (int q = 0; q < queues.size(); q++) {
            // an atomic read: adding 0 returns the word as every claim sees it
            reads.add(q == own ? CompletableFuture.completedFuture(0L) : within(peers[q].fetchAndAdd(
                    queues.get(q).words(), queues.get(q).offset(), 0), "reading work queue " + q));
        }
        return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).thenCompose(done -> {
            int most = -1;
            long mostWord = 0;
            for (int q = 0; q < reads.size(); q++) {
                long w = reads.get(q).join();
                if (tail(w) - head(w) > (most < 0 ? 0 : tail(mostWord) - head(mostWord))) {
                    most = q;
                    mostWord = w;
                }
            }
            victim = most;
            return most < 0 ? CompletableFuture.completedFuture(-1) : stealFrom(most, mostWord);
        });
    }

    /** The last element of queue {@code v}, whose word was last seen as {@code w}. */
    private CompletableFuture<Integer> stealFrom(int v, long w) {
        if (head(w) >= tail(w)) {
            victim = -1;
            return look();
        }
        Queue q = queues.get(v);
        long next = word(head(w), tail(w) - 1);
        return swap(v, w, next).thenCompose(was -> {
            if (was != w) {
                return stealFrom(v, was); // its owner or another thief claimed meanwhile
            }
            synchronized (this) {
                victimWord = next;
                stolen++;
            }
            return CompletableFuture.completedFuture(q.elements()[tail(w) - 1]);
        });
    }

    private CompletableFuture<Long> swap(int queue, long expect, long update) {
        Queue q = queues.get(queue);
        return within(peers[queue].compareAndSwap(q.words(), q.offset(), expect, update), "claiming work from the "
                + "queue on " + q.words().node());
    }

    private CompletableFuture<Long> within(CompletableFuture<Long> op, String what) {
        return Completions.within(op, timeout, what);
    }

    /** Elements taken from this node's own queue. */
    public synchronized int owned() {
        return owned;
    }

    /** Elements taken from other nodes' queues. */
    public synchronized int stolen() {
        return stolen;
    }

    /** The queues and which is whose, for a fragment request: every queue, then the index of the node's own. */
    public static void encode(WireWriter w, List<Queue> queues, int own) {
        w.writeInt(queues.size());
        for (Queue q : queues) {
            w.writeDescriptor(q.words()).writeLong(q.offset()).writeInt(q.elements().length);
            for (int e : q.elements()) {
                w.writeInt(e);
            }
        }
        w.writeInt(own);
    }

    /** {@link #encode}'s queues; the own index follows them on the wire. */
    public static List<Queue> decodeQueues(WireReader r) {
        int n = r.readCount(24);
        List<Queue> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            RegionDescriptor words = r.readDescriptor();
            long offset = r.readLong();
            int[] elements = new int[r.readCount(4)];
            for (int k = 0; k < elements.length; k++) {
                elements[k] = r.readInt();
            }
            out.add(new Queue(words, offset, elements));
        }
        return out;
    }
}
