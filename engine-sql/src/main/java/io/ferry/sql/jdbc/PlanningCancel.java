package io.ferry.sql.jdbc;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.calcite.tools.Program;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;

/**
 * The flag that stops the statement this thread is planning. Calcite's prepare context does not know which
 * statement it plans for, so whoever runs a statement (the JDBC server, for its clients' requests) names the flag
 * here: the statement's cancel flag, which cancel, a query timeout and a client that went away all set. Calcite's
 * Volcano planner polls it before every rule it fires (its {@code CancelFlag} context); Ferry's planning program
 * polls it between phases ({@link #checked}). A statement planned with no flag named plans to the end.
 */
public final class PlanningCancel {
    private static final ThreadLocal<AtomicBoolean> FLAG = new ThreadLocal<>();

    private PlanningCancel() {
    }

    /** Work done while a flag is named. */
    public interface Work<T, E extends Exception> {
        T run() throws E;
    }

    /** Runs {@code work} with {@code flag} stopping whatever it plans on this thread. */
    public static <T, E extends Exception> T watching(AtomicBoolean flag, Work<T, E> work) throws E {
        requireNonNull(flag, "flag is null");
        AtomicBoolean outer = FLAG.get();
        FLAG.set(flag);
        try {
            return work.run();
        } finally {
            FLAG.set(outer);
        }
    }

    /** The flag named for this thread; a fresh one nobody sets if none is. */
    static AtomicBoolean current() {
        AtomicBoolean flag = FLAG.get();
        return flag != null ? flag : new AtomicBoolean();
    }

    /** Throws 57014 if the statement this thread plans was stopped. */
    static void check() {
        if (stopped()) {
            throw cancelled(null);
        }
    }

    /** True if the statement this thread plans was stopped. */
    static boolean stopped() {
        AtomicBoolean flag = FLAG.get();
        return flag != null && flag.get();
    }

    /** The error a statement stopped while it was planned fails with. */
    static FerryException cancelled(Throwable cause) {
        return new FerryException(SqlStates.QUERY_CANCELED, "query cancelled while it was planned (by the client, "
                + "its query timeout, its client going away or the server stopping)", cause);
    }

    /** {@code program}, which first checks that the statement was not stopped. */
    static Program checked(Program program) {
        return (planner, rel, traits, materializations, lattices) -> {
            check();
            return program.run(planner, rel, traits, materializations, lattices);
        };
    }
}
