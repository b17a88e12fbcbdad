package io.ferry.core.exec;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.LongVector;

/**
 * {@link PlanNode.Replicate}'s step: each row as many times as its count column says. One pass sums the counts, a
 * second writes the positions of the rows to keep, and the batch is gathered once; a batch whose counts are all 1
 * passes through as it is.
 */
final class Replicator implements Transform {
    private final int countColumn;

    Replicator(int countColumn) {
        this.countColumn = countColumn;
    }

    @Override
    public Batch apply(Batch in) {
        int n = in.rowCount();
        LongVector counts = (LongVector) in.column(countColumn);
        long[] values = counts.values();
        boolean[] nulls = counts.nulls();
        long total = 0;
        boolean allOnes = true;
        for (int i = 0; i < n; i++) {
            long c = nulls != null && nulls[i] ? 0 : Math.max(0, values[i]);
            total += c;
            allOnes &= c == 1;
        }
        if (allOnes) {
            return in;
        }
        if (total > Integer.MAX_VALUE - 8) {
            throw new FerryException(SqlStates.PROGRAM_LIMIT_EXCEEDED, "INTERSECT ALL or EXCEPT ALL would repeat "
                    + "one batch of rows " + total + " times, more than one batch can hold; remove ALL or narrow "
                    + "the inputs");
        }
        int[] positions = new int[(int) total];
        int out = 0;
        for (int i = 0; i < n; i++) {
            long c = nulls != null && nulls[i] ? 0 : values[i];
            for (long k = 0; k < c; k++) {
                positions[out++] = i;
            }
        }
        return in.gather(positions, out);
    }
}
