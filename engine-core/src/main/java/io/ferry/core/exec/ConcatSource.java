package io.ferry.core.exec;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

import io.ferry.core.vector.Batch;

/**
 * The morsels of several sources one after another: a UNION ALL's inputs read as one source, so the threads of one
 * pipeline claim morsels from all inputs and the operator above sees a single stream. Morsel {@code m} is morsel
 * {@code m - first(b)} of input {@code b}, so a block stays one morsel, as operators that count per morsel need.
 */
final class ConcatSource implements Source {
    /** Carries input {@code branch}'s batch through that input's own transforms and on to {@code out}. */
    @FunctionalInterface
    interface Branches {
        void push(int branch, Batch batch, Consumer<Batch> out);
    }

    private final List<Source> sources;
    private final Branches branches;
    /** Where each input's morsels start; one more entry, the total, at the end. */
    private final int[] first;
    private final boolean transientBytes;

    ConcatSource(List<Source> sources, Branches branches) {
        this.sources = List.copyOf(sources);
        this.branches = requireNonNull(branches, "branches is null");
        this.first = new int[sources.size() + 1];
        boolean anyTransient = false;
        for (int i = 0; i < sources.size(); i++) {
            first[i + 1] = first[i] + sources.get(i).morsels();
            anyTransient |= sources.get(i).transientBytes();
        }
        this.transientBytes = anyTransient;
    }

    @Override
    public int morsels() {
        return first[first.length - 1];
    }

    /** True when any input's is: the pipeline then treats every batch as transient, which is only more careful. */
    @Override
    public boolean transientBytes() {
        return transientBytes;
    }

    @Override
    public void read(int morsel, Consumer<Batch> out) {
        int found = Arrays.binarySearch(first, morsel);
        // an exact hit can be the start of an input after empty ones: the last input that starts here holds it
        int branch = found >= 0 ? found : -found - 2;
        while (branch + 1 < sources.size() && first[branch + 1] == morsel) {
            branch++;
        }
        int b = branch;
        sources.get(b).read(morsel - first[b], batch -> branches.push(b, batch, out));
    }
}
