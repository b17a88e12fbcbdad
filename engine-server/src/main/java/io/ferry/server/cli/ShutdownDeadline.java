package io.ferry.server.cli;

import java.time.Duration;

/**
 * The shutdown hook of a Ferry process: it closes the node, and if closing has not finished within
 * {@link #DEADLINE} (a query stuck in a row-engine loop, a peer that does not answer), it halts the JVM. A stopped
 * server used to print "Stopping Ferry..." and keep running until killed.
 */
final class ShutdownDeadline {
    static final Duration DEADLINE = Duration.ofSeconds(5);

    private ShutdownDeadline() {
    }

    /** A hook that runs {@code close} and exits within the deadline whatever it does. */
    static Thread hook(Runnable close) {
        return new Thread(() -> {
            Thread closing = new Thread(close, "ferry-close");
            closing.setDaemon(true);
            closing.start();
            try {
                closing.join(DEADLINE.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (closing.isAlive()) {
                System.err.println("Ferry did not stop within " + DEADLINE.toSeconds() + " s; exiting anyway");
                System.err.flush();
                Runtime.getRuntime().halt(1);
            }
        }, "ferry-shutdown");
    }
}
