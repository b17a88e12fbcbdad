package io.ferry.bench.experiment;

/**
 * Keeps a share of one core busy: spins for {@code duty} of every 10 ms and sleeps the rest, until killed. The load
 * experiment pins these to a worker's core to play the ship-or-not paper's "additional workload in the worker
 * node" (§III-B), which the worker sees in its heartbeats as cores other processes keep busy.
 */
public final class Burner {
    private Burner() {
    }

    public static void main(String[] args) throws InterruptedException {
        double duty = Double.parseDouble(args[0]);
        long period = 10_000_000L;
        long busy = (long) (period * Math.max(0, Math.min(1, duty)));
        long sink = 0;
        while (true) {
            long start = System.nanoTime();
            while (System.nanoTime() - start < busy) {
                sink += Long.numberOfTrailingZeros(sink + start);
            }
            long rest = period - busy;
            if (rest > 0) {
                Thread.sleep(rest / 1_000_000L, (int) (rest % 1_000_000L));
            }
            if (sink == 42) {
                System.out.print("");
            }
        }
    }
}
