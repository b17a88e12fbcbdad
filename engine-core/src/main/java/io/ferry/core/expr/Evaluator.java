package io.ferry.core.expr;

import io.ferry.core.vector.Batch;
import io.ferry.core.vector.Vector;

/** A compiled expression: one call computes the expression for every row of a batch. */
@FunctionalInterface
public interface Evaluator {
    Vector eval(Batch batch);
}
