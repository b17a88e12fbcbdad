package io.ferry.sql.translate;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUnknownAs;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.util.NlsString;
import org.apache.calcite.util.Sarg;

import com.google.common.collect.Range;

import io.ferry.core.expr.Call;
import io.ferry.core.expr.DatePart;
import io.ferry.core.expr.Expr;
import io.ferry.core.expr.InputRef;
import io.ferry.core.expr.Literal;
import io.ferry.core.expr.Op;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.Physical;
import io.ferry.core.types.TypeKind;
import io.ferry.sql.TypeMapping;
import io.ferry.sql.fun.DateFunctions;

/**
 * Translates Calcite row expressions into Ferry {@link Expr}s, inserting the casts Ferry's kernels expect
 * (operands of one type). Throws {@link UnsupportedExpression} for anything without a native kernel.
 */
public final class RexTranslator {
    private final List<FerryType> inputTypes;
    private final RexBuilder rexBuilder;

    public RexTranslator(List<FerryType> inputTypes, RexBuilder rexBuilder) {
        this.inputTypes = inputTypes;
        this.rexBuilder = rexBuilder;
    }

    public static boolean canTranslate(List<FerryType> inputTypes, RexBuilder builder, List<? extends RexNode> nodes) {
        try {
            RexTranslator t = new RexTranslator(inputTypes, builder);
            for (RexNode n : nodes) {
                t.translate(n);
            }
            return true;
        } catch (UnsupportedExpression e) {
            return false;
        }
    }

    public static FerryType type(org.apache.calcite.rel.type.RelDataType t) {
        FerryType f = TypeMapping.toFerry(t);
        if (f == null) {
            throw new UnsupportedExpression("type " + t.getFullTypeString());
        }
        return f;
    }

    public Expr translate(RexNode node) {
        if (node instanceof RexInputRef ref) {
            return new InputRef(ref.getIndex(), inputTypes.get(ref.getIndex()));
        }
        if (node instanceof RexLiteral lit) {
            return literal(lit);
        }
        if (node instanceof RexCall call) {
            return call(call);
        }
        throw new UnsupportedExpression(node.getKind().toString());
    }

    private Literal literal(RexLiteral lit) {
        FerryType type = type(lit.getType());
        if (lit.isNull()) {
            return Literal.nullOf(type);
        }
        Object v = switch (type.kind()) {
            case BOOLEAN -> Boolean.TRUE.equals(lit.getValueAs(Boolean.class)) ? 1L : 0L;
            case INTEGER, BIGINT -> lit.getValueAs(BigDecimal.class).longValueExact();
            case DECIMAL -> lit.getValueAs(BigDecimal.class).setScale(type.scale(), java.math.RoundingMode.HALF_UP)
                    .unscaledValue().longValueExact();
            case DOUBLE -> lit.getValueAs(Double.class);
            case DATE -> (long) lit.getValueAs(Integer.class);
            case TIMESTAMP -> lit.getValueAs(Long.class);
            case VARCHAR -> {
                Object s = lit.getValue();
                yield s instanceof NlsString n ? n.getValue() : lit.getValueAs(String.class);
            }
        };
        return new Literal(v, type);
    }

    private Expr call(RexCall call) {
        SqlKind kind = call.getKind();
        if (kind == SqlKind.SEARCH) {
            Expr in = pointList(call);
            return in != null ? in : translate(RexUtil.expandSearch(rexBuilder, null, call));
        }
        FerryType type = type(call.getType());
        List<RexNode> ops = call.getOperands();
        switch (kind) {
            case PLUS, MINUS, TIMES, DIVIDE, MOD -> {
                return arithmetic(kind, ops, type);
            }
            case MINUS_PREFIX -> {
                return new Call(Op.NEGATE, List.of(cast(translate(ops.get(0)), type)), type);
            }
            case PLUS_PREFIX -> {
                return cast(translate(ops.get(0)), type);
            }
            case EQUALS, NOT_EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL -> {
                return comparison(kind, translate(ops.get(0)), translate(ops.get(1)));
            }
            case AND, OR -> {
                List<Expr> args = new ArrayList<>();
                for (RexNode o : ops) {
                    args.add(translate(o));
                }
                return new Call(kind == SqlKind.AND ? Op.AND : Op.OR, args, FerryType.BOOLEAN);
            }
            case NOT -> {
                return new Call(Op.NOT, List.of(translate(ops.get(0))), FerryType.BOOLEAN);
            }
            case IS_NULL, IS_NOT_NULL, IS_TRUE, IS_FALSE, IS_NOT_TRUE, IS_NOT_FALSE -> {
                Op op = Op.valueOf(kind.name());
                return new Call(op, List.of(translate(ops.get(0))), FerryType.BOOLEAN);
            }
            case CAST -> {
                Expr in = translate(ops.get(0));
                return cast(in, type);
            }
            case CASE -> {
                List<Expr> args = new ArrayList<>();
                for (int i = 0; i < ops.size(); i++) {
                    boolean isValue = i % 2 == 1 || i == ops.size() - 1;
                    Expr e = translate(ops.get(i));
                    args.add(isValue ? cast(e, type) : e);
                }
                return new Call(Op.CASE, args, type);
            }
            case COALESCE -> {
                List<Expr> args = new ArrayList<>();
                for (RexNode o : ops) {
                    args.add(cast(translate(o), type));
                }
                return new Call(Op.COALESCE, args, type);
            }
            case LIKE -> {
                if (call.getOperator().getName().contains("ILIKE") || call.getOperator().getName().contains("SIMILAR")) {
                    throw new UnsupportedExpression(call.getOperator().getName());
                }
                List<Expr> args = new ArrayList<>();
                args.add(translate(ops.get(0)));
                for (int i = 1; i < ops.size(); i++) {
                    if (!(ops.get(i) instanceof RexLiteral)) {
                        throw new UnsupportedExpression("LIKE with a non-constant pattern");
                    }
                    args.add(translate(ops.get(i)));
                }
                Expr like = new Call(Op.LIKE, args, FerryType.BOOLEAN);
                return call.getOperator().getName().startsWith("NOT") ? new Call(Op.NOT, List.of(like), FerryType.BOOLEAN)
                        : like;
            }
            case SAFE_CAST -> {
                Expr cast = cast(translate(ops.get(0)), type);
                return cast instanceof Call c && c.op() == Op.CAST ? new Call(Op.TRY_CAST, c.args(), type) : cast;
            }
            case EXTRACT -> {
                if (!(ops.get(0) instanceof RexLiteral unitLiteral)
                        || !(unitLiteral.getValue() instanceof TimeUnitRange unit)) {
                    throw new UnsupportedExpression("EXTRACT with a unit that is not a keyword");
                }
                Expr arg = translate(ops.get(1));
                if (!isTemporal(arg.type())) {
                    throw new UnsupportedExpression("EXTRACT from " + arg.type());
                }
                DatePart part = switch (unit) {
                    case MILLENNIUM -> DatePart.MILLENNIUM;
                    case CENTURY -> DatePart.CENTURY;
                    case DECADE -> DatePart.DECADE;
                    case YEAR -> DatePart.YEAR;
                    case QUARTER -> DatePart.QUARTER;
                    case MONTH -> DatePart.MONTH;
                    case WEEK -> DatePart.WEEK;
                    case DAY -> DatePart.DAY;
                    case HOUR -> DatePart.HOUR;
                    case MINUTE -> DatePart.MINUTE;
                    case SECOND -> DatePart.SECOND;
                    case MILLISECOND -> DatePart.MILLISECOND;
                    case MICROSECOND -> DatePart.MICROSECOND;
                    case DOW -> DatePart.DOW;
                    case ISODOW -> DatePart.ISODOW;
                    case DOY -> DatePart.DOY;
                    case ISOYEAR -> DatePart.ISOYEAR;
                    default -> throw new UnsupportedExpression("EXTRACT " + unit);
                };
                Expr value = new Call(Op.DATE_PART, List.of(unitLiteral(part), arg), FerryType.BIGINT);
                if (unit == TimeUnitRange.DOW) {
                    // Calcite's DOW (what DAYOFWEEK and {fn DAYOFWEEK} become) counts from Sunday = 1; FerryPrepare
                    // makes a DOW the user writes DATE_PART('dow', x), which counts from 0
                    value = new Call(Op.PLUS, List.of(value, new Literal(1L, FerryType.BIGINT)), FerryType.BIGINT);
                }
                return cast(value, type);
            }
            case OTHER_FUNCTION, OTHER, POSITION, TRIM, CHAR_LENGTH -> {
                return function(call, type);
            }
            default -> throw new UnsupportedExpression(kind.toString());
        }
    }

    /**
     * {@code x IN (c1, …, cn)} and {@code x NOT IN (…)} with many constants, which Calcite writes as a search over
     * points (or their complement): one sorted-list lookup per row instead of n comparisons ORed together (an IN of
     * 5000 values over a million rows took 15 s as ORs). Null if the search is over ranges or a short list.
     */
    private Expr pointList(RexCall search) {
        if (!(search.getOperands().get(1) instanceof RexLiteral literal)) {
            return null;
        }
        Sarg<?> sarg = literal.getValueAs(Sarg.class);
        boolean negated = sarg != null && !sarg.isPoints() && sarg.isComplementedPoints();
        if (sarg == null || sarg.nullAs != RexUnknownAs.UNKNOWN || !(sarg.isPoints() || negated)) {
            return null;
        }
        Set<? extends Range<?>> points = (negated ? sarg.rangeSet.complement() : sarg.rangeSet).asRanges();
        if (points.size() < MIN_POINT_LIST) {
            return null;
        }
        RexNode value = search.getOperands().get(0);
        List<Expr> args = new ArrayList<>();
        args.add(translate(value));
        for (Range<?> point : points) {
            args.add(cast(translate(rexBuilder.makeLiteral(point.lowerEndpoint(), value.getType(), false)),
                    args.get(0).type()));
        }
        Expr in = new Call(Op.IN, args, FerryType.BOOLEAN);
        return negated ? new Call(Op.NOT, List.of(in), FerryType.BOOLEAN) : in;
    }

    private static Literal unitLiteral(DatePart part) {
        return new Literal(part.name().toLowerCase(java.util.Locale.ROOT), FerryType.VARCHAR);
    }

    /** Below this many constants an IN stays a chain of comparisons. */
    private static final int MIN_POINT_LIST = 8;

    private Expr function(RexCall call, FerryType type) {
        String name = call.getOperator().getName().toUpperCase(java.util.Locale.ROOT);
        List<Expr> args = new ArrayList<>();
        for (RexNode o : call.getOperands()) {
            args.add(translate(o));
        }
        SqlOperator operator = call.getOperator();
        if (operator == DateFunctions.DATE_PART || operator == DateFunctions.DATE_TRUNC
                || operator == DateFunctions.DATEDIFF) {
            if (!(args.get(0) instanceof Literal unit) || unit.value() == null) {
                throw new UnsupportedExpression(name + " with a unit that is not a constant");
            }
            Op op = operator == DateFunctions.DATE_PART ? Op.DATE_PART
                    : operator == DateFunctions.DATE_TRUNC ? Op.DATE_TRUNC : Op.DATE_DIFF;
            FerryType result = op == Op.DATE_TRUNC ? FerryType.TIMESTAMP : FerryType.BIGINT;
            return cast(new Call(op, args, result), type);
        }
        Op op = switch (name) {
            case "UPPER" -> Op.UPPER;
            case "LOWER" -> Op.LOWER;
            case "CHAR_LENGTH", "CHARACTER_LENGTH" -> Op.CHAR_LENGTH;
            case "SUBSTRING" -> Op.SUBSTRING;
            case "||", "CONCAT" -> Op.CONCAT;
            case "ABS" -> Op.ABS;
            default -> throw new UnsupportedExpression(name);
        };
        if (op == Op.ABS) {
            return new Call(op, List.of(cast(args.get(0), type)), type);
        }
        if (op == Op.CONCAT) {
            List<Expr> strs = new ArrayList<>();
            for (Expr a : args) {
                strs.add(cast(a, FerryType.VARCHAR));
            }
            return new Call(op, strs, type);
        }
        if (op == Op.SUBSTRING) {
            List<Expr> a = new ArrayList<>();
            a.add(args.get(0));
            for (int i = 1; i < args.size(); i++) {
                a.add(cast(args.get(i), FerryType.BIGINT));
            }
            return new Call(op, a, type);
        }
        if (op == Op.CHAR_LENGTH) {
            return cast(new Call(op, args, FerryType.BIGINT), type);
        }
        return new Call(op, args, type);
    }

    private Expr arithmetic(SqlKind kind, List<RexNode> ops, FerryType type) {
        Expr a = translate(ops.get(0));
        Expr b = translate(ops.get(1));
        if (a.type().kind() == TypeKind.VARCHAR || b.type().kind() == TypeKind.VARCHAR
                || isTemporal(a.type()) || isTemporal(b.type()) || type.kind() == TypeKind.BOOLEAN) {
            throw new UnsupportedExpression("arithmetic on " + a.type() + " and " + b.type());
        }
        Op op = switch (kind) {
            case PLUS -> Op.PLUS;
            case MINUS -> Op.MINUS;
            case TIMES -> Op.TIMES;
            case DIVIDE -> Op.DIVIDE;
            default -> Op.MOD;
        };
        if (type.kind() == TypeKind.DECIMAL && (op == Op.TIMES || op == Op.DIVIDE)) {
            if (a.type().physical() != Physical.LONG || b.type().physical() != Physical.LONG) {
                throw new UnsupportedExpression("decimal arithmetic with a double");
            }
            return new Call(op, List.of(a, b), type);
        }
        if (op == Op.MOD && isWholeNumber(a.type()) && isWholeNumber(b.type()) && isWholeNumber(type)) {
            // SQL types MOD as its divisor, but the dividend may be wider (MOD(bigint, 7) is an INTEGER): compute in
            // the wider type; the remainder is smaller than the divisor, so it always fits the result's type.
            FerryType wide = a.type().kind() == TypeKind.BIGINT ? a.type() : b.type();
            return cast(new Call(op, List.of(cast(a, wide), cast(b, wide)), wide), type);
        }
        return new Call(op, List.of(cast(a, type), cast(b, type)), type);
    }

    private static boolean isWholeNumber(FerryType t) {
        return t.kind() == TypeKind.INTEGER || t.kind() == TypeKind.BIGINT;
    }

    private static boolean isTemporal(FerryType t) {
        return t.kind() == TypeKind.DATE || t.kind() == TypeKind.TIMESTAMP;
    }

    private Expr comparison(SqlKind kind, Expr a, Expr b) {
        FerryType common = commonType(a.type(), b.type());
        Op op = switch (kind) {
            case EQUALS -> Op.EQ;
            case NOT_EQUALS -> Op.NE;
            case LESS_THAN -> Op.LT;
            case LESS_THAN_OR_EQUAL -> Op.LE;
            case GREATER_THAN -> Op.GT;
            default -> Op.GE;
        };
        return new Call(op, List.of(cast(a, common), cast(b, common)), FerryType.BOOLEAN);
    }

    /** The type both sides of a comparison are cast to. */
    static FerryType commonType(FerryType a, FerryType b) {
        if (a.equals(b)) {
            return a;
        }
        TypeKind ka = a.kind();
        TypeKind kb = b.kind();
        if (ka == TypeKind.VARCHAR || kb == TypeKind.VARCHAR) {
            if (ka == kb) {
                return FerryType.VARCHAR;
            }
            return ka == TypeKind.VARCHAR ? b : a;
        }
        if (ka == TypeKind.DOUBLE || kb == TypeKind.DOUBLE) {
            return FerryType.DOUBLE;
        }
        if (isTemporal(a) || isTemporal(b)) {
            if (isTemporal(a) && isTemporal(b)) {
                return FerryType.TIMESTAMP;
            }
            throw new UnsupportedExpression("comparison of " + a + " with " + b);
        }
        if (ka == TypeKind.BOOLEAN || kb == TypeKind.BOOLEAN) {
            if (ka == kb) {
                return FerryType.BOOLEAN;
            }
            throw new UnsupportedExpression("comparison of " + a + " with " + b);
        }
        if (ka == TypeKind.DECIMAL || kb == TypeKind.DECIMAL) {
            int scale = Math.max(a.kind() == TypeKind.DECIMAL ? a.scale() : 0, b.kind() == TypeKind.DECIMAL ? b.scale() : 0);
            return FerryType.decimal(FerryType.MAX_DECIMAL_PRECISION, scale);
        }
        return FerryType.BIGINT;
    }

    /** {@code e} as type {@code to}: a CAST only where the physical value changes. */
    public static Expr cast(Expr e, FerryType to) {
        FerryType from = e.type();
        if (from.equals(to) || (from.kind() == to.kind() && to.kind() != TypeKind.DECIMAL)) {
            return e;
        }
        if (from.kind() == TypeKind.VARCHAR && to.kind() == TypeKind.VARCHAR) {
            return e;
        }
        if (TypeMapping.isExactInteger(from) && to.kind() == TypeKind.BIGINT) {
            return e;
        }
        if (e instanceof Literal lit && lit.value() != null && from.physical() == Physical.LONG
                && TypeMapping.isExactInteger(from) && to.kind() == TypeKind.DECIMAL) {
            long v = (Long) lit.value();
            return new Literal(BigDecimal.valueOf(v).setScale(to.scale()).unscaledValue().longValueExact(), to);
        }
        return new Call(Op.CAST, List.of(e), to);
    }

    /** Exposed for the join rule: whether two key types hash and compare alike. */
    public static boolean sameKeyRepresentation(FerryType a, FerryType b) {
        if (a.physical() != b.physical()) {
            return false;
        }
        if (a.kind() == TypeKind.DECIMAL || b.kind() == TypeKind.DECIMAL) {
            return a.kind() == b.kind() && a.scale() == b.scale();
        }
        return isTemporal(a) == isTemporal(b) && (!isTemporal(a) || a.kind() == b.kind());
    }
}
