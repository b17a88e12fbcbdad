package io.ferry.server.runtime;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.exec.QueryContext;
import io.ferry.core.ipc.BatchIpc;
import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;
import io.ferry.fabric.Fabric;
import io.ferry.fabric.Region;
import io.ferry.fabric.RegionDescriptor;
import io.ferry.server.cluster.Member;
import io.ferry.server.cluster.control.MessageType;
import io.ferry.server.cluster.control.WireReader;
import io.ferry.server.cluster.control.WireWriter;

/**
 * A fragment sent to a node and the region registered here for its result, which the node writes one-sidedly
 * (ship-or-not section II-A). {@code work} is what the sender knows the fragment as (a unit of a gather, a stage of a
 * shuffle). The waits check the query's context, so a cancel, a timeout or another node's failure ends them at once;
 * a node that dies fails them as its control connection breaks.
 *
 * @param <T> the sender's description of the work
 */
final class Dispatch<T> implements AutoCloseable {
    final T work;
    final Member runner;
    /** Per scan of the fragment, the blocks it reads on the node. */
    final List<List<BlockLocation>> scans;
    /** Whether this is a second run of lost work: it is not run a third time. */
    volatile boolean retry;
    private final BufferAllocator allocator;
    private final Fabric fabric;
    private final long started = System.nanoTime();
    private ArrowBuf buffer;
    private Region region;
    private CompletableFuture<WireReader> pending;
    private FragmentRequest.Reply reply;
    private long queryId;
    private int fragmentId;
    private long finished;
    /** When the node answered: a unit's time ends there, not when the coordinator came round to collecting it. */
    private volatile long answered;

    Dispatch(T work, Member runner, List<List<BlockLocation>> scans, int capacity, BufferAllocator allocator,
            Fabric fabric) {
        this.work = work;
        this.runner = runner;
        this.scans = scans;
        this.allocator = allocator;
        this.fabric = fabric;
        register(capacity);
    }

    private void register(int capacity) {
        close();
        buffer = allocator.buffer(capacity);
        region = fabric.register(buffer, 0, capacity);
    }

    /** Where the node writes the result. */
    RegionDescriptor region() {
        return region.descriptor();
    }

    /** Sends {@code request} as a call of {@code type} (RUN_FRAGMENT or RUN_EXCHANGE). */
    void send(int type, FragmentRequest request) {
        this.queryId = request.queryId();
        this.fragmentId = request.fragmentId();
        this.pending = runner.channel().call(type, request.encode());
        runner.fragmentStarted();
        pending.whenComplete((r, e) -> {
            answered = System.nanoTime();
            runner.fragmentEnded();
        });
    }

    CompletableFuture<WireReader> pending() {
        return pending;
    }

    FragmentRequest.Reply reply() {
        return reply;
    }

    double elapsedMillis() {
        return (finished - started) / 1e6;
    }

    /** When the node answered; now, if the callback that notes it has not run yet (it runs just after the wake-up). */
    private long answeredOrNow() {
        long at = answered;
        return at != 0 ? at : System.nanoTime();
    }

    /** Waits for the node's answer and decodes the result, asking for it in a larger region if it did not fit. */
    List<Batch> collect(QueryContext ctx, List<FerryType> types) {
        reply = FragmentRequest.Reply.decode(await(pending, ctx));
        finished = answeredOrNow();
        if (!reply.written()) {
            register(reply.resultBytes());
            await(runner.channel().call(MessageType.WRITE_RESULT,
                    new WireWriter().writeLong(queryId).writeInt(fragmentId).writeDescriptor(region.descriptor())),
                    ctx);
            finished = System.nanoTime();
        }
        byte[] bytes = new byte[reply.resultBytes()];
        buffer.getBytes(0, bytes);
        return BatchIpc.read(bytes, 0, bytes.length, types, allocator);
    }

    /** Waits for a shuffle stage's answer: per part, the blocks the node holds. */
    List<List<BlockLocation>> collectParts(QueryContext ctx) {
        List<List<BlockLocation>> parts = QueryRegions.decode(await(pending, ctx));
        finished = answeredOrNow();
        return parts;
    }

    private WireReader await(CompletableFuture<WireReader> f, QueryContext ctx) {
        while (true) {
            ctx.check();
            try {
                return f.get(50, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                // keep waiting: the node answers when done, or its connection breaks and the call fails
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new FerryException(SqlStates.QUERY_CANCELED, "interrupted while waiting for "
                        + runner.describe());
            } catch (ExecutionException e) {
                throw unwrap(e);
            }
        }
    }

    void cancel() {
        runner.channel().notice(MessageType.CANCEL, new WireWriter().writeLong(queryId));
    }

    @Override
    public void close() {
        if (region != null) {
            region.close();
            region = null;
        }
        if (buffer != null) {
            buffer.close();
            buffer = null;
        }
    }

    /** The error a failed call or future carries. */
    static RuntimeException unwrap(Throwable e) {
        Throwable cause = (e instanceof ExecutionException || e instanceof CompletionException) && e.getCause() != null
                ? e.getCause() : e;
        return cause instanceof RuntimeException r ? r
                : new FerryException(SqlStates.INTERNAL_ERROR, cause.toString(), cause);
    }
}
