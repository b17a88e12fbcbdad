package io.ferry.core.exec;

import static java.util.Objects.requireNonNull;

/**
 * The rows a window aggregate sees for each row: ROWS frames count rows from the current one, RANGE frames take
 * whole groups of peers (rows equal in every ORDER BY key). A RANGE frame's bounds are UNBOUNDED or CURRENT ROW:
 * a RANGE offset compares order-key values, which the operator does not do.
 */
public record WindowFrame(boolean rows, Bound lower, Bound upper) {
    public WindowFrame {
        requireNonNull(lower, "lower is null");
        requireNonNull(upper, "upper is null");
        if (lower.kind() == BoundKind.UNBOUNDED_FOLLOWING || upper.kind() == BoundKind.UNBOUNDED_PRECEDING) {
            throw new IllegalArgumentException("frame from " + lower + " to " + upper);
        }
        if (!rows && (lower.offsetBound() || upper.offsetBound())) {
            throw new IllegalArgumentException("a RANGE frame with an offset: " + lower + " to " + upper);
        }
    }

    /** SQL's default with ORDER BY: RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW. */
    public static final WindowFrame RUNNING = new WindowFrame(false, Bound.UNBOUNDED_PRECEDING_BOUND,
            Bound.CURRENT_ROW_BOUND);
    /** The whole partition. */
    public static final WindowFrame PARTITION = new WindowFrame(true, Bound.UNBOUNDED_PRECEDING_BOUND,
            Bound.UNBOUNDED_FOLLOWING_BOUND);

    public enum BoundKind {
        UNBOUNDED_PRECEDING, PRECEDING, CURRENT_ROW, FOLLOWING, UNBOUNDED_FOLLOWING
    }

    /** One end of a frame; {@code offset} (rows, at least 0) only for PRECEDING and FOLLOWING. */
    public record Bound(BoundKind kind, long offset) {
        public static final Bound UNBOUNDED_PRECEDING_BOUND = new Bound(BoundKind.UNBOUNDED_PRECEDING, 0);
        public static final Bound CURRENT_ROW_BOUND = new Bound(BoundKind.CURRENT_ROW, 0);
        public static final Bound UNBOUNDED_FOLLOWING_BOUND = new Bound(BoundKind.UNBOUNDED_FOLLOWING, 0);

        public Bound {
            requireNonNull(kind, "kind is null");
            if (offset < 0 || (offset != 0 && !(kind == BoundKind.PRECEDING || kind == BoundKind.FOLLOWING))) {
                throw new IllegalArgumentException("offset " + offset + " of a " + kind + " bound");
            }
        }

        boolean offsetBound() {
            return kind == BoundKind.PRECEDING || kind == BoundKind.FOLLOWING;
        }
    }

    /** Whether every frame starts at its partition's first row, so frames only grow along a partition. */
    public boolean startsAtPartition() {
        return lower.kind() == BoundKind.UNBOUNDED_PRECEDING;
    }

    /** Whether every frame ends at its partition's last row. */
    public boolean endsAtPartition() {
        return upper.kind() == BoundKind.UNBOUNDED_FOLLOWING;
    }

    /**
     * Writes each row's frame as sorted positions {@code [lo[i], hi[i])} (empty where {@code hi[i] <= lo[i]}). Both
     * ends never decrease along a partition, which is what lets aggregates slide over them.
     */
    void bounds(WindowPartitions p, int[] lo, int[] hi) {
        int n = lo.length;
        for (int i = 0; i < n; i++) {
            lo[i] = position(lower, p, i, false);
            hi[i] = position(upper, p, i, true);
        }
    }

    private int position(Bound b, WindowPartitions p, int i, boolean end) {
        int start = p.partitionStart(i);
        int stop = p.partitionEnd(i);
        long offset = Math.min(b.offset(), Integer.MAX_VALUE); // no partition is longer: no overflow below
        long at = switch (b.kind()) {
            case UNBOUNDED_PRECEDING -> start;
            case UNBOUNDED_FOLLOWING -> stop;
            case CURRENT_ROW -> rows ? (end ? i + 1 : i) : (end ? p.peerEnd(i) : p.peerStart(i));
            case PRECEDING -> (long) i - offset + (end ? 1 : 0);
            case FOLLOWING -> (long) i + offset + (end ? 1 : 0);
        };
        return (int) Math.max(start, Math.min(stop, at));
    }
}
