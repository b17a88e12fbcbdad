package io.ferry.sql;

import java.util.List;
import java.util.function.Supplier;

import io.ferry.core.exec.BatchStream;
import io.ferry.core.types.FerryType;

/**
 * A query's result as Ferry's batches rather than JDBC rows, for a front end that sends columns (Arrow Flight SQL):
 * open a capture on a thread, execute a query on an engine connection on that same thread, and {@link #take} the
 * batches of its result. Only a result that Ferry's engine makes whole, with no operator of Calcite's row engine above
 * it, can be captured; for any other the capture stays empty and the caller reads the JDBC result set as usual.
 *
 * <p>The stream runs under the statement that executed it: the statement's cancel and timeout stop it, so keep the
 * statement open until the stream is read, and close the stream before the statement.
 */
public final class ResultBatches implements AutoCloseable {
    private static final ThreadLocal<ResultBatches> OPEN = new ThreadLocal<>();

    private BatchStream stream;
    private List<FerryType> types;

    private ResultBatches() {
    }

    /** Captures the result of the next query this thread executes, until {@link #close}. */
    public static ResultBatches capture() {
        if (OPEN.get() != null) {
            throw new IllegalStateException("a capture is already open on this thread");
        }
        ResultBatches capture = new ResultBatches();
        OPEN.set(capture);
        return capture;
    }

    /**
     * Hands a whole-result stream to this thread's open capture, if there is one that has none yet; returns whether
     * it was taken (the caller then produces no rows). For the engine's result boundary only.
     */
    public static boolean offer(Supplier<BatchStream> run, List<FerryType> types) {
        ResultBatches capture = OPEN.get();
        if (capture == null || capture.stream != null) {
            return false;
        }
        capture.stream = run.get();
        capture.types = List.copyOf(types);
        return true;
    }

    /** The captured result, which the caller now owns and closes; null when the query's result was not captured. */
    public BatchStream take() {
        BatchStream s = stream;
        stream = null;
        return s;
    }

    /** The types of the captured result's columns. */
    public List<FerryType> types() {
        return types;
    }

    @Override
    public void close() {
        if (OPEN.get() == this) {
            OPEN.remove();
        }
        if (stream != null) {
            stream.close();
            stream = null;
        }
    }
}
