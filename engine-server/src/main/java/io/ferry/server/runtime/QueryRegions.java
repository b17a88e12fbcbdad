package io.ferry.server.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.storage.BlockReader;
import io.ferry.core.storage.BlockWriter;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TableSchema;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BatchConcat;
import io.ferry.fabric.Fabric;
import io.ferry.fabric.Region;
import io.ferry.fabric.RegionDescriptor;
import io.ferry.server.cluster.Member;
import io.ferry.server.cluster.control.MessageType;
import io.ferry.server.cluster.control.WireReader;
import io.ferry.server.cluster.control.WireWriter;

/**
 * What a node holds for running queries in regions of its own: the parts of shuffle stages (the send side of a
 * shuffle join, DPE Fig. 7a's baseline) — a stage's rows, split by key, laid out as blocks in one registered region
 * per stage, which the compute servers joining each part read one-sidedly like any table's blocks — and the words of
 * work queues (I-Store skew paper section 4), which compute servers claim work from with remote atomics. The node
 * stays passive while they do. A query's regions live until the coordinator frees them, cancels the query, or goes
 * away.
 */
public final class QueryRegions implements AutoCloseable {
    /** Rows of a part are cut into blocks of at most this size. */
    private static final long BLOCK_BYTES = 1 << 20;

    private record Held(long queryId, ArrowBuf buffer, Region region) {
    }

    private final Fabric fabric;
    private final BufferAllocator allocator;
    private final String node;
    private final Map<Integer, Held> held = new ConcurrentHashMap<>();

    public QueryRegions(Fabric fabric, BufferAllocator allocator, String node) {
        this.fabric = fabric;
        this.allocator = allocator;
        this.node = node;
    }

    /** Lays out each part's rows as blocks of one new region, held for {@code queryId}; each part's blocks. */
    public List<List<BlockLocation>> hold(long queryId, List<List<Batch>> parts, List<FerryType> types) {
        List<io.ferry.core.types.Column> columns = new ArrayList<>(types.size());
        for (int i = 0; i < types.size(); i++) {
            columns.add(new io.ferry.core.types.Column("c" + i, types.get(i), true));
        }
        BlockWriter writer = new BlockWriter(new TableSchema(columns));
        List<Batch> merged = new ArrayList<>(parts.size());
        long total = 0;
        List<int[]> cuts = new ArrayList<>();
        for (List<Batch> part : parts) {
            Batch b = part.isEmpty() ? null : BatchConcat.concat(part, types);
            merged.add(b);
            List<Integer> counts = new ArrayList<>();
            for (int from = 0; b != null && from < b.rowCount(); ) {
                int n = writer.fitRows(b, from, BLOCK_BYTES);
                counts.add(n);
                total += writer.sizeOf(b, from, n);
                from += n;
            }
            cuts.add(counts.stream().mapToInt(Integer::intValue).toArray());
        }
        List<List<BlockLocation>> out = new ArrayList<>(parts.size());
        if (total == 0) {
            for (int p = 0; p < parts.size(); p++) {
                out.add(List.of());
            }
            return out;
        }
        if (total > Integer.MAX_VALUE) {
            throw new FerryException(SqlStates.OUT_OF_MEMORY, "on " + node + ": a shuffle stage's output of " + total
                    + " bytes exceeds the 2 GiB a region holds; filter the join's inputs or add compute servers");
        }
        ArrowBuf buf;
        try {
            buf = allocator.buffer(total);
        } catch (OutOfMemoryException e) {
            throw new FerryException(SqlStates.OUT_OF_MEMORY, "on " + node + ": cannot allocate " + total + " bytes "
                    + "for a shuffle stage's output; raise -XX:MaxDirectMemorySize (FERRY_DIRECT_MEMORY), or use SET "
                    + "execution = 'pipelined', which moves no intermediate rows", e);
        }
        Region region;
        try {
            region = fabric.register(buf, 0, (int) total);
        } catch (RuntimeException e) {
            buf.close();
            throw e;
        }
        Held h = new Held(queryId, buf, region);
        try {
            long at = 0;
            int position = 0;
            for (int p = 0; p < parts.size(); p++) {
                Batch b = merged.get(p);
                List<BlockLocation> blocks = new ArrayList<>();
                int from = 0;
                for (int n : cuts.get(p)) {
                    int length = writer.write(b, from, n, buf, at);
                    blocks.add(new BlockLocation(position++, region.descriptor(), at, length,
                            new BlockReader(buf, at).columnBounds()));
                    at += length;
                    from += n;
                }
                out.add(blocks);
            }
        } catch (RuntimeException e) {
            release(h);
            throw e;
        }
        held.put(region.descriptor().key(), h);
        return out;
    }

    /**
     * Registers {@code words} as 8-byte words of a new region held for {@code queryId} (a work queue's
     * {@code head<<32 | tail}, one per queue); its descriptor.
     */
    public RegionDescriptor holdWords(long queryId, long[] words) {
        if (words.length == 0 || words.length > 1 << 20) {
            throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "on " + node + ": " + words.length
                    + " work queues asked for; between 1 and 1,048,576 are allowed");
        }
        ArrowBuf buf = allocator.buffer(8L * words.length);
        Region region;
        try {
            for (int i = 0; i < words.length; i++) {
                buf.setLong(8L * i, words[i]);
            }
            region = fabric.register(buf, 0, 8 * words.length);
        } catch (RuntimeException e) {
            buf.close();
            throw e;
        }
        held.put(region.descriptor().key(), new Held(queryId, buf, region));
        return region.descriptor();
    }

    /** The memory of a region held here, or null if it is not an exchange's. */
    public ArrowBuf bytes(int regionKey) {
        Held h = held.get(regionKey);
        return h == null ? null : h.buffer();
    }

    /** Frees the parts of query {@code queryId}. */
    public void free(long queryId) {
        held.entrySet().removeIf(e -> {
            if (e.getValue().queryId() != queryId) {
                return false;
            }
            release(e.getValue());
            return true;
        });
    }

    /** Frees region {@code key} if it is held for query {@code queryId}. */
    public void free(long queryId, int key) {
        Held h = held.get(key);
        if (h != null && h.queryId() == queryId && held.remove(key, h)) {
            release(h);
        }
    }

    @Override
    public void close() {
        held.values().forEach(QueryRegions::release);
        held.clear();
    }

    private static void release(Held h) {
        h.region().close();
        h.buffer().close();
    }

    /**
     * The coordinator's side of freeing: asks each node still up to free what query {@code queryId} holds there —
     * every region, or the one whose key the map gives — and waits up to {@code wait} for each, so that none outlives
     * the query unseen. A node that cannot answer is down or going down, and its regions go with it.
     */
    static void freeOn(long queryId, Map<Member, Integer> nodes, Duration wait) {
        List<CompletableFuture<?>> calls = new ArrayList<>();
        for (Map.Entry<Member, Integer> e : nodes.entrySet()) {
            if (e.getKey().channel().isOpen()) {
                WireWriter w = new WireWriter().writeLong(queryId);
                if (e.getValue() != null) {
                    w.writeInt(e.getValue());
                }
                calls.add(e.getKey().channel().call(MessageType.FREE_QUERY_REGIONS, w));
            }
        }
        for (CompletableFuture<?> c : calls) {
            try {
                c.get(wait.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (ExecutionException | TimeoutException e) {
                // down or going down: what it held goes with it
            }
        }
    }

    /** A stage's reply: per part, its blocks on the node that ran the stage. */
    public static WireWriter encode(List<List<BlockLocation>> parts) {
        WireWriter w = new WireWriter().writeInt(parts.size());
        for (List<BlockLocation> part : parts) {
            w.writeInt(part.size());
            for (BlockLocation b : part) {
                b.encode(w);
            }
        }
        return w;
    }

    static List<List<BlockLocation>> decode(WireReader r) {
        int n = r.readCount(4);
        List<List<BlockLocation>> parts = new ArrayList<>(n);
        for (int p = 0; p < n; p++) {
            int blocks = r.readCount(32);
            List<BlockLocation> part = new ArrayList<>(blocks);
            for (int i = 0; i < blocks; i++) {
                part.add(BlockLocation.decode(r));
            }
            parts.add(part);
        }
        r.end();
        return parts;
    }
}
