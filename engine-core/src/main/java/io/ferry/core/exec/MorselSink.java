package io.ferry.core.exec;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.ferry.core.vector.Batch;

/**
 * A thread's morsels of a streamed result, each morsel's batches decoded on the thread that made them and kept by
 * morsel, so the result can be put back in morsel order.
 */
public final class MorselSink implements Sink {
    private final Map<Integer, List<Batch>> done = new HashMap<>();
    private List<Batch> current;

    @Override
    public void morselStart(int morsel) {
        current = new ArrayList<>();
        done.put(morsel, current);
    }

    @Override
    public void consume(Batch batch) {
        current.add(batch.materialize());
    }

    @Override
    public boolean keepsRows() {
        return true;
    }

    /** Each morsel's batches, by morsel. */
    public Map<Integer, List<Batch>> byMorsel() {
        return done;
    }
}
