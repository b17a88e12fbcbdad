package io.ferry.server.cli;

import java.time.Duration;

/**
 * The shutdown hook of a Ferry process: it closes the node, which stops every running query first, and halts the
 * JVM if the process is still alive {@link #DEADLINE} after the hook started, whatever holds it up: a query stuck
 * in a loop that polls nothing, a peer that does not answer, or another library's shutdown hook (the JVM waits for
 * every hook). A stopped server used to print "Stopping Ferry..." and keep running until killed. A second SIGTERM
 * changes nothing: the JVM is already shutting down, and the deadline still holds.
 */
final class ShutdownDeadline {
    static final Duration DEADLINE = Duration.ofSeconds(5);

    private ShutdownDeadline() {
    }

    /** A hook that runs {@code close} and sees that the process exits within the deadline whatever it does. */
    static Thread hook(Runnable close) {
        return new Thread(() -> {
            // a daemon thread does not keep the JVM alive: if everything stops in time, it dies with the process
            Thread halt = new Thread(() -> {
                try {
                    Thread.sleep(DEADLINE.toMillis());
                } catch (InterruptedException e) {
                    return;
                }
                System.err.println("Ferry did not stop within " + DEADLINE.toSeconds() + " s; exiting anyway");
                System.err.flush();
                Runtime.getRuntime().halt(1);
            }, "ferry-halt");
            halt.setDaemon(true);
            halt.start();
            close.run();
        }, "ferry-shutdown");
    }
}
