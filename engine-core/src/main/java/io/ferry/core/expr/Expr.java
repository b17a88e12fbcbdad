package io.ferry.core.expr;

import io.ferry.core.types.FerryType;

/**
 * A scalar expression over the columns of a batch. The SQL layer translates Calcite's RexNodes into these;
 * {@link ExprCompiler} turns them into vectorized {@link Evaluator}s.
 */
public sealed interface Expr permits InputRef, Literal, Call {
    FerryType type();
}
