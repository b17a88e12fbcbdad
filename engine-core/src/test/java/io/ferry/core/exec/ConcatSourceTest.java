package io.ferry.core.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.ferry.core.vector.Batch;
import io.ferry.core.vector.LongVector;

class ConcatSourceTest {
    /** A source of {@code morsels} one-row batches holding {@code input * 100 + morsel}. */
    private static Source numbered(int input, int morsels) {
        List<Batch> batches = new ArrayList<>();
        for (int m = 0; m < morsels; m++) {
            batches.add(Batch.of(LongVector.constant(input * 100L + m, 1)));
        }
        return Source.of(batches);
    }

    /** Empty inputs first, between and last: every morsel reaches its own input's branch once, in order. */
    @Test
    void morselsMapToTheirInputsPastEmptyOnes() {
        int[] sizes = {0, 2, 0, 0, 3, 1, 0};
        List<Source> sources = new ArrayList<>();
        for (int i = 0; i < sizes.length; i++) {
            sources.add(numbered(i, sizes[i]));
        }
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        ConcatSource concat = new ConcatSource(sources, (branch, batch, out) -> {
            seen.add(branch + ":" + ((LongVector) batch.column(0)).get(0));
            out.accept(batch);
        });
        assertEquals(6, concat.morsels());
        List<Long> values = new ArrayList<>();
        for (int m = 0; m < concat.morsels(); m++) {
            concat.read(m, b -> values.add(((LongVector) b.column(0)).get(0)));
        }
        assertEquals(List.of(100L, 101L, 400L, 401L, 402L, 500L), values);
        assertEquals(List.of("1:100", "1:101", "4:400", "4:401", "4:402", "5:500"), seen);
    }
}
