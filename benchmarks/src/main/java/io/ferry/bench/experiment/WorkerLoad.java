package io.ferry.bench.experiment;

import java.nio.file.Path;
import java.util.Locale;

import io.ferry.bench.NodeProcess;

/**
 * Other work on the worker's CPUs, raised step by step: the ship-or-not paper's "additional workload in the worker
 * node" (§III-B), which varies the worker's available cores from 1 to 28. Here the worker has one core, so the load
 * is {@link Burner}s pinned to it, each busy for a share of the core, and the worker gets what they leave.
 */
final class WorkerLoad {
    private final ExperimentCluster cluster;
    private final Settings settings;
    private final String cpus;
    private final Path logs;
    private double placed;
    private int burners;

    WorkerLoad(ExperimentCluster cluster, Settings settings, String cpus, Path logs) {
        this.cluster = cluster;
        this.settings = settings;
        this.cpus = cpus;
        this.logs = logs;
    }

    /**
     * Adds burners until {@code cores} of other work run on the worker's CPUs, each taking what is missing up to a
     * whole core: with steps of 0.5 every burner runs at 50%, so load 2 is four processes each busy half the time.
     * Then waits for the coordinator to see the load.
     */
    void raiseTo(double cores) throws InterruptedException {
        if (placed > cores + 1e-9) {
            throw new IllegalArgumentException("the load sweep must not decrease: " + cores + " after " + placed);
        }
        while (placed < cores - 1e-9) {
            double duty = Math.min(1, cores - placed);
            cluster.alsoRun(NodeProcess.start("burner-" + ++burners, settings.burner(cpus, duty), logs));
            placed += duty;
        }
        // the coordinator judges load by the least busy of the last four heartbeats (2 s)
        Thread.sleep(cores > 0 ? 3000 : 0);
    }

    /** How the load is made, for a report: the paper varies the worker's cores, we take them away. */
    static String describe(ExperimentCluster.Layout layout) {
        return String.format(Locale.ROOT, "The coordinator runs on CPU %s with %d thread(s) and the worker on CPU %s "
                + "with %d thread(s). The paper gives its worker 1 to 28 cores beside a 28-core coordinator; a "
                + "2-core machine cannot, so the worker keeps its core and busy-loop processes pinned to it "
                + "(`Burner`, a duty cycle over 10 ms) take part of it away: \"other load\" is how many cores' "
                + "worth of busy time they add, one more process per step, and the more there is, the less of its core "
                + "the worker gets while it runs a fragment", layout.coordinatorCpus(),
                layout.coordinatorThreads(), layout.workerCpus(), layout.workerThreads());
    }
}
