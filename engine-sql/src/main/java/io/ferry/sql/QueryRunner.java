package io.ferry.sql;

import java.util.List;

import io.ferry.core.exec.BatchStream;
import io.ferry.core.exec.PlanNode;
import io.ferry.core.exec.QueryContext;

/**
 * Runs the Ferry part of a statement. A local engine runs it on its own executor; a cluster's coordinator spreads it
 * over the nodes that hold the data, deciding per node whether to ship the function or the data.
 */
public interface QueryRunner {
    /**
     * The plan's rows, made as they are read where the runner can ({@link io.ferry.core.exec.QueryExecutor#stream});
     * the caller closes the stream.
     */
    BatchStream run(PlanNode plan, QueryContext ctx, SessionSettings session);

    /** Lines EXPLAIN shows under the plan: how it would run now, and why. */
    default List<String> explain(PlanNode plan, SessionSettings session) {
        return List.of();
    }
}
