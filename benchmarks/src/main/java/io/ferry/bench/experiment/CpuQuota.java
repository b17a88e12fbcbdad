package io.ferry.bench.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * An equal share of the machine for an emulated node (the skew paper's four nodes on this machine's cores): a cgroup
 * (v1 {@code cpu} controller) whose CFS quota lets its processes use {@code cores} CPUs' worth of time, whichever CPUs
 * they run on. Needs root; {@link #create} returns null where it cannot make one, and the nodes then share the
 * machine by {@code taskset} alone. Closing removes the group (once its processes are gone).
 */
final class CpuQuota implements AutoCloseable {
    private static final Path CPU = Path.of("/sys/fs/cgroup/cpu");
    /**
     * A short period: a node that spent its quota waits for the next period, and with the default 100 ms a memory
     * server's answer to a compute server's claim could wait that long.
     */
    private static final long PERIOD_US = 10_000;

    private final Path dir;

    private CpuQuota(Path dir) {
        this.dir = dir;
    }

    /** A group named {@code name} allowed {@code cores} CPUs of time, or null if this machine will not make one. */
    static CpuQuota create(String name, double cores) {
        Path dir = CPU.resolve(name);
        try {
            if (!Files.isWritable(CPU)) {
                return null;
            }
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("cpu.cfs_period_us"), Long.toString(PERIOD_US));
            Files.writeString(dir.resolve("cpu.cfs_quota_us"), Long.toString(Math.round(cores * PERIOD_US)));
            return new CpuQuota(dir);
        } catch (IOException | SecurityException e) {
            return null;
        }
    }

    /**
     * Puts each thread of process {@code pid} not in {@code placed} where it belongs, and adds it there: threads
     * whose names start with {@code prefix} in group {@code other}, the others in this group (cgroup v1 places
     * threads one by one, through a group's {@code tasks} file). A new thread starts in its creator's group, so a
     * thread that one of {@code other}'s made runs under {@code other}'s quota until this runs again.
     */
    void sort(long pid, String prefix, CpuQuota other, Set<String> placed) throws IOException {
        try (var tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                String tid = task.getFileName().toString();
                if (placed.contains(tid)) {
                    continue;
                }
                try {
                    boolean theirs = Files.readString(task.resolve("comm")).startsWith(prefix);
                    Files.writeString((theirs ? other.dir : dir).resolve("tasks"), tid);
                    placed.add(tid);
                } catch (IOException e) {
                    // the thread ended
                }
            }
        }
    }

    /** A command prefix that moves the command's process into the group, then runs it. */
    List<String> enter() {
        return List.of("sh", "-c", "echo $$ > " + dir.resolve("cgroup.procs") + " && exec \"$@\"", "sh");
    }

    @Override
    public void close() {
        try {
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // its processes are still exiting: the empty group is harmless and is reused by name next time
        }
    }
}
