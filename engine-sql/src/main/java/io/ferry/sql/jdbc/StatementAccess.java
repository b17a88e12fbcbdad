package io.ferry.sql.jdbc;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.sql.SqlKind;

import io.ferry.sql.access.Privilege;
import io.ferry.sql.access.TableAccess;
import io.ferry.sql.schema.FerrySchema;
import io.ferry.sql.schema.FerryView;

/**
 * Collects, while a statement is converted to relational algebra, the tables it reads and the table it changes: the
 * {@link TableAccess} its plan keeps. A view is read as itself; the tables of its query are the view's business, as in
 * PostgreSQL, where a view runs with its owner's rights (here an admin's, who alone create views).
 */
final class StatementAccess {
    private static final ThreadLocal<StatementAccess> CURRENT = new ThreadLocal<>();

    private final Set<TableAccess.Need> needs = new HashSet<>();
    /** How many views are being expanded: the tables read inside one are not the statement's. */
    private int viewDepth;

    private StatementAccess() {
    }

    /** Runs {@code planning}, collecting what it reads and changes. */
    static <T> T collect(Supplier<T> planning, TableAccess[] into) {
        StatementAccess outer = CURRENT.get();
        StatementAccess access = new StatementAccess();
        CURRENT.set(access);
        try {
            return planning.get();
        } finally {
            into[0] = new TableAccess(access.needs);
            CURRENT.set(outer);
        }
    }

    /** {@code converting} turns a reference to {@code table} into relational algebra. */
    static <T> T reading(RelOptTable table, Supplier<T> converting) {
        StatementAccess access = CURRENT.get();
        if (access == null) {
            return converting.get();
        }
        boolean view = table.maybeUnwrap(FerryView.class).isPresent();
        if (access.viewDepth == 0) {
            access.add(table, Privilege.SELECT);
        }
        if (!view) {
            return converting.get();
        }
        access.viewDepth++;
        try {
            return converting.get();
        } finally {
            access.viewDepth--;
        }
    }

    /** {@code table} is the target of a statement of {@code kind} (INSERT, UPDATE, DELETE or MERGE). */
    static void changing(RelOptTable table, SqlKind kind) {
        StatementAccess access = CURRENT.get();
        if (access == null || access.viewDepth > 0) {
            return;
        }
        switch (kind) {
            case INSERT -> access.add(table, Privilege.INSERT);
            case UPDATE -> access.add(table, Privilege.UPDATE);
            case DELETE -> access.add(table, Privilege.DELETE);
            case MERGE -> {
                access.add(table, Privilege.UPDATE);
                access.add(table, Privilege.INSERT);
            }
            default -> throw new IllegalArgumentException("not a change of a table: " + kind);
        }
    }

    /** Only the tables and views of the catalog need grants; sys and information_schema are everyone's. */
    private void add(RelOptTable table, Privilege privilege) {
        List<String> names = table.getQualifiedName();
        if (names.size() >= 2 && FerrySchema.NAME.equals(names.get(names.size() - 2))) {
            needs.add(new TableAccess.Need(names.get(names.size() - 1), privilege));
        }
    }
}
