package io.ferry.server.jdbc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.io.ChannelEndPoint;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.HttpConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ferry.sql.jdbc.PlanningCancel;

/**
 * The threads statements are planned and run on, and the requests they serve.
 *
 * <p>Parsing, validation and planning recurse over the statement's tree, one level per nested expression or
 * subquery: on a request thread's default stack, 3000 chained NOTs or 500 nested subqueries overflowed it. These
 * threads have a deep stack (reserved address space, committed only as it is used); a statement deeper still fails
 * with 54001 ({@code SqlErrors}).
 *
 * <p>Each request runs with a stop flag (its statement's cancel flag), which its planning and its operators poll.
 * While it runs, the request thread watches the client's HTTP connection, as PostgreSQL stops a query whose socket
 * died: once the client has closed it (its process killed, its connection closed), the flag is set and the query
 * stops within a poll. The flags of all running requests are also set when their connection closes or expires, and
 * when the server stops.
 */
final class StatementThreads implements AutoCloseable {
    static final long STACK_BYTES = 512L << 20;
    /** How often a running request looks at its client's connection. */
    static final long WATCH_MILLIS = 200;

    private static final Logger LOG = LoggerFactory.getLogger(StatementThreads.class);

    private final AtomicInteger ids = new AtomicInteger();
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(null, r, "ferry-statement-" + ids.incrementAndGet(), STACK_BYTES);
        t.setDaemon(true);
        return t;
    });
    private final Set<Running> running = ConcurrentHashMap.newKeySet();

    /** A request's work, and the checked exception it may throw. */
    interface Work<T, E extends Exception> {
        T run() throws E;
    }

    /** A request being served: the connection and statement (-1: none yet) it is for and the flag that stops it. */
    record Running(String connectionId, int statementId, AtomicBoolean stop) {
    }

    /**
     * Runs {@code work} on a deep-stack thread, with {@code stop} stopping its planning and execution, and waits for
     * it; its exceptions reach the caller as they were.
     */
    @SuppressWarnings("unchecked")
    <T, E extends Exception> T run(String connectionId, int statementId, AtomicBoolean stop, Work<T, E> work)
            throws E {
        Running request = new Running(connectionId, statementId, stop);
        ClientSocket client = ClientSocket.ofCurrentRequest();
        running.add(request);
        Future<T> future = pool.submit(() -> PlanningCancel.watching(stop, work::run));
        try {
            while (true) {
                try {
                    return future.get(WATCH_MILLIS, TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    if (client != null && !stop.get() && client.gone()) {
                        LOG.info("the client of connection {} went away; stopping its statement", connectionId);
                        stop.set(true);
                    }
                }
            }
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Error err) {
                throw err;
            }
            throw (E) cause; // a RuntimeException, or the E that work.run() declares
        } catch (InterruptedException | CancellationException e) {
            stop.set(true);
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("the request was interrupted", e);
        } finally {
            running.remove(request);
        }
    }

    /** True if a request for statement {@code statementId} of connection {@code connectionId} is being served. */
    boolean serving(String connectionId, int statementId) {
        for (Running r : running) {
            if (r.statementId() == statementId && r.connectionId().equals(connectionId)) {
                return true;
            }
        }
        return false;
    }

    /** Stops every running request that {@code which} selects. */
    void stop(Predicate<Running> which) {
        for (Running r : running) {
            if (which.test(r)) {
                r.stop().set(true);
            }
        }
    }

    /** Stops every running request, and the threads. */
    @Override
    public void close() {
        stop(r -> true);
        pool.shutdownNow();
    }

    /**
     * The socket of the HTTP request the calling thread serves. Jetty does not read from a connection while its
     * request is handled, so nothing tells it the client closed; this reads one byte, without blocking (the channel
     * is non-blocking): end of stream or a reset means the client is gone. A byte that arrives instead would be the
     * start of a pipelined request, which no JDBC client sends; that connection is closed once the response is
     * written, and watching it ends.
     */
    private static final class ClientSocket {
        private final HttpConnection http;
        private final SocketChannel channel;
        private final EndPoint endPoint;
        private boolean pipelined;

        private ClientSocket(HttpConnection http, ChannelEndPoint endPoint) {
            this.http = http;
            this.channel = endPoint.getChannel();
            this.endPoint = endPoint;
        }

        static ClientSocket ofCurrentRequest() {
            HttpConnection http = HttpConnection.getCurrentConnection();
            if (http != null && http.getEndPoint() instanceof ChannelEndPoint endPoint) {
                return new ClientSocket(http, endPoint);
            }
            return null; // not serving an HTTP request (a test calling the meta directly)
        }

        boolean gone() {
            if (pipelined) {
                return false;
            }
            if (!endPoint.isOpen()) {
                return true;
            }
            try {
                int read = channel.read(ByteBuffer.allocate(1));
                if (read > 0) {
                    pipelined = true; // the byte read is lost: the connection must not serve another request
                    http.getHttpChannel().getResponse().setHeader(HttpHeader.CONNECTION.asString(),
                            HttpHeaderValue.CLOSE.asString());
                    return false;
                }
                return read < 0;
            } catch (IOException e) {
                return true; // reset by the peer
            }
        }
    }
}
