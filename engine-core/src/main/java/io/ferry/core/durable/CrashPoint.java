package io.ferry.core.durable;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where a test may kill the process as {@code kill -9} would, to prove a change killed part-way is restarted as it
 * was before or after it: with {@code -Dferry.test.crash-at=POINT} (or {@code POINT:N}) the process halts, without
 * running shutdown hooks or closing a file, the first (or N-th) time it reaches POINT. Unset, a point costs a
 * comparison.
 */
final class CrashPoint {
    /** After a data file was written and forced to disk, before any manifest names it. */
    static final String FILE_WRITTEN = "file-written";
    /** After the next manifest was written beside the current one, before it replaces it. */
    static final String MANIFEST_WRITTEN = "manifest-written";
    /** After the next manifest replaced the current one, before the change is visible. */
    static final String MANIFEST_RENAMED = "manifest-renamed";
    /** The exit status of a halted process. */
    static final int STATUS = 137;

    private static final String SPEC = System.getProperty("ferry.test.crash-at", "");
    private static final String AT = SPEC.contains(":") ? SPEC.substring(0, SPEC.indexOf(':')) : SPEC;
    private static final AtomicInteger LEFT = new AtomicInteger(SPEC.contains(":")
            ? Integer.parseInt(SPEC.substring(SPEC.indexOf(':') + 1)) : 1);

    private CrashPoint() {
    }

    static void reached(String point) {
        if (point.equals(AT) && LEFT.decrementAndGet() == 0) {
            Runtime.getRuntime().halt(STATUS);
        }
    }
}
