package io.ferry.core.expr;

import io.ferry.core.types.FerryType;

/** Column {@code index} of the input batch. */
public record InputRef(int index, FerryType type) implements Expr {
}
