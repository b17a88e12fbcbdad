package io.ferry.core.exec;

import java.util.List;
import java.util.function.Consumer;

import io.ferry.core.storage.BlockReader;
import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.PendingColumn;
import io.ferry.core.vector.Vector;

/**
 * Reads the blocks a {@link BlockSource} binds, one block per morsel. Columns are decoded when an operator first
 * reads them, and only for the rows that reached it (see {@link Batch}). SYSTEM sampling has already left out the
 * unchosen blocks (the binder never reads them); BERNOULLI decides row by row, keyed on the block's position in its
 * table, so the sample is the same wherever the block is read.
 */
final class ScanSource implements Source {
    private final BlockSource blocks;
    private final int[] columns;
    private final List<FerryType> types;
    private final SampleSpec bernoulli;
    private final long rowThreshold;

    ScanSource(BlockSource blocks, int[] columns, List<FerryType> types, SampleSpec sample) {
        this.blocks = blocks;
        this.columns = columns;
        this.types = types;
        this.bernoulli = sample != null && sample.method() == SampleSpec.Method.BERNOULLI ? sample : null;
        this.rowThreshold = bernoulli == null ? 0 : bernoulli.threshold();
    }

    @Override
    public int morsels() {
        return blocks.blockCount();
    }

    @Override
    public boolean transientBytes() {
        return blocks.transientBytes();
    }

    @Override
    public MorselClaims claims(int from, int to) {
        return blocks.claims(from, to);
    }

    @Override
    public void read(int morsel, Consumer<Batch> out) {
        blocks.read(morsel, (position, reader) -> emit(position, reader, out));
    }

    private void emit(int position, BlockReader reader, Consumer<Batch> out) {
        int rows = reader.rowCount();
        for (int from = 0; from < rows; from += Vector.MAX_ROWS) {
            int count = Math.min(Vector.MAX_ROWS, rows - from);
            PendingColumn[] cols = new PendingColumn[columns.length];
            for (int c = 0; c < columns.length; c++) {
                cols[c] = reader.pending(columns[c], types.get(c), from, count);
            }
            Batch batch = Batch.pending(count, cols);
            if (bernoulli != null) {
                batch = sampleRows(batch, position, from);
            }
            if (batch.rowCount() > 0) {
                out.accept(batch);
            }
        }
    }

    private Batch sampleRows(Batch batch, int block, int firstRow) {
        int n = batch.rowCount();
        boolean[] keep = new boolean[n];
        int count = 0;
        for (int i = 0; i < n; i++) {
            if (bernoulli.keepRow(block, firstRow + i, rowThreshold)) {
                keep[i] = true;
                count++;
            }
        }
        return batch.compact(keep, count);
    }
}
