package io.ferry.bench.experiment;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.ferry.bench.NodeProcess;

/**
 * What every experiment shares: the jars, the table's size, how often each point runs, and the commands that start
 * nodes.
 *
 * @param serverJar     engine-server's ferry-server.jar, which every node runs
 * @param harnessJar    the jar this harness runs from (its {@link Burner} loads a worker's cores)
 * @param rows          rows of r
 * @param warmups       untimed runs of each query before the timed ones
 * @param repeat        timed runs of each query; the median is reported
 */
record Settings(Path serverJar, Path harnessJar, String fabric, long rows, int warmups, int repeat,
        String coordinatorHeap, String workerHeap, String workerMemory) {

    Settings withRows(long n) {
        return new Settings(serverJar, harnessJar, fabric, n, warmups, repeat, coordinatorHeap, workerHeap,
                workerMemory);
    }

    /** The server jar's {@code java} with {@code args}, pinned to {@code cpus}, after {@code prefix}. */
    List<String> java(String cpus, List<String> prefix, String heap, List<String> args) {
        List<String> c = new ArrayList<>(prefix);
        c.addAll(List.of("taskset", "-c", cpus));
        c.addAll(NodeProcess.serverCommand(serverJar, heap, heap, args));
        return c;
    }

    /** A {@link Burner} pinned to {@code cpus} that keeps {@code duty} of one core busy. */
    List<String> burner(String cpus, double duty) {
        return List.of("taskset", "-c", cpus, Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m", "-cp", harnessJar.toString(), Burner.class.getName(), Double.toString(duty));
    }
}
