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
            Thread deadline = new Thread(() -> {
                try {
                    Thread.sleep(DEADLINE.toMillis());
                } catch (InterruptedException e) {
                    return;
                }
                System.err.println("Ferry did not stop within " + DEADLINE.toSeconds() + " s; exiting anyway");
                System.err.flush();
                Runtime.getRuntime().halt(1);
            }, "ferry-shutdown-deadline");
            deadline.setDaemon(true);
            deadline.start();
            close.run();
        }, "ferry-shutdown");
    }
}
