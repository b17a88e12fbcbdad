package io.ferry.bench.fuzz;

import static java.util.Objects.requireNonNull;

/**
 * A column of a generated table. The role says which values it holds and so where the generator may use it: only
 * PLAIN numbers take part in arithmetic, since EDGE columns hold each type's extremes and would overflow.
 */
public record ColumnDef(String name, SqlType type, String ddlType, Role role) {
    public enum Role {
        /** Unique and never NULL: a window's ROW_NUMBER orders by the ids of every table it reads. */
        ID,
        /** Few distinct values, shared by every table, so that equality joins find matches. */
        KEY,
        /** Small values and NULLs: safe in arithmetic. */
        PLAIN,
        /** Each type's extremes (MIN/MAX of integers, huge and tiny doubles) and NULLs: compared, never computed on. */
        EDGE
    }

    public ColumnDef {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
        requireNonNull(ddlType, "ddlType is null");
        requireNonNull(role, "role is null");
    }

    public String definition() {
        return name + " " + ddlType + (role == Role.ID ? " NOT NULL" : "");
    }
}
