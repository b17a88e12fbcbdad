package io.ferry.server.data;

import java.io.PrintStream;

/**
 * Hears how far a load or generation has come. A run is a sequence of tasks (one per table, or per file); each
 * task is {@link #start started}, {@link #update updated} with the units done so far, then {@link #finish
 * finished} — also when it fails, so a console bar never outlives its task. Called from the loading thread only.
 */
public interface ProgressListener {

    /** What a task counts. */
    enum Unit {
        ROWS, BYTES
    }

    /** A task begins; {@code total} is the number of units expected, or -1 when it is not known. */
    void start(String task, long total, Unit unit);

    /** {@code done} units of the current task are complete (a running total, never decreasing). */
    void update(long done);

    /** The current task has ended. */
    void finish();

    /** Hears nothing: for tests, embedded use and output that a machine reads. */
    ProgressListener NONE = new ProgressListener() {
        @Override
        public void start(String task, long total, Unit unit) {
        }

        @Override
        public void update(long done) {
        }

        @Override
        public void finish() {
        }
    };

    /**
     * What a command-line tool should use. With a terminal attached, a redrawing bar on stderr; without one a bar
     * would scatter carriage returns into logs and pipes, so then either nothing or, when the user asked for
     * progress explicitly, one plain line on stderr every few seconds.
     */
    static ProgressListener console(boolean requested) {
        if (System.console() != null) {
            return new ConsoleProgressListener();
        }
        return requested ? printing(System.err) : NONE;
    }

    /** Plain lines on {@code out} (a start line, at most one line every two seconds, and an end line). */
    static ProgressListener printing(PrintStream out) {
        return new PrintingProgressListener(out, 2_000);
    }
}
