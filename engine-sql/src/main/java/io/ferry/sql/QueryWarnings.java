package io.ferry.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Warnings of the statements a thread executes, for a server to hand to its client (the JDBC server's
 * {@code /ferry/warnings}): Calcite's embedded statements have no warnings of their own to carry them. A query reports
 * as it runs; nothing is kept unless the thread is collecting.
 */
public final class QueryWarnings {
    private static final ThreadLocal<List<String>> COLLECTING = new ThreadLocal<>();

    private QueryWarnings() {
    }

    /** Starts collecting this thread's warnings into the returned list, until {@link #stop}. */
    public static List<String> collect() {
        List<String> into = new ArrayList<>();
        COLLECTING.set(into);
        return into;
    }

    public static void stop() {
        COLLECTING.remove();
    }

    /** Adds warnings of the statement running on this thread, worked out only if anyone collects them. */
    public static void report(Supplier<List<String>> warnings) {
        List<String> into = COLLECTING.get();
        if (into != null) {
            into.addAll(warnings.get());
        }
    }
}
