package io.ferry.server.cluster;

/**
 * The fragments a node is running, and the share of wall time it ran at least one: with the process's CPU time over
 * the same interval, that gives the cores the node actually got while it had work, which is what a busy host's
 * scheduler granted it (ship-or-not §II-A's "computing resources available" in the workers, measured rather than
 * guessed from utilization).
 */
final class BusyClock {
    private int running;
    private long since;
    private long busyNanos;
    private long sampledBusy;
    private long sampledAt = System.nanoTime();

    synchronized void start() {
        if (running++ == 0) {
            since = System.nanoTime();
        }
    }

    synchronized void stop() {
        if (--running == 0) {
            busyNanos += System.nanoTime() - since;
        }
    }

    synchronized int running() {
        return running;
    }

    /** The share of wall time since the previous call during which at least one fragment ran, 0..1. */
    synchronized double busyFraction() {
        long now = System.nanoTime();
        long busy = busyNanos + (running > 0 ? now - since : 0);
        double fraction = (double) (busy - sampledBusy) / Math.max(1, now - sampledAt);
        sampledBusy = busy;
        sampledAt = now;
        return Math.max(0, Math.min(1, fraction));
    }
}
