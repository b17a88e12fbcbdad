package io.ferry.core.expr;

import java.util.List;

import io.ferry.core.types.FerryType;

/** An operator applied to arguments; {@code type} is the result type. */
public record Call(Op op, List<Expr> args, FerryType type) implements Expr {
    public Call {
        args = List.copyOf(args);
    }

    public Expr arg(int i) {
        return args.get(i);
    }
}
