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
 * themselves travel in every node's fragment request.
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
    /** The rest of the run last claimed from the own queue: positions {@code [runNext, runEnd)}. */
    private int runNext;
    private int runEnd;
    private final Function<NodeAddress, Peer> peers;
    private final Duration timeout;
    /** What this node last saw in its own queue's word: the expected value of its next claim. */
    private long ownWord;
    private int owned;
    private int stolen;

    /**
     * @param own the queue this node drains first (its own work), or -1 for a node that only steals
     */
    public WorkQueues(List<Queue> queues, int own, Function<NodeAddress, Peer> peers, Duration timeout) {
        this.queues = List.copyOf(queues);
        this.own = own;
        this.peers = peers;
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

    /**
     * The next element this node runs, or -1 when every queue is empty. Called by one thread at a time. From its own
     * queue a node takes a run of elements per claim — an eighth of what is left, at most {@link #MAX_RUN} — so that
     * it pays one round trip per run rather than per element, while the tail stays for thieves (guided
     * self-scheduling); a thief takes one element at a time.
     */
    public synchronized int claim() {
        if (runNext < runEnd) {
            owned++;
            return queues.get(own).elements()[runNext++];
        }
        if (own >= 0) {
            Queue q = queues.get(own);
            long w = ownWord;
            while (head(w) < tail(w)) {
                int run = Math.max(1, Math.min(MAX_RUN, (tail(w) - head(w)) / 8));
                long next = word(head(w) + run, tail(w));
                long was = swap(q, w, next);
                if (was == w) {
                    ownWord = next;
                    owned++;
                    runNext = head(w) + 1;
                    runEnd = head(w) + run;
                    return q.elements()[head(w)];
                }
                w = was; // a thief took from the tail meanwhile
            }
            ownWord = w;
        }
        return steal();
    }

    /** One element from the tail of the queue with the most left; -1 when all are empty. */
    private int steal() {
        while (true) {
            List<CompletableFuture<Long>> reads = new ArrayList<>(queues.size());
            for (int q = 0; q < queues.size(); q++) {
                // an atomic read: adding 0 returns the word as every claim sees it
                reads.add(q == own ? null : peer(queues.get(q)).fetchAndAdd(queues.get(q).words(),
                        queues.get(q).offset(), 0));
            }
            int victim = -1;
            long victimWord = 0;
            for (int q = 0; q < reads.size(); q++) {
                if (reads.get(q) == null) {
                    continue;
                }
                long w = Completions.result(reads.get(q), timeout, "reading work queue " + q);
                if (tail(w) - head(w) > (victim < 0 ? 0 : tail(victimWord) - head(victimWord))) {
                    victim = q;
                    victimWord = w;
                }
            }
            if (victim < 0) {
                return -1;
            }
            Queue q = queues.get(victim);
            long w = victimWord;
            while (head(w) < tail(w)) {
                long next = word(head(w), tail(w) - 1);
                long was = swap(q, w, next);
                if (was == w) {
                    stolen++;
                    return q.elements()[tail(w) - 1];
                }
                w = was;
            }
            // emptied while we looked: look again
        }
    }

    private long swap(Queue q, long expect, long update) {
        return Completions.result(peer(q).compareAndSwap(q.words(), q.offset(), expect, update), timeout,
                "claiming work from the queue on " + q.words().node());
    }

    private Peer peer(Queue q) {
        return peers.apply(q.words().node());
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
