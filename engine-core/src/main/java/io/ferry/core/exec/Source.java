package io.ferry.core.exec;

import java.util.List;
import java.util.function.Consumer;

import io.ferry.core.gen.RowGenerator;
import io.ferry.core.vector.Batch;

/**
 * Where a pipeline's batches come from, cut into morsels that driver threads claim one at a time
 * ({@link MorselClaims}).
 */
public interface Source {
    int morsels();

    void read(int morsel, Consumer<Batch> out);

    /** Which morsels of {@code [from, to)} the driver threads take: each once by default ({@link BlockSource#claims}). */
    default MorselClaims claims(int from, int to) {
        return MorselClaims.range(from, to);
    }

    /** Whether batches point into bytes that are valid only during {@link #read} (see {@link BlockSource}). */
    default boolean transientBytes() {
        return false;
    }

    static Source of(List<Batch> batches) {
        return new Source() {
            @Override
            public int morsels() {
                return batches.size();
            }

            @Override
            public void read(int morsel, Consumer<Batch> out) {
                out.accept(batches.get(morsel));
            }
        };
    }

    /** The rows of {@code generator}, a morsel of it per morsel: threads make them in parallel. */
    static Source of(RowGenerator generator) {
        return new Source() {
            @Override
            public int morsels() {
                return generator.morsels();
            }

            @Override
            public void read(int morsel, Consumer<Batch> out) {
                out.accept(generator.morsel(morsel));
            }
        };
    }
}
