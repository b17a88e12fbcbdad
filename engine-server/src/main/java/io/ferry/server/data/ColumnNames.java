package io.ferry.server.data;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The column names a loader gives a table it creates from a file: each name as the file has it, trimmed and in
 * lower case (as an unquoted SQL name reads); {@code columnN} for a missing one; a repeated one numbered
 * ({@code a}, {@code a_2}).
 */
public final class ColumnNames {
    private ColumnNames() {
    }

    /** Names for columns named {@code raw} in the file (null entries: unnamed). */
    public static List<String> of(List<String> raw) {
        Set<String> taken = new HashSet<>();
        List<String> out = new ArrayList<>(raw.size());
        for (int c = 0; c < raw.size(); c++) {
            String name = raw.get(c) == null ? "" : raw.get(c).trim().toLowerCase(Locale.ROOT);
            if (name.isEmpty()) {
                name = "column" + (c + 1);
            }
            String unique = name;
            for (int k = 2; !taken.add(unique); k++) {
                unique = name + "_" + k;
            }
            out.add(unique);
        }
        return out;
    }
}
