package io.ferry.core.exec;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Which morsel a pipeline's driver thread takes next. Threads pull their work one morsel at a time as they free up,
 * so a slow morsel does not hold back the others (morsel-driven scheduling); a runtime that hands work out from
 * elsewhere — a work queue other nodes steal from (I-Store skew paper section 4) — supplies its own claims.
 */
public interface MorselClaims {
    /** The next morsel to run, or -1 when none is left. Called by several threads at once. */
    int claim();

    /** Morsels {@code [from, to)} in order, each claimed once. */
    static MorselClaims range(int from, int to) {
        AtomicInteger next = new AtomicInteger(from);
        return () -> {
            int m = next.getAndIncrement();
            return m < to ? m : -1;
        };
    }
}
