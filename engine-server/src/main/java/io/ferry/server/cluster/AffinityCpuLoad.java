package io.ferry.server.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;

/**
 * CPU utilization of the cores this process may run on — its affinity mask, which {@code taskset} and container
 * cpusets set — measured from {@code /proc/stat} between two samples. A node pinned to one core of a shared host
 * must not count the coordinator's or a client's work on the other cores against itself: the cost model's
 * C_exec (ship-or-not §II-A) wants the cores the node can actually get, and the JVM's whole-machine CPU load
 * cannot say that. Linux only; {@link #open()} returns null elsewhere and the caller falls back to the JVM's figures.
 */
final class AffinityCpuLoad {
    /** Utilization over the last interval: all work on the node's cores, and this process's share of them. */
    record Sample(double systemCpu, double processCpu, int cores) {
    }

    private final Path procStat;
    private final BitSet cpus;
    private long busy;
    private long total;
    private long processNanos;
    private long wallNanos;

    private AffinityCpuLoad(Path procStat, BitSet cpus) {
        this.procStat = procStat;
        this.cpus = cpus;
    }

    /** Reads this process's affinity mask; null when /proc is not there to measure from. */
    static AffinityCpuLoad open() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    BitSet cpus = parseCpuList(line.substring(line.indexOf(':') + 1).trim());
                    Path stat = Path.of("/proc/stat");
                    return cpus.isEmpty() || !Files.isReadable(stat) ? null : new AffinityCpuLoad(stat, cpus);
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return null;
    }

    /** The cores of the mask. */
    int cores() {
        return cpus.cardinality();
    }

    /**
     * Utilization since the previous call ({@code processCpuNanos}: this process's CPU time so far); the first call
     * only sets the baseline and reports 0. Null if /proc/stat could not be read this time.
     */
    synchronized Sample sample(long processCpuNanos) {
        long[] now;
        try {
            now = sum(Files.readString(procStat), cpus);
        } catch (IOException e) {
            return null;
        }
        long wall = System.nanoTime();
        boolean first = wallNanos == 0;
        long dBusy = now[0] - busy;
        long dTotal = now[1] - total;
        long dProcess = processCpuNanos - processNanos;
        long dWall = wall - wallNanos;
        busy = now[0];
        total = now[1];
        processNanos = processCpuNanos;
        wallNanos = wall;
        if (first || dTotal <= 0 || dWall <= 0) {
            return new Sample(0, 0, cores());
        }
        double system = Math.min(1, Math.max(0, (double) dBusy / dTotal));
        double process = Math.min(1, Math.max(0, (double) dProcess / ((double) dWall * cores())));
        return new Sample(system, process, cores());
    }

    /** "0-3,8,10-11" (the kernel's list format) as a set of CPU numbers. */
    static BitSet parseCpuList(String list) {
        BitSet cpus = new BitSet();
        for (String part : list.split(",")) {
            String p = part.trim();
            if (p.isEmpty()) {
                continue;
            }
            int dash = p.indexOf('-');
            int from = Integer.parseInt(dash < 0 ? p : p.substring(0, dash));
            int to = dash < 0 ? from : Integer.parseInt(p.substring(dash + 1));
            cpus.set(from, to + 1);
        }
        return cpus;
    }

    /**
     * Busy and total clock ticks of the given CPUs, summed from /proc/stat's {@code cpuN} lines (user nice system
     * idle iowait irq softirq steal ...; idle and iowait are not busy; guest time is already inside user).
     */
    static long[] sum(String procStat, BitSet cpus) {
        long busy = 0;
        long total = 0;
        for (String line : procStat.split("\n")) {
            if (!line.startsWith("cpu") || line.length() < 4 || !Character.isDigit(line.charAt(3))) {
                continue;
            }
            String[] f = line.trim().split("\\s+");
            if (!cpus.get(Integer.parseInt(f[0].substring(3)))) {
                continue;
            }
            long lineTotal = 0;
            for (int i = 1; i < Math.min(f.length, 9); i++) {
                lineTotal += Long.parseLong(f[i]);
            }
            long idle = Long.parseLong(f[4]) + (f.length > 5 ? Long.parseLong(f[5]) : 0);
            busy += lineTotal - idle;
            total += lineTotal;
        }
        return new long[] {busy, total};
    }
}
