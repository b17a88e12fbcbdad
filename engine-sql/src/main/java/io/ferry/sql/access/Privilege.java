package io.ferry.sql.access;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/** What a user may do to a table, as GRANT gives it. */
public enum Privilege {
    SELECT, INSERT, UPDATE, DELETE;

    /** {@code ALL [PRIVILEGES]}. */
    public static Set<Privilege> all() {
        return EnumSet.allOf(Privilege.class);
    }

    /** The word as SQL and sys.grants spell it. */
    public String sql() {
        return name();
    }

    static Privilege parse(String word) {
        return valueOf(word.trim().toUpperCase(Locale.ROOT));
    }
}
