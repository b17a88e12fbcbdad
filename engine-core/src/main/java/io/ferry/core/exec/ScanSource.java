package io.ferry.core.exec;

import java.util.List;
import java.util.function.Consumer;

import io.ferry.core.storage.Block;
import io.ferry.core.storage.BlockReader;
import io.ferry.core.storage.TableData;
import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.PendingColumn;
import io.ferry.core.vector.Vector;

/**
 * Reads a table version block by block (one block = one morsel). Columns are decoded when an operator first
 * reads them, and only for the rows that reached it (see {@link Batch}).
 * SYSTEM sampling skips unchosen blocks before touching their bytes; BERNOULLI decides row by row.
 */
final class ScanSource implements Source {
    private final TableData data;
    private final int[] columns;
    private final List<FerryType> types;
    private final SampleSpec sample;
    private final long rowThreshold;

    ScanSource(TableData data, int[] columns, List<FerryType> types, SampleSpec sample) {
        this.data = data;
        this.columns = columns;
        this.types = types;
        this.sample = sample;
        this.rowThreshold = sample == null ? 0 : sample.threshold();
    }

    @Override
    public int morsels() {
        return data.blocks().size();
    }

    @Override
    public void read(int morsel, Consumer<Batch> out) {
        if (sample != null && sample.method() == SampleSpec.Method.SYSTEM && !sample.keepBlock(morsel)) {
            return;
        }
        Block block = data.blocks().get(morsel);
        BlockReader reader = block.reader();
        int rows = reader.rowCount();
        for (int from = 0; from < rows; from += Vector.MAX_ROWS) {
            int count = Math.min(Vector.MAX_ROWS, rows - from);
            PendingColumn[] cols = new PendingColumn[columns.length];
            for (int c = 0; c < columns.length; c++) {
                cols[c] = reader.pending(columns[c], types.get(c), from, count);
            }
            Batch batch = Batch.pending(count, cols);
            if (sample != null && sample.method() == SampleSpec.Method.BERNOULLI) {
                batch = bernoulli(batch, morsel, from);
            }
            if (batch.rowCount() > 0) {
                out.accept(batch);
            }
        }
    }

    private Batch bernoulli(Batch batch, int block, int firstRow) {
        int n = batch.rowCount();
        boolean[] keep = new boolean[n];
        int count = 0;
        for (int i = 0; i < n; i++) {
            if (sample.keepRow(block, firstRow + i, rowThreshold)) {
                keep[i] = true;
                count++;
            }
        }
        return batch.compact(keep, count);
    }
}
