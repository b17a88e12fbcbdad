package io.ferry.sql.distributed;

import java.util.Locale;

import io.ferry.sql.SessionSettings;

/**
 * How {@code SET execution = 'auto'} runs a fragment's joins on a cluster: the way that moves the fewest bytes
 * (I-Store DPE section 2: on a fast network what a distributed join costs is the data it moves, and a pipeline that
 * streams each byte once, memory server to compute server, beats one that shuffles intermediate rows).
 * <ul>
 *   <li>gather: the probe table's blocks once, every build table whole to every unit of work;</li>
 *   <li>pipelined: the probe blocks once, and to each unit only the build parts its partitions meet (co-partitioned
 *       joins only; never more than gather);</li>
 *   <li>shuffle: every table's blocks once, plus the split rows: the share that crosses to other nodes, and all of
 *       them once more, since each part is laid out as blocks and read back (priced like moving them).</li>
 * </ul>
 * Ties go to pipelined, then gather: they keep no intermediate state on the nodes.
 *
 * @param mode      the choice
 * @param gather    bytes gathering moves
 * @param pipelined bytes pipelining moves, or -1 where no join is co-partitioned
 * @param shuffle   bytes the shuffle join moves, or -1 where no join splits by key
 */
public record ExecutionChoice(SessionSettings.Execution mode, long gather, long pipelined, long shuffle) {

    /**
     * @param probe     bytes of the probe table's blocks read
     * @param builds    bytes of every build table's blocks, each once
     * @param units     units of work gathering sends the build tables to (the coordinator counts once if it runs
     *                  some itself)
     * @param pipelined bytes pipelining moves (probe and restricted builds), or -1 where it does not apply
     * @param split     estimated bytes of the rows the shuffle's stages split, or -1 where nothing splits
     * @param nodes     nodes a shuffle runs on
     */
    public static ExecutionChoice choose(long probe, long builds, int units, long pipelined, long split, int nodes) {
        long gather = probe + builds * Math.max(1, units);
        long shuffle = split < 0 ? -1 : probe + builds + split + split * (nodes - 1) / Math.max(1, nodes);
        SessionSettings.Execution mode = SessionSettings.Execution.GATHER;
        long best = gather;
        if (pipelined >= 0 && pipelined <= best) {
            mode = SessionSettings.Execution.PIPELINED;
            best = pipelined;
        }
        if (shuffle >= 0 && shuffle < best) {
            mode = SessionSettings.Execution.SHUFFLE;
        }
        return new ExecutionChoice(mode, gather, pipelined, shuffle);
    }

    /** EXPLAIN's line: what auto chose and the bytes each way would move. */
    public String describe() {
        return String.format(Locale.ROOT, "execution=auto chose %s: it moves the fewest bytes (gather %s, pipelined "
                + "%s, shuffle %s)", mode.name().toLowerCase(Locale.ROOT), mb(gather), pipelined < 0
                        ? "n/a: no co-partitioned join" : mb(pipelined), shuffle < 0 ? "n/a: no join splits by key"
                                : mb(shuffle));
    }

    private static String mb(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
    }
}
