package io.ferry.sql.distributed;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Which compute server runs which partition combination of a pipelined multi-join (I-Store DPE section 4.1). The
 * probe (fact) table is split by the join-key domains it shares with the build tables, {@code parts[d]} ways in
 * domain d; a <em>cell</em> is one of its partitions (the mixed-radix number of its digits, first domain most
 * significant, as {@link io.ferry.core.storage.PartitionScheme} numbers them), and it must meet, on the server that
 * probes it, the build partition of its digit in every domain. A build partition needed by several servers is read
 * once by each: that is the replication the assignment keeps low, while giving every server about the same bytes to
 * stream, since a pipeline's time goes with the bytes it reads.
 *
 * <p>Two ways to assign, and {@link #best} takes the one whose busiest server streams fewest bytes:
 * <ul>
 *   <li>{@link #grid}: the servers form a grid over the domains, {@code g[d]} along domain d with the product of the
 *       {@code g[d]} the number of servers; each server takes a box of cells, so it needs {@code 1/g[d]} of domain d's
 *       build partitions. Of all such shapes it takes the one replicating the fewest bytes (DPE: 4×2×1 for SSB on 8
 *       servers). Even under uniform data; under skew a box may be heavy.</li>
 *   <li>{@link #ldm}: cells go to servers by the largest differencing method (Karmarkar and Karp's heuristic for
 *       k-way number partitioning, which DPE names and leaves for future work), each cell weighed by its probe bytes
 *       plus the build bytes it needs; balances skew at the cost of more replication.</li>
 * </ul>
 *
 * @param servers   for each server, the cells it probes
 * @param probe     probe bytes per server
 * @param build     build bytes per server (its build partitions, each counted once per server that reads it)
 * @param replicated build bytes read more than once in all: the sum of {@code build} minus every build partition's
 *                   bytes once
 * @param method    how it was made: {@code grid g1×g2×...} or {@code ldm}
 */
public record WorkAssignment(List<int[]> servers, long[] probe, long[] build, long replicated, String method) {

    /**
     * What the assignment works from.
     *
     * @param parts   per domain, how many parts the probe table (and the build table of that domain) has
     * @param cells   probe bytes per cell, indexed by partition id (length: the product of {@code parts})
     * @param builds  per domain, build bytes per digit (length {@code parts[d]}); all zero for a domain without a
     *                build table
     * @param servers how many compute servers there are
     */
    public record Input(int[] parts, long[] cells, long[][] builds, int servers) {
        public Input {
            int product = 1;
            for (int p : parts) {
                if (p < 1) {
                    throw new IllegalArgumentException("a domain has at least one part, got " + p);
                }
                product *= p;
            }
            if (cells.length != product) {
                throw new IllegalArgumentException(cells.length + " cells for parts " + Arrays.toString(parts));
            }
            if (builds.length != parts.length) {
                throw new IllegalArgumentException(builds.length + " build tables for " + parts.length + " domains");
            }
            for (int d = 0; d < parts.length; d++) {
                if (builds[d].length != parts[d]) {
                    throw new IllegalArgumentException("domain " + d + " has " + parts[d] + " parts but "
                            + builds[d].length + " build partition sizes");
                }
            }
            if (servers < 1) {
                throw new IllegalArgumentException("at least one compute server, got " + servers);
            }
        }

        /** Digit {@code d} of cell {@code cell}. */
        int digit(int cell, int d) {
            int stride = 1;
            for (int e = parts.length - 1; e > d; e--) {
                stride *= parts[e];
            }
            return (cell / stride) % parts[d];
        }
    }

    /** The busiest server's bytes (probe and build) over the mean's: 1 is perfect balance. */
    public double imbalance() {
        long max = 0;
        long sum = 0;
        for (int s = 0; s < probe.length; s++) {
            long bytes = probe[s] + build[s];
            max = Math.max(max, bytes);
            sum += bytes;
        }
        return sum == 0 ? 1 : max / (sum / (double) probe.length);
    }

    /** The bytes the busiest server streams: what the pipelined join's time goes with. */
    public long busiest() {
        long max = 0;
        for (int s = 0; s < probe.length; s++) {
            max = Math.max(max, probe[s] + build[s]);
        }
        return max;
    }

    /** The better of {@link #grid} and {@link #ldm}: fewest bytes on the busiest server, then least replication. */
    public static WorkAssignment best(Input in) {
        WorkAssignment grid = grid(in);
        WorkAssignment ldm = ldm(in);
        if (ldm.busiest() < grid.busiest()
                || (ldm.busiest() == grid.busiest() && ldm.replicated() < grid.replicated())) {
            return ldm;
        }
        return grid;
    }

    /** The grid shape that replicates the fewest build bytes (ties: the most even probe bytes). */
    public static WorkAssignment grid(Input in) {
        WorkAssignment best = null;
        for (int[] shape : shapes(in.servers(), in.parts())) {
            WorkAssignment a = byShape(in, shape);
            if (best == null || a.replicated() < best.replicated()
                    || (a.replicated() == best.replicated() && a.busiest() < best.busiest())) {
                best = a;
            }
        }
        return best;
    }

    /**
     * Every way to arrange the servers as a grid over the domains: {@code g[d]} at most {@code parts[d]}, the product
     * at most the number of servers (servers left over idle: a grid cannot use more servers than cells).
     */
    private static List<int[]> shapes(int servers, int[] parts) {
        List<int[]> out = new ArrayList<>();
        int cells = 1;
        for (int p : parts) {
            cells *= p;
        }
        int target = Math.min(servers, cells);
        collect(parts, 0, new int[parts.length], 1, target, out);
        // only the shapes using as many servers as any shape can
        int most = out.stream().mapToInt(WorkAssignment::product).max().orElse(1);
        out.removeIf(s -> product(s) != most);
        return out;
    }

    private static void collect(int[] parts, int d, int[] shape, int product, int target, List<int[]> out) {
        if (d == parts.length) {
            out.add(shape.clone());
            return;
        }
        for (int g = 1; g <= parts[d] && product * g <= target; g++) {
            shape[d] = g;
            collect(parts, d + 1, shape, product * g, target, out);
        }
    }

    private static int product(int[] shape) {
        int p = 1;
        for (int g : shape) {
            p *= g;
        }
        return p;
    }

    /** Cells to servers by a grid: along domain d, digit k goes to grid row {@code k * g[d] / parts[d]}. */
    private static WorkAssignment byShape(Input in, int[] shape) {
        int[] owner = new int[in.cells().length];
        for (int cell = 0; cell < owner.length; cell++) {
            int server = 0;
            for (int d = 0; d < shape.length; d++) {
                server = server * shape[d] + in.digit(cell, d) * shape[d] / in.parts()[d];
            }
            owner[cell] = server;
        }
        StringBuilder name = new StringBuilder("grid ");
        for (int d = 0; d < shape.length; d++) {
            name.append(d == 0 ? "" : "×").append(shape[d]);
        }
        return of(in, owner, name.toString());
    }

    /**
     * Cells to servers by the largest differencing method: every cell starts as a k-way split with the cell alone
     * in one part; the two splits whose parts differ most are merged, heaviest part of one with lightest of the
     * other, until one split is left. Each cell weighs its probe bytes plus the build bytes it needs.
     */
    public static WorkAssignment ldm(Input in) {
        int k = in.servers();
        PriorityQueue<Split> queue = new PriorityQueue<>((a, b) -> Long.compare(b.spread(), a.spread()));
        for (int cell = 0; cell < in.cells().length; cell++) {
            long weight = in.cells()[cell];
            for (int d = 0; d < in.parts().length; d++) {
                weight += in.builds()[d][in.digit(cell, d)];
            }
            Split s = new Split(k);
            s.sums[0] = weight;
            s.members.get(0).add(cell);
            queue.add(s);
        }
        while (queue.size() > 1) {
            queue.add(Split.merge(queue.poll(), queue.poll()));
        }
        Split last = queue.poll();
        int[] owner = new int[in.cells().length];
        for (int s = 0; s < k; s++) {
            for (int cell : last.members.get(s)) {
                owner[cell] = s;
            }
        }
        return of(in, owner, "ldm");
    }

    /** A k-way split of some cells: per part, the cells and their summed weight, heaviest part first. */
    private static final class Split {
        final long[] sums;
        final List<List<Integer>> members = new ArrayList<>();

        Split(int k) {
            sums = new long[k];
            for (int i = 0; i < k; i++) {
                members.add(new ArrayList<>());
            }
        }

        long spread() {
            long max = Long.MIN_VALUE;
            long min = Long.MAX_VALUE;
            for (long s : sums) {
                max = Math.max(max, s);
                min = Math.min(min, s);
            }
            return max - min;
        }

        /** Pairs a's heaviest part with b's lightest, and so on, then orders the parts heaviest first. */
        static Split merge(Split a, Split b) {
            int k = a.sums.length;
            Integer[] byA = order(a, false);
            Integer[] byB = order(b, true);
            Split out = new Split(k);
            long[] sums = new long[k];
            List<List<Integer>> members = new ArrayList<>();
            for (int i = 0; i < k; i++) {
                sums[i] = a.sums[byA[i]] + b.sums[byB[i]];
                List<Integer> m = new ArrayList<>(a.members.get(byA[i]));
                m.addAll(b.members.get(byB[i]));
                members.add(m);
            }
            Integer[] heaviest = new Integer[k];
            for (int i = 0; i < k; i++) {
                heaviest[i] = i;
            }
            Arrays.sort(heaviest, (x, y) -> Long.compare(sums[y], sums[x]));
            for (int i = 0; i < k; i++) {
                out.sums[i] = sums[heaviest[i]];
                out.members.set(i, members.get(heaviest[i]));
            }
            return out;
        }

        private static Integer[] order(Split s, boolean lightestFirst) {
            Integer[] idx = new Integer[s.sums.length];
            for (int i = 0; i < idx.length; i++) {
                idx[i] = i;
            }
            Arrays.sort(idx, (x, y) -> lightestFirst ? Long.compare(s.sums[x], s.sums[y])
                    : Long.compare(s.sums[y], s.sums[x]));
            return idx;
        }
    }

    /**
     * Cells to the servers {@code owner} names (cell → server): the layout of a shared-nothing cluster, where each
     * node runs the partitions it stores ({@code SET assignment = 'partition'}).
     */
    public static WorkAssignment byOwner(Input in, int[] owner) {
        if (owner.length != in.cells().length) {
            throw new IllegalArgumentException(owner.length + " owners for " + in.cells().length + " cells");
        }
        return of(in, owner, "partition");
    }

    /** The assignment {@code owner} (cell → server) describes, with its bytes. */
    private static WorkAssignment of(Input in, int[] owner, String method) {
        int k = in.servers();
        long[] probe = new long[k];
        long[] build = new long[k];
        List<List<Integer>> cellsOf = new ArrayList<>();
        for (int s = 0; s < k; s++) {
            cellsOf.add(new ArrayList<>());
        }
        // per server and domain, the build digits it reads
        boolean[][][] reads = new boolean[k][in.parts().length][];
        for (int s = 0; s < k; s++) {
            for (int d = 0; d < in.parts().length; d++) {
                reads[s][d] = new boolean[in.parts()[d]];
            }
        }
        for (int cell = 0; cell < owner.length; cell++) {
            int s = owner[cell];
            cellsOf.get(s).add(cell);
            probe[s] += in.cells()[cell];
            for (int d = 0; d < in.parts().length; d++) {
                reads[s][d][in.digit(cell, d)] = true;
            }
        }
        long once = 0;
        long total = 0;
        boolean[][] needed = new boolean[in.parts().length][];
        for (int d = 0; d < in.parts().length; d++) {
            needed[d] = new boolean[in.parts()[d]];
        }
        for (int s = 0; s < k; s++) {
            for (int d = 0; d < in.parts().length; d++) {
                for (int digit = 0; digit < in.parts()[d]; digit++) {
                    if (reads[s][d][digit]) {
                        build[s] += in.builds()[d][digit];
                        needed[d][digit] = true;
                    }
                }
            }
            total += build[s];
        }
        for (int d = 0; d < in.parts().length; d++) {
            for (int digit = 0; digit < in.parts()[d]; digit++) {
                if (needed[d][digit]) {
                    once += in.builds()[d][digit];
                }
            }
        }
        List<int[]> servers = new ArrayList<>();
        for (List<Integer> cells : cellsOf) {
            servers.add(cells.stream().mapToInt(Integer::intValue).toArray());
        }
        return new WorkAssignment(servers, probe, build, total - once, method);
    }
}
