package io.ferry.core.expr;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

import io.ferry.core.types.FerryType;
import io.ferry.core.types.Physical;
import io.ferry.core.types.TypeKind;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * Turns an {@link Expr} tree into an {@link Evaluator} tree once per query; the evaluators then run a tight
 * loop per operator over whole vectors. Operator and operand shape (column vs. constant) are decided here, not
 * per row.
 */
public final class ExprCompiler {
    private ExprCompiler() {
    }

    public static Evaluator compile(Expr expr) {
        if (expr instanceof InputRef ref) {
            int index = ref.index();
            return b -> b.column(index);
        }
        if (expr instanceof Literal lit) {
            return constant(lit);
        }
        return compileCall((Call) expr);
    }

    public static List<Evaluator> compileAll(List<Expr> exprs) {
        List<Evaluator> out = new ArrayList<>(exprs.size());
        for (Expr e : exprs) {
            out.add(compile(e));
        }
        return out;
    }

    private static Evaluator constant(Literal lit) {
        Object v = lit.value();
        Physical p = lit.type().physical();
        if (v == null) {
            return b -> Vector.allNull(p, b.rowCount());
        }
        // One array of a batch's worth of the value, shared by every batch's vector: vectors are read, never
        // written, and a vector reads only its first rowCount values, so a batch costs no fill of 4096 values. It
        // is made by the first batch that needs it: folding a constant while planning evaluates one row, and a
        // VALUES list of 1000 rows folds 1000 casts of literals (32 KiB filled for each was most of its planning).
        return switch (p) {
            case LONG -> {
                long x = (Long) v;
                SharedFill<long[]> shared = new SharedFill<>(() -> {
                    long[] values = new long[Vector.MAX_ROWS];
                    Arrays.fill(values, x);
                    return values;
                });
                yield b -> b.rowCount() < SharedFill.FROM_ROWS || b.rowCount() > Vector.MAX_ROWS
                        ? LongVector.constant(x, b.rowCount())
                        : new LongVector(shared.get(), null, b.rowCount());
            }
            case DOUBLE -> {
                double x = (Double) v;
                SharedFill<double[]> shared = new SharedFill<>(() -> {
                    double[] values = new double[Vector.MAX_ROWS];
                    Arrays.fill(values, x);
                    return values;
                });
                yield b -> {
                    if (b.rowCount() >= SharedFill.FROM_ROWS && b.rowCount() <= Vector.MAX_ROWS) {
                        return new DoubleVector(shared.get(), null, b.rowCount());
                    }
                    double[] d = new double[b.rowCount()];
                    Arrays.fill(d, x);
                    return new DoubleVector(d, null, b.rowCount());
                };
            }
            case BYTES -> {
                byte[] x = lit.bytes();
                yield b -> BytesVector.constant(x, b.rowCount());
            }
        };
    }

    private static Evaluator compileCall(Call call) {
        Op op = call.op();
        List<Expr> args = call.args();
        FerryType type = call.type();
        switch (op) {
            case PLUS, MINUS, TIMES, DIVIDE, MOD -> {
                Evaluator a = compile(args.get(0));
                Evaluator b = compile(args.get(1));
                FerryType ta = args.get(0).type();
                FerryType tb = args.get(1).type();
                if (type.physical() == Physical.DOUBLE) {
                    return batch -> ArithmeticKernels.doubleOp(op, (DoubleVector) a.eval(batch),
                            (DoubleVector) b.eval(batch), batch.rowCount());
                }
                if (type.isWideDecimal() || WideDecimalKernels.involved(ta, tb)) {
                    return wideArithmetic(op, a, b, scale(ta), scale(tb), type);
                }
                if ((op == Op.PLUS || op == Op.MINUS) && ArithmeticKernels.sumFits(ta, tb, type)) {
                    return batch -> ArithmeticKernels.exactSum(op == Op.MINUS, (LongVector) a.eval(batch),
                            (LongVector) b.eval(batch), batch.rowCount());
                }
                if (type.kind() == TypeKind.DECIMAL && op == Op.TIMES
                        && ArithmeticKernels.productFits(ta, tb, type)) {
                    return batch -> ArithmeticKernels.exactTimes((LongVector) a.eval(batch),
                            (LongVector) b.eval(batch), batch.rowCount());
                }
                if (type.kind() == TypeKind.DECIMAL && op == Op.TIMES) {
                    return batch -> ArithmeticKernels.decimalTimes((LongVector) a.eval(batch),
                            (LongVector) b.eval(batch), scale(ta), scale(tb), type, batch.rowCount());
                }
                if (type.kind() == TypeKind.DECIMAL && op == Op.DIVIDE) {
                    return batch -> ArithmeticKernels.decimalDivide((LongVector) a.eval(batch),
                            (LongVector) b.eval(batch), scale(ta), scale(tb), type, batch.rowCount());
                }
                return batch -> ArithmeticKernels.longOp(op, (LongVector) a.eval(batch), (LongVector) b.eval(batch),
                        type, batch.rowCount());
            }
            case NEGATE, ABS -> {
                Evaluator a = compile(args.get(0));
                if (WideDecimalKernels.involved(args.get(0).type(), type)) {
                    return batch -> WideDecimalKernels.negateOrAbs(op == Op.ABS, a.eval(batch), type,
                            batch.rowCount());
                }
                return op == Op.ABS ? batch -> ArithmeticKernels.abs(a.eval(batch), type, batch.rowCount())
                        : batch -> ArithmeticKernels.negate(a.eval(batch), type, batch.rowCount());
            }
            case EQ, NE, LT, LE, GT, GE -> {
                return comparison(op, args.get(0), args.get(1));
            }
            case AND, OR -> {
                List<Evaluator> parts = compileAll(args);
                return batch -> {
                    LongVector acc = (LongVector) parts.get(0).eval(batch);
                    for (int i = 1; i < parts.size(); i++) {
                        LongVector next = (LongVector) parts.get(i).eval(batch);
                        acc = op == Op.AND ? LogicKernels.and(acc, next, batch.rowCount())
                                : LogicKernels.or(acc, next, batch.rowCount());
                    }
                    return acc;
                };
            }
            case NOT -> {
                Evaluator a = compile(args.get(0));
                return batch -> LogicKernels.not((LongVector) a.eval(batch), batch.rowCount());
            }
            case IS_NULL, IS_NOT_NULL, IS_TRUE, IS_FALSE, IS_NOT_TRUE, IS_NOT_FALSE -> {
                Evaluator a = compile(args.get(0));
                return batch -> LogicKernels.test(op, a.eval(batch), batch.rowCount());
            }
            case CAST -> {
                Evaluator a = compile(args.get(0));
                FerryType from = args.get(0).type();
                return batch -> CastKernels.cast(a.eval(batch), from, type, batch.rowCount());
            }
            case TRY_CAST -> {
                Evaluator a = compile(args.get(0));
                FerryType from = args.get(0).type();
                return batch -> CastKernels.tryCast(a.eval(batch), from, type, batch.rowCount());
            }
            case CASE -> {
                return new CaseEvaluator(compileAll(args), type.physical(), CaseEvaluator.blends(args));
            }
            case COALESCE -> {
                List<Evaluator> parts = compileAll(args);
                return batch -> coalesce(parts, batch, type.physical());
            }
            case LIKE -> {
                Evaluator a = compile(args.get(0));
                String pattern = (String) ((Literal) args.get(1)).value();
                Character escape = args.size() > 2 ? ((String) ((Literal) args.get(2)).value()).charAt(0) : null;
                LikeMatcher m = new LikeMatcher(pattern, escape);
                return batch -> m.match((BytesVector) a.eval(batch), batch.rowCount());
            }
            case IN -> {
                return InList.compile(compile(args.get(0)), args.subList(1, args.size()), args.get(0).type());
            }
            case DATE_PART, DATE_TRUNC -> {
                DatePart unit = unit(call);
                Evaluator a = compile(args.get(1));
                boolean date = args.get(1).type().kind() == TypeKind.DATE;
                return op == Op.DATE_PART
                        ? batch -> DateKernels.part(unit, (LongVector) a.eval(batch), date, batch.rowCount())
                        : batch -> DateKernels.trunc(unit, (LongVector) a.eval(batch), date, batch.rowCount());
            }
            case DATE_DIFF -> {
                DatePart unit = unit(call);
                Evaluator a = compile(args.get(1));
                Evaluator b = compile(args.get(2));
                boolean aDate = args.get(1).type().kind() == TypeKind.DATE;
                boolean bDate = args.get(2).type().kind() == TypeKind.DATE;
                return batch -> DateKernels.diff(unit, (LongVector) a.eval(batch), aDate, (LongVector) b.eval(batch),
                        bDate, batch.rowCount());
            }
            case PLUS_MILLIS, PLUS_MONTHS -> {
                Evaluator a = compile(args.get(0));
                Evaluator b = compile(args.get(1));
                boolean date = args.get(0).type().kind() == TypeKind.DATE;
                return op == Op.PLUS_MONTHS
                        ? batch -> DateKernels.plusMonths((LongVector) a.eval(batch), date, (LongVector) b.eval(batch),
                                batch.rowCount())
                        : batch -> DateKernels.plusMillis((LongVector) a.eval(batch), date, (LongVector) b.eval(batch),
                                batch.rowCount());
            }
            case MONTHS_BETWEEN -> {
                Evaluator a = compile(args.get(0));
                Evaluator b = compile(args.get(1));
                boolean aDate = args.get(0).type().kind() == TypeKind.DATE;
                boolean bDate = args.get(1).type().kind() == TypeKind.DATE;
                return batch -> DateKernels.monthsBetween((LongVector) a.eval(batch), aDate, (LongVector) b.eval(batch),
                        bDate, batch.rowCount());
            }
            case UPPER, LOWER, SUBSTRING, CONCAT, CHAR_LENGTH, CONCAT_WS, REPEAT, ASCII, CHR, MD5, STARTS_WITH,
                    ENDS_WITH, TRANSLATE, OVERLAY, REVERSE, POSITION -> {
                return StringKernels.compile(op, compileAll(args));
            }
            case REGEXP_FULL_MATCH, REGEXP_EXTRACT, REGEXP_SUBSTR -> {
                Evaluator a = compile(args.get(0));
                RegexKernels regex = new RegexKernels(op, (String) ((Literal) args.get(1)).value());
                List<Evaluator> extra = compileAll(args.subList(2, args.size()));
                return batch -> {
                    LongVector[] values = new LongVector[extra.size()];
                    for (int i = 0; i < values.length; i++) {
                        values[i] = (LongVector) extra.get(i).eval(batch);
                    }
                    return regex.eval((BytesVector) a.eval(batch), values, batch.rowCount());
                };
            }
            case LEFT, RIGHT, LPAD, RPAD, REPLACE, LTRIM, RTRIM, BTRIM, SPLIT_PART, INITCAP, OCTET_LENGTH, INSTR -> {
                return StringEditKernels.compile(op, compileAll(args));
            }
            case REGEXP_LIKE, REGEXP_REPLACE -> {
                Evaluator a = compile(args.get(0));
                String flags = (String) ((Literal) args.get(args.size() - 1)).value();
                RegexKernels regex = new RegexKernels(op, (String) ((Literal) args.get(1)).value(), flags);
                if (op == Op.REGEXP_LIKE) {
                    return batch -> regex.like((BytesVector) a.eval(batch), batch.rowCount());
                }
                Evaluator replacement = compile(args.get(2));
                // a constant replacement is parsed once; one from a column, per row
                RegexRewrite rewrite = args.get(2) instanceof Literal lit && lit.value() != null
                        ? regex.rewrite((String) lit.value()) : null;
                return batch -> regex.replace((BytesVector) a.eval(batch), (BytesVector) replacement.eval(batch),
                        rewrite, batch.rowCount());
            }
            case SIN, COS, TAN, ASIN, ACOS, ATAN, COT, DEGREES, RADIANS, CBRT, LOG, LOG2, ATAN2 -> {
                return doubleFunction(op, args);
            }
            case SIGN -> {
                Evaluator a = compile(args.get(0));
                if (WideDecimalKernels.involved(args.get(0).type(), type)) {
                    return batch -> WideDecimalKernels.sign(a.eval(batch), type, batch.rowCount());
                }
                return batch -> MathKernels.sign(a.eval(batch), type, batch.rowCount());
            }
            case ROUND, TRUNCATE -> {
                Evaluator a = compile(args.get(0));
                Evaluator digits = compile(args.get(1));
                if (WideDecimalKernels.involved(args.get(0).type(), type)) {
                    return batch -> WideDecimalKernels.round(a.eval(batch), (LongVector) digits.eval(batch), type,
                            op == Op.TRUNCATE, batch.rowCount());
                }
                return batch -> RoundingKernels.round(a.eval(batch), (LongVector) digits.eval(batch), type,
                        op == Op.TRUNCATE, batch.rowCount());
            }
            case CEIL, FLOOR -> {
                Evaluator a = compile(args.get(0));
                FerryType from = args.get(0).type();
                if (WideDecimalKernels.involved(from, type)) {
                    return batch -> WideDecimalKernels.ceilOrFloor(a.eval(batch), op == Op.CEIL, from, type,
                            batch.rowCount());
                }
                int scale = scale(from);
                return batch -> RoundingKernels.ceilOrFloor(a.eval(batch), op == Op.CEIL, scale, batch.rowCount());
            }
            case SQRT, EXP, LN, POWER -> {
                return doubleFunction(op, args);
            }
            case FLOOR_TO, CEIL_TO -> {
                DatePart unit = unit(call);
                Evaluator a = compile(args.get(1));
                boolean date = args.get(1).type().kind() == TypeKind.DATE;
                return batch -> DateKernels.floorOrCeil(unit, op == Op.CEIL_TO, (LongVector) a.eval(batch), date,
                        batch.rowCount());
            }
            case LAST_DAY, DAYNAME, MONTHNAME -> {
                Evaluator a = compile(args.get(0));
                boolean date = args.get(0).type().kind() == TypeKind.DATE;
                return op == Op.LAST_DAY
                        ? batch -> DateKernels.lastDay((LongVector) a.eval(batch), date, batch.rowCount())
                        : batch -> DateKernels.name((LongVector) a.eval(batch), date, op == Op.MONTHNAME,
                                batch.rowCount());
            }
            case RANDOM -> {
                return batch -> MathKernels.random(batch.rowCount());
            }
            case SINGLE_ROW -> {
                Evaluator count = compile(args.get(0));
                Evaluator value = compile(args.get(1));
                return batch -> {
                    SingleRows.check((LongVector) count.eval(batch), batch.rowCount());
                    return value.eval(batch);
                };
            }
            case CURRENT_DATE, CURRENT_TIMESTAMP, PARAMETER -> throw new IllegalStateException(op
                    + " must be bound to the statement's values (StatementValues) before the plan is compiled");
            default -> throw new IllegalArgumentException("no kernel for " + op);
        }
    }

    /** +, -, *, / or % where an operand or the result is a wide DECIMAL (operands of + and - at its scale). */
    private static Evaluator wideArithmetic(Op op, Evaluator a, Evaluator b, int scaleA, int scaleB, FerryType type) {
        return switch (op) {
            case PLUS, MINUS -> batch -> WideDecimalKernels.plusOrMinus(op == Op.MINUS, a.eval(batch), b.eval(batch),
                    type, batch.rowCount());
            case TIMES -> batch -> WideDecimalKernels.times(a.eval(batch), b.eval(batch), scaleA, scaleB, type,
                    batch.rowCount());
            default -> batch -> WideDecimalKernels.divideOrModulo(op == Op.MOD, a.eval(batch), b.eval(batch),
                    scaleA, scaleB, type, batch.rowCount());
        };
    }

    /** A {@link MathKernels} function of one or two DOUBLEs. */
    private static Evaluator doubleFunction(Op op, List<Expr> args) {
        Evaluator a = compile(args.get(0));
        if (args.size() == 1) {
            return batch -> MathKernels.unary(op, (DoubleVector) a.eval(batch), batch.rowCount());
        }
        Evaluator b = compile(args.get(1));
        return batch -> MathKernels.binary(op, (DoubleVector) a.eval(batch), (DoubleVector) b.eval(batch),
                batch.rowCount());
    }

    /** The unit of a DATE_PART, DATE_TRUNC, DATE_DIFF, FLOOR_TO or CEIL_TO call, checked once when the expression is compiled. */
    private static DatePart unit(Call call) {
        String name = (String) ((Literal) call.arg(0)).value();
        return DatePart.of(name, call.op().name(), call.op() != Op.DATE_PART);
    }

    private static int scale(FerryType t) {
        return t.kind() == TypeKind.DECIMAL ? t.scale() : 0;
    }

    private static Evaluator comparison(Op op, Expr left, Expr right) {
        if (left instanceof Literal && !(right instanceof Literal)) {
            return comparison(op.swapped(), right, left);
        }
        Evaluator a = compile(left);
        Physical p = left.type().physical();
        if (right instanceof Literal lit && lit.value() != null) {
            switch (p) {
                case LONG -> {
                    long y = (Long) lit.value();
                    return batch -> ComparisonKernels.longConst(op, (LongVector) a.eval(batch), y, batch.rowCount());
                }
                case BYTES -> {
                    byte[] y = lit.bytes();
                    return batch -> ComparisonKernels.bytesConst(op, (BytesVector) a.eval(batch), y, batch.rowCount());
                }
                default -> {
                }
            }
        }
        Evaluator b = compile(right);
        return switch (p) {
            case LONG -> batch -> ComparisonKernels.longs(op, (LongVector) a.eval(batch), (LongVector) b.eval(batch),
                    batch.rowCount());
            case DOUBLE -> batch -> ComparisonKernels.doubles(op, (DoubleVector) a.eval(batch),
                    (DoubleVector) b.eval(batch), batch.rowCount());
            case BYTES -> batch -> ComparisonKernels.bytes(op, (BytesVector) a.eval(batch), (BytesVector) b.eval(batch),
                    batch.rowCount());
        };
    }

    private static Vector coalesce(List<Evaluator> parts, Batch batch, Physical p) {
        int n = batch.rowCount();
        Vector acc = parts.get(0).eval(batch);
        for (int k = 1; k < parts.size() && acc.nulls() != null; k++) {
            boolean[] nulls = acc.nulls();
            int[] positions = new int[n];
            int count = 0;
            for (int i = 0; i < n; i++) {
                if (nulls[i]) {
                    positions[count++] = i;
                }
            }
            if (count == 0) {
                break;
            }
            Vector fill = parts.get(k).eval(batch.gather(positions, count));
            acc = Scatter.overlay(acc, fill, positions, count, p);
        }
        return acc;
    }

    /** A constant's batch-sized array, made once by the first batch large enough to want it. */
    private static final class SharedFill<T> {
        /** Below this many rows a fresh array is cheaper than keeping 4096 values. */
        static final int FROM_ROWS = 64;

        private final Supplier<T> make;
        private volatile T values;

        SharedFill(Supplier<T> make) {
            this.make = make;
        }

        T get() {
            T v = values;
            if (v == null) {
                v = make.get(); // two threads may both make it: equal arrays, either one serves
                values = v;
            }
            return v;
        }
    }
}
