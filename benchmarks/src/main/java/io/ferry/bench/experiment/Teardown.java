package io.ferry.bench.experiment;

import java.util.ArrayList;
import java.util.List;

/**
 * What an experiment's cluster started — processes, shaped links, settings changed — stopped in order when the
 * cluster closes, or when the harness is stopped (Ctrl-C) while it runs.
 */
final class Teardown implements AutoCloseable {
    private final List<AutoCloseable> closing = new ArrayList<>();
    private final Thread onExit = new Thread(this::close, "experiment-teardown");

    Teardown() {
        Runtime.getRuntime().addShutdownHook(onExit);
    }

    /** Stopped before everything added so far (a node before the coordinator it joined). */
    synchronized void first(AutoCloseable c) {
        closing.add(0, c);
    }

    /** Stopped after everything added so far (a link after the nodes behind it). */
    synchronized void last(AutoCloseable c) {
        closing.add(c);
    }

    @Override
    public synchronized void close() {
        if (Thread.currentThread() != onExit) {
            try {
                Runtime.getRuntime().removeShutdownHook(onExit);
            } catch (IllegalStateException e) {
                // the JVM is already shutting down, and the hook will find nothing left to close
            }
        }
        for (AutoCloseable c : closing) {
            try {
                c.close();
            } catch (Exception e) {
                System.err.println("[experiment] while stopping: " + e.getMessage());
            }
        }
        closing.clear();
    }
}
