package io.ferry.server.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.ferry.fabric.Fabric;
import io.ferry.fabric.RegionDescriptor;
import io.ferry.fabric.tcp.TcpFabric;
import io.ferry.server.cluster.Peers;

/**
 * The claim protocol of {@link WorkQueues} over real sockets: queues' words held by one node (a memory server's
 * {@link QueryRegions}), claimed by four others, each on its own thread, with remote compare-and-swap. A claim log
 * shows every element run exactly once however the claims race.
 */
class WorkQueuesTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private BufferAllocator allocator;
    private Fabric memory;
    private QueryRegions held;
    private final List<Fabric> computes = new ArrayList<>();
    private final List<Peers> peers = new ArrayList<>();

    @BeforeEach
    void start() {
        allocator = new RootAllocator();
        memory = new TcpFabric("127.0.0.1", 0, 1);
        held = new QueryRegions(memory, allocator, "memory m1");
        for (int i = 0; i < 4; i++) {
            Fabric f = new TcpFabric("127.0.0.1", 0, 1);
            computes.add(f);
            peers.add(new Peers(f, TIMEOUT));
        }
    }

    @AfterEach
    void stop() {
        peers.forEach(Peers::close);
        computes.forEach(Fabric::close);
        held.close();
        assertEquals(0, memory.registeredRegions(), "the queues' words were freed");
        memory.close();
        assertEquals(0, allocator.getAllocatedMemory(), "Arrow memory leaked");
        allocator.close();
    }

    /** Queues of {@code sizes} elements, numbered consecutively, their words in one region on the memory node. */
    private List<WorkQueues.Queue> queues(long queryId, int... sizes) {
        long[] words = new long[sizes.length];
        for (int q = 0; q < sizes.length; q++) {
            words[q] = WorkQueues.Queue.initial(sizes[q]);
        }
        RegionDescriptor d = held.holdWords(queryId, words);
        List<WorkQueues.Queue> out = new ArrayList<>();
        int next = 0;
        for (int q = 0; q < sizes.length; q++) {
            int[] elements = new int[sizes[q]];
            for (int i = 0; i < elements.length; i++) {
                elements[i] = next++;
            }
            out.add(new WorkQueues.Queue(d, 8L * q, elements));
        }
        return out;
    }

    /** Each node claims until every queue is empty, all starting at once; the elements each claimed. */
    private List<int[]> drain(List<WorkQueues.Queue> queues, int[] own, List<WorkQueues> nodes) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(own.length);
        CyclicBarrier go = new CyclicBarrier(own.length);
        try {
            List<Future<int[]>> runs = new ArrayList<>();
            for (int n = 0; n < own.length; n++) {
                WorkQueues node = new WorkQueues(queues, own[n], peers.get(n)::get, TIMEOUT);
                nodes.add(node);
                runs.add(pool.submit(() -> {
                    go.await();
                    List<Integer> got = new ArrayList<>();
                    for (int e = node.claim(); e >= 0; e = node.claim()) {
                        got.add(e);
                    }
                    return got.stream().mapToInt(Integer::intValue).toArray();
                }));
            }
            List<int[]> out = new ArrayList<>();
            for (Future<int[]> f : runs) {
                out.add(f.get());
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    private static void assertExactlyOnce(List<int[]> log, int total) {
        boolean[] seen = new boolean[total];
        int n = 0;
        for (int[] node : log) {
            for (int e : node) {
                assertTrue(e >= 0 && e < total, "element " + e);
                assertFalse(seen[e], "element " + e + " was run twice");
                seen[e] = true;
                n++;
            }
        }
        assertEquals(total, n, "every element was run");
    }

    /**
     * Skewed queues — 3,000 elements on one node's, 20 on another's, none on the third's, and a node with no queue —
     * drain with every element claimed once; the nodes with little or nothing of their own steal, and the owner of
     * the long queue takes most of it from the head while the thieves take from the tail.
     */
    @Test
    void skewedQueuesDrainWithEveryElementClaimedOnce() throws Exception {
        List<WorkQueues.Queue> queues = queues(1, 3000, 20, 0);
        List<WorkQueues> nodes = new ArrayList<>();
        List<int[]> log = drain(queues, new int[] {0, 1, 2, -1}, nodes);
        assertExactlyOnce(log, 3020);
        assertTrue(nodes.get(2).stolen() > 0 && nodes.get(3).stolen() > 0, "idle nodes stole: "
                + nodes.get(2).stolen() + ", " + nodes.get(3).stolen());
        assertEquals(log.get(3).length, nodes.get(3).stolen(), "a node without a queue only steals");
        assertTrue(nodes.get(0).owned() > 0, "the owner drained its own queue too");
        for (int n = 0; n < nodes.size(); n++) {
            assertEquals(log.get(n).length, nodes.get(n).owned() + nodes.get(n).stolen());
        }
        held.free(1);
    }

    /** The last element, raced for by its owner and three thieves, 200 times over: always exactly one gets it. */
    @Test
    void theLastElementGoesToExactlyOneClaimant() throws Exception {
        for (int round = 0; round < 200; round++) {
            List<WorkQueues.Queue> queues = queues(round, 1, 0, 0, 0);
            List<int[]> log = drain(queues, new int[] {0, 1, 2, 3}, new ArrayList<>());
            assertExactlyOnce(log, 1);
            held.free(round);
        }
        assertEquals(0, memory.registeredRegions());
    }

    /** Thieves on an empty set of queues find nothing and stop at once. */
    @Test
    void aThiefOnEmptyQueuesGetsNothing() throws Exception {
        List<WorkQueues.Queue> queues = queues(7, 0, 0);
        List<int[]> log = drain(queues, new int[] {-1, -1, 0, 1}, new ArrayList<>());
        assertExactlyOnce(log, 0);
        held.free(7);
    }
}
