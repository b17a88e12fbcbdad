package io.ferry.core;

import java.util.Locale;

/** Byte counts as people read them: {@code 512 B}, {@code 64 KiB}, {@code 1.5 GiB} (powers of 1024). */
public final class ByteSizes {
    private ByteSizes() {
    }

    public static String format(long n) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        double v = n;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return v == Math.rint(v) ? String.format(Locale.ROOT, "%d %s", (long) v, units[u])
                : String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }
}
