package io.ferry.sql.translate;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUnknownAs;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlTrimFunction;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.NlsString;
import org.apache.calcite.util.Sarg;

import com.google.common.collect.Range;

import io.ferry.core.FerryException;
import io.ferry.core.expr.Call;
import io.ferry.core.expr.DatePart;
import io.ferry.core.expr.Expr;
import io.ferry.core.expr.InputRef;
import io.ferry.core.expr.Literal;
import io.ferry.core.expr.Op;
import io.ferry.core.expr.StatementValues;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.Physical;
import io.ferry.core.types.TypeKind;
import io.ferry.sql.TypeMapping;
import io.ferry.sql.fun.DateFunctions;
import io.ferry.sql.fun.SingleRowCheck;
import io.ferry.sql.fun.StringFunctions;

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
            return isInterval(call.getType()) && INTERVAL_ARITHMETIC.contains(call.getKind())
                    ? cast(interval(call), type(call.getType())) : call(call);
        }
        if (node instanceof RexDynamicParam parameter) {
            // bound to the client's value when the statement runs: a prepared statement runs in Ferry's kernels
            return StatementValues.parameter(parameter.getIndex(), type(parameter.getType()));
        }
        throw new UnsupportedExpression(node.getKind().toString());
    }

    /**
     * A DECIMAL constant in its physical form at its type's scale: the unscaled long, or for a wide DECIMAL the
     * unscaled BigInteger; one with more digits than its type holds is out of range (22003).
     */
    public static Object unscaled(BigDecimal value, FerryType type) {
        BigInteger unscaled = value.setScale(type.scale(), RoundingMode.HALF_UP).unscaledValue();
        if (unscaled.abs().compareTo(BigInteger.TEN.pow(type.precision())) >= 0) {
            throw FerryException.overflow(type.sqlName());
        }
        return type.isWideDecimal() ? unscaled : (Object) unscaled.longValue();
    }

    private Literal literal(RexLiteral lit) {
        FerryType type = type(lit.getType());
        if (lit.isNull()) {
            return Literal.nullOf(type);
        }
        Object v = switch (type.kind()) {
            case BOOLEAN -> Boolean.TRUE.equals(lit.getValueAs(Boolean.class)) ? 1L : 0L;
            case INTEGER, BIGINT -> lit.getValueAs(BigDecimal.class).longValueExact();
            case DECIMAL -> unscaled(lit.getValueAs(BigDecimal.class), type);
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

    /**
     * LIKE, ILIKE (LIKE over LOWER of both sides, as DuckDB computes it) and SIMILAR TO (a regular expression that
     * must match the whole string), each with a constant pattern and optional escape.
     */
    private Expr like(RexCall call) {
        String name = call.getOperator().getName();
        List<RexNode> ops = call.getOperands();
        List<String> constants = new ArrayList<>();
        for (int i = 1; i < ops.size(); i++) {
            if (!(ops.get(i) instanceof RexLiteral lit) || lit.isNull()) {
                throw new UnsupportedExpression(name + " with a pattern or escape that is not a constant");
            }
            constants.add((String) literal(lit).value());
        }
        Expr value = translate(ops.get(0));
        Expr match;
        if (call.getKind() == SqlKind.SIMILAR) {
            String regex = SimilarPatterns.toRegex(constants.get(0), constants.size() > 1 ? constants.get(1) : null);
            match = new Call(Op.REGEXP_FULL_MATCH, List.of(value, new Literal(regex, FerryType.VARCHAR)),
                    FerryType.BOOLEAN);
        } else {
            boolean ignoreCase = name.contains("ILIKE");
            List<Expr> args = new ArrayList<>();
            args.add(ignoreCase ? new Call(Op.LOWER, List.of(value), value.type()) : value);
            for (String c : constants) {
                args.add(new Literal(ignoreCase ? c.toLowerCase(java.util.Locale.ROOT) : c, FerryType.VARCHAR));
            }
            match = new Call(Op.LIKE, args, FerryType.BOOLEAN);
        }
        return name.startsWith("NOT") ? new Call(Op.NOT, List.of(match), FerryType.BOOLEAN) : match;
    }

    /**
     * An interval-typed expression as a BIGINT: milliseconds for a day-time interval, months for a year-month one.
     * Covers interval literals, their multiples ({@code n * INTERVAL '1' DAY}, what TIMESTAMPADD becomes), sums and
     * negations, and the difference of two datetimes (what TIMESTAMPDIFF becomes).
     */
    private Expr interval(RexNode node) {
        if (!isInterval(node.getType())) {
            Expr e = translate(node);
            if (!TypeMapping.isExactInteger(e.type())) {
                throw new UnsupportedExpression("interval arithmetic with " + e.type());
            }
            return cast(e, FerryType.BIGINT);
        }
        if (node instanceof RexLiteral lit) {
            return lit.isNull() ? Literal.nullOf(FerryType.BIGINT)
                    : new Literal(lit.getValueAs(BigDecimal.class).longValueExact(), FerryType.BIGINT);
        }
        if (!(node instanceof RexCall call) || !INTERVAL_ARITHMETIC.contains(node.getKind())) {
            // a column, CASE or COALESCE of intervals: the number the interval is
            return cast(translate(node), FerryType.BIGINT);
        }
        List<RexNode> ops = call.getOperands();
        boolean months = isYearMonth(call.getType());
        switch (call.getKind()) {
            case TIMES, CHECKED_TIMES, PLUS -> {
                if (call.getKind() == SqlKind.PLUS && isYearMonth(ops.get(0).getType()) != months) {
                    throw new UnsupportedExpression("sum of a year-month and a day-time interval");
                }
                // TIMESTAMPADD multiplies with Calcite's CHECKED_TIMES; Ferry's multiplication always checks overflow
                return new Call(call.getKind() == SqlKind.PLUS ? Op.PLUS : Op.TIMES,
                        List.of(interval(ops.get(0)), interval(ops.get(1))), FerryType.BIGINT);
            }
            case MINUS_PREFIX -> {
                return new Call(Op.NEGATE, List.of(interval(ops.get(0))), FerryType.BIGINT);
            }
            case MINUS -> {
                if (isInterval(ops.get(0).getType())) {
                    if (isYearMonth(ops.get(0).getType()) != months) {
                        throw new UnsupportedExpression("difference of a year-month and a day-time interval");
                    }
                    return new Call(Op.MINUS, List.of(interval(ops.get(0)), interval(ops.get(1))), FerryType.BIGINT);
                }
                Expr end = translate(ops.get(0));
                Expr start = translate(ops.get(1));
                if (!isTemporal(end.type()) || !isTemporal(start.type())) {
                    throw new UnsupportedExpression("interval between " + end.type() + " and " + start.type());
                }
                if (months) {
                    return new Call(Op.MONTHS_BETWEEN, List.of(end, start), FerryType.BIGINT);
                }
                return new Call(Op.MINUS, List.of(cast(end, FerryType.TIMESTAMP), cast(start, FerryType.TIMESTAMP)),
                        FerryType.BIGINT);
            }
            default -> throw new UnsupportedExpression("interval " + call.getKind());
        }
    }

    /** What {@link #interval} computes of two intervals, or of an interval and a number (DIVIDE it refuses). */
    private static final Set<SqlKind> INTERVAL_ARITHMETIC = EnumSet.of(SqlKind.TIMES, SqlKind.CHECKED_TIMES,
            SqlKind.PLUS, SqlKind.MINUS, SqlKind.MINUS_PREFIX, SqlKind.DIVIDE, SqlKind.CHECKED_DIVIDE);

    private static boolean isInterval(org.apache.calcite.rel.type.RelDataType type) {
        return SqlTypeName.INTERVAL_TYPES.contains(type.getSqlTypeName());
    }

    private static boolean isYearMonth(org.apache.calcite.rel.type.RelDataType type) {
        return type.getSqlTypeName().getFamily() == SqlTypeFamily.INTERVAL_YEAR_MONTH;
    }

    /**
     * A field of an interval, as Calcite and DuckDB read it from what a subtraction of timestamps gives (days, then
     * the time within the last day): {@code EXTRACT(HOUR FROM INTERVAL '27' HOUR)} is 3, its DAY 1 (DuckDB keeps
     * hours apart from days and answers 27 and 0); a negative interval's fields are negative. Months split into
     * years and months.
     */
    private Expr intervalPart(TimeUnitRange unit, RexNode interval) {
        Expr value = interval(interval);
        if (isYearMonth(interval.getType())) {
            return switch (unit) {
                case YEAR -> divide(value, 12);
                case MONTH -> remainder(value, 12);
                default -> throw new UnsupportedExpression("EXTRACT(" + unit + ") from a year-month interval");
            };
        }
        return switch (unit) {
            case DAY -> divide(value, 86_400_000L);
            case HOUR -> remainder(divide(value, 3_600_000L), 24);
            case MINUTE -> remainder(divide(value, 60_000L), 60);
            case SECOND -> remainder(divide(value, 1000L), 60);
            case MILLISECOND -> remainder(value, 60_000L);
            case MICROSECOND -> new Call(Op.TIMES, List.of(remainder(value, 60_000L),
                    new Literal(1000L, FerryType.BIGINT)), FerryType.BIGINT);
            case EPOCH -> divide(value, 1000L);
            default -> throw new UnsupportedExpression("EXTRACT(" + unit + ") from a day-time interval");
        };
    }

    /** {@code value / by}, truncated toward zero. */
    private static Expr divide(Expr value, long by) {
        return new Call(Op.DIVIDE, List.of(value, new Literal(by, FerryType.BIGINT)), FerryType.BIGINT);
    }

    /** {@code value % by}, of the sign of value. */
    private static Expr remainder(Expr value, long by) {
        return new Call(Op.MOD, List.of(value, new Literal(by, FerryType.BIGINT)), FerryType.BIGINT);
    }

    /** {@code datetime ± interval} (or {@code interval + datetime}): a DATE or TIMESTAMP of Calcite's result type. */
    private Expr datetimePlus(SqlKind kind, List<RexNode> ops, FerryType type) {
        boolean intervalFirst = isInterval(ops.get(0).getType());
        RexNode datetime = ops.get(intervalFirst ? 1 : 0);
        RexNode interval = ops.get(intervalFirst ? 0 : 1);
        if (kind == SqlKind.MINUS && intervalFirst) {
            throw new UnsupportedExpression("interval minus a datetime");
        }
        Expr amount = interval(interval);
        if (kind == SqlKind.MINUS) {
            amount = new Call(Op.NEGATE, List.of(amount), FerryType.BIGINT);
        }
        Expr base = cast(translate(datetime), type);
        if (!isTemporal(type)) {
            throw new UnsupportedExpression("datetime arithmetic giving " + type);
        }
        return new Call(isYearMonth(interval.getType()) ? Op.PLUS_MONTHS : Op.PLUS_MILLIS, List.of(base, amount), type);
    }

    private Expr call(RexCall call) {
        SqlKind kind = call.getKind();
        if ((kind == SqlKind.PLUS || kind == SqlKind.MINUS) && call.getOperands().stream()
                .anyMatch(o -> isInterval(o.getType()))
                && !isInterval(call.getType())) {
            return datetimePlus(kind, call.getOperands(), type(call.getType()));
        }
        if (kind == SqlKind.SEARCH) {
            Expr in = pointList(call);
            return in != null ? in : translate(RexUtil.expandSearch(rexBuilder, null, call));
        }
        if (kind == SqlKind.IS_DISTINCT_FROM || kind == SqlKind.IS_NOT_DISTINCT_FROM) {
            // as comparisons and NULL tests (a join key compared so is a hash key instead: FerryJoin)
            return translate(RelOptUtil.isDistinctFrom(rexBuilder, call.getOperands().get(0),
                    call.getOperands().get(1), kind == SqlKind.IS_NOT_DISTINCT_FROM));
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
                if (isInterval(ops.get(0).getType()) != isInterval(call.getType())) {
                    // Calcite counts such a number in the interval's unit and writes an interval as text its own way
                    throw new UnsupportedExpression("CAST between an interval and " + call.getType());
                }
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
            case LIKE, SIMILAR -> {
                return like(call);
            }
            case REINTERPRET -> {
                if (!isInterval(ops.get(0).getType())) {
                    throw new UnsupportedExpression("REINTERPRET of " + ops.get(0).getType());
                }
                return cast(interval(ops.get(0)), type);
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
                if (isInterval(ops.get(1).getType())) {
                    return cast(intervalPart(unit, ops.get(1)), type);
                }
                Expr arg = translate(ops.get(1));
                if (!isTemporal(arg.type())) {
                    throw new UnsupportedExpression("EXTRACT from " + arg.type());
                }
                DatePart part = datePart(unit, "EXTRACT");
                Expr value = new Call(Op.DATE_PART, List.of(unitLiteral(part), arg), FerryType.BIGINT);
                if (unit == TimeUnitRange.DOW) {
                    // Calcite's DOW (what DAYOFWEEK and {fn DAYOFWEEK} become) counts from Sunday = 1; FerryPrepare
                    // makes a DOW the user writes DATE_PART('dow', x), which counts from 0
                    value = new Call(Op.PLUS, List.of(value, new Literal(1L, FerryType.BIGINT)), FerryType.BIGINT);
                }
                return cast(value, type);
            }
            case FLOOR, CEIL -> {
                return floorOrCeil(call, type);
            }
            case OTHER_FUNCTION, OTHER, POSITION, TRIM, CHAR_LENGTH, REVERSE, STARTS_WITH, ENDS_WITH,
                    CONCAT_WS_POSTGRESQL, CONCAT_WITH_NULL -> {
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

    /** Calcite's time unit keyword as Ferry's unit; {@code function} names the call that cannot take another. */
    private static DatePart datePart(TimeUnitRange unit, String function) {
        DatePart part = datePartOf(unit);
        if (part == null) {
            throw new UnsupportedExpression(function + " " + unit);
        }
        return part;
    }

    /** The DATE_PART unit that Calcite's {@code unit} names, or null where Ferry's kernels have none. */
    public static DatePart datePartOf(TimeUnitRange unit) {
        return switch (unit) {
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
            default -> null;
        };
    }

    private static Literal unitLiteral(DatePart part) {
        return new Literal(part.name().toLowerCase(java.util.Locale.ROOT), FerryType.VARCHAR);
    }

    /** Below this many constants an IN stays a chain of comparisons. */
    private static final int MIN_POINT_LIST = 8;

    private Expr function(RexCall call, FerryType type) {
        String name = call.getOperator().getName().toUpperCase(java.util.Locale.ROOT);
        Expr string = stringFunction(name, call, type);
        if (string != null) {
            return string;
        }
        List<Expr> args = new ArrayList<>();
        for (RexNode o : call.getOperands()) {
            args.add(translate(o));
        }
        SqlOperator operator = call.getOperator();
        if (operator == SingleRowCheck.FUNCTION) {
            return new Call(Op.SINGLE_ROW, args, type);
        }
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
        // a call typed NOT NULL whose argument may be NULL (Calcite's DAYNAME) would answer NULL where its type says
        // it cannot
        boolean nullsTypedNotNull = !call.getType().isNullable()
                && call.getOperands().stream().anyMatch(o -> o.getType().isNullable());
        Expr numericOrDate = numericOrDateFunction(name, operator, args, type, nullsTypedNotNull);
        if (numericOrDate != null) {
            return numericOrDate;
        }
        if (name.equals("CONCAT")) {
            // PostgreSQL's CONCAT skips NULLs, as CONCAT_WS does with an empty separator
            List<Expr> strings = new ArrayList<>(List.of(new Literal("", FerryType.VARCHAR)));
            strings.addAll(all(args, FerryType.VARCHAR));
            return new Call(Op.CONCAT_WS, strings, type);
        }
        Op op = switch (name) {
            case "UPPER" -> Op.UPPER;
            case "LOWER" -> Op.LOWER;
            case "CHAR_LENGTH", "CHARACTER_LENGTH" -> Op.CHAR_LENGTH;
            case "SUBSTRING" -> Op.SUBSTRING;
            case "||" -> Op.CONCAT;
            case "ABS" -> Op.ABS;
            case "CONCAT_WS" -> Op.CONCAT_WS;
            case "REPEAT" -> Op.REPEAT;
            case "ASCII" -> Op.ASCII;
            case "CHR" -> Op.CHR;
            case "MD5" -> Op.MD5;
            case "STARTS_WITH" -> Op.STARTS_WITH;
            case "ENDS_WITH" -> Op.ENDS_WITH;
            case "TRANSLATE3" -> Op.TRANSLATE;
            case "OVERLAY" -> Op.OVERLAY;
            case "REVERSE" -> Op.REVERSE;
            case "POSITION" -> Op.POSITION;
            case "REGEXP_EXTRACT" -> Op.REGEXP_EXTRACT;
            case "REGEXP_SUBSTR" -> Op.REGEXP_SUBSTR;
            case "SIN" -> Op.SIN;
            case "COS" -> Op.COS;
            case "TAN" -> Op.TAN;
            case "ASIN" -> Op.ASIN;
            case "ACOS" -> Op.ACOS;
            case "ATAN" -> Op.ATAN;
            case "ATAN2" -> Op.ATAN2;
            case "COT" -> Op.COT;
            case "DEGREES" -> Op.DEGREES;
            case "RADIANS" -> Op.RADIANS;
            case "CBRT" -> Op.CBRT;
            case "LOG" -> Op.LOG;
            case "LOG2" -> Op.LOG2;
            case "SIGN" -> Op.SIGN;
            case "TRUNCATE", "TRUNC" -> Op.TRUNCATE;
            case "RAND", "RANDOM" -> Op.RANDOM;
            case "CURRENT_DATE" -> Op.CURRENT_DATE;
            case "CURRENT_TIMESTAMP", "LOCALTIMESTAMP" -> Op.CURRENT_TIMESTAMP;
            case "PI" -> null;
            default -> throw new UnsupportedExpression(name);
        };
        if (op == null) {
            return new Literal(Math.PI, FerryType.DOUBLE);
        }
        return switch (op) {
            case ABS, SIGN -> new Call(op, List.of(cast(args.get(0), type)), type);
            case CONCAT, CONCAT_WS, TRANSLATE -> new Call(op, all(args, FerryType.VARCHAR), type);
            case SUBSTRING, REPEAT, OVERLAY, REGEXP_EXTRACT, REGEXP_SUBSTR -> {
                if ((op == Op.REGEXP_EXTRACT || op == Op.REGEXP_SUBSTR) && !(args.get(1) instanceof Literal pattern
                        && pattern.value() != null)) {
                    throw new UnsupportedExpression(name + " with a pattern that is not a constant");
                }
                int strings = op == Op.OVERLAY || op == Op.REGEXP_EXTRACT || op == Op.REGEXP_SUBSTR ? 2 : 1;
                List<Expr> a = new ArrayList<>(all(args.subList(0, strings), FerryType.VARCHAR));
                a.addAll(all(args.subList(strings, args.size()), FerryType.BIGINT));
                yield new Call(op, a, type);
            }
            case CHAR_LENGTH, ASCII, POSITION -> {
                if (args.size() != (op == Op.POSITION ? 2 : 1)) {
                    throw new UnsupportedExpression(name + " with " + args.size() + " arguments");
                }
                yield cast(new Call(op, args, FerryType.BIGINT), type);
            }
            case CHR -> new Call(op, List.of(cast(args.get(0), FerryType.BIGINT)), type);
            case SIN, COS, TAN, ASIN, ACOS, ATAN, ATAN2, COT, DEGREES, RADIANS, CBRT, LOG, LOG2 ->
                    cast(new Call(op, all(args, FerryType.DOUBLE), FerryType.DOUBLE), type);
            case TRUNCATE -> {
                List<Expr> a = new ArrayList<>();
                a.add(cast(args.get(0), type));
                a.add(args.size() > 1 ? cast(args.get(1), FerryType.BIGINT) : new Literal(0L, FerryType.BIGINT));
                yield new Call(op, a, type);
            }
            case RANDOM, CURRENT_DATE, CURRENT_TIMESTAMP -> {
                if (!args.isEmpty()) {
                    throw new UnsupportedExpression(name + " with a seed");
                }
                yield new Call(op, List.of(), op == Op.RANDOM ? FerryType.DOUBLE : type);
            }
            default -> new Call(op, args, type);
        };
    }

    // ---- ROUND, LN, LOG10, EXP, POWER (and SQRT), FLOOR, CEIL, LAST_DAY, DAYNAME, MONTHNAME, DATEDIFF(end, start) ----

    /**
     * The numeric and date functions below, or null for another function. ROUND keeps its argument's type (Calcite's);
     * the DOUBLE functions take DOUBLEs; MySQL's {@code DATEDIFF(end, start)} is DATEDIFF('day', start, end).
     */
    private static Expr numericOrDateFunction(String name, SqlOperator operator, List<Expr> args, FerryType type,
            boolean nullsTypedNotNull) {
        if (operator == DateFunctions.TIMESTAMP_DIFFERENCE) {
            return new Call(Op.MINUS, List.of(cast(args.get(0), FerryType.TIMESTAMP), cast(args.get(1),
                    FerryType.TIMESTAMP)), FerryType.BIGINT);
        }
        if (operator == DateFunctions.INTERVAL_EPOCH) {
            return new Call(Op.DIVIDE, List.of(cast(args.get(1), FerryType.DOUBLE),
                    new Literal(1000.0, FerryType.DOUBLE)), FerryType.DOUBLE);
        }
        if (operator == DateFunctions.DATEDIFF_DAYS) {
            return cast(new Call(Op.DATE_DIFF, List.of(unitLiteral(DatePart.DAY), args.get(1), args.get(0)),
                    FerryType.BIGINT), type);
        }
        Op op = switch (name) {
            case "ROUND" -> Op.ROUND;
            case "EXP" -> Op.EXP;
            case "LN" -> Op.LN;
            case "LOG10" -> Op.LOG;
            case "POWER", "POW" -> Op.POWER;
            case "LAST_DAY" -> Op.LAST_DAY;
            case "DAYNAME" -> Op.DAYNAME;
            case "MONTHNAME" -> Op.MONTHNAME;
            default -> null;
        };
        if (op == null) {
            return null;
        }
        switch (op) {
            case ROUND -> {
                if (!isNumber(type) || args.size() > 1 && !TypeMapping.isExactInteger(args.get(1).type())) {
                    throw new UnsupportedExpression("ROUND giving " + type + " or to digits of another type");
                }
                Expr digits = args.size() > 1 ? cast(args.get(1), FerryType.BIGINT) : new Literal(0L, FerryType.BIGINT);
                return new Call(op, List.of(cast(args.get(0), type), digits), type);
            }
            case LAST_DAY, DAYNAME, MONTHNAME -> {
                if (args.size() != 1 || !isTemporal(args.get(0).type())) {
                    throw new UnsupportedExpression(name + " of " + args.get(0).type());
                }
                if (op != Op.LAST_DAY && nullsTypedNotNull) {
                    // the JDBC escapes {fn DAYNAME(x)} reach Calcite's own operator, typed NOT NULL, whose NULLs
                    // (of a nullable date) Ferry's output would write as ''
                    throw new UnsupportedExpression(name + " typed NOT NULL of a nullable date");
                }
                FerryType result = op == Op.LAST_DAY ? FerryType.DATE : FerryType.VARCHAR;
                return cast(new Call(op, args, result), type);
            }
            case POWER -> {
                // Calcite writes SQRT(x) as POWER(x, 0.5) (and STDDEV as POWER(variance, 0.5)): C's sqrt, which
                // DuckDB calls, differs from pow(x, 0.5) at -inf (NaN, not inf) and -0.0
                Op power = isOneHalf(args.get(1)) ? Op.SQRT : op;
                List<Expr> operands = power == Op.SQRT ? args.subList(0, 1) : args;
                return cast(new Call(power, all(operands, FerryType.DOUBLE), FerryType.DOUBLE), type);
            }
            default -> {
                return cast(new Call(op, all(args, FerryType.DOUBLE), FerryType.DOUBLE), type);
            }
        }
    }

    /**
     * The string functions of {@code StringEditKernels} and the regex kernels' REGEXP_LIKE and REGEXP_REPLACE,
     * translated before their operands because some operands are not values Ferry has (TRIM's flag, the VARBINARY
     * cast inside OCTET_LENGTH); null when the call is none of them. Regex patterns and flags must be constants.
     */
    private Expr stringFunction(String name, RexCall call, FerryType type) {
        List<RexNode> ops = call.getOperands();
        switch (name) {
            case "TRIM" -> {
                // TRIM([BOTH | LEADING | TRAILING] characters FROM s), also what LTRIM(s) and RTRIM(s) become
                SqlTrimFunction.Flag flag = ((RexLiteral) ops.get(0)).getValueAs(SqlTrimFunction.Flag.class);
                Op op = flag == SqlTrimFunction.Flag.LEADING ? Op.LTRIM
                        : flag == SqlTrimFunction.Flag.TRAILING ? Op.RTRIM : Op.BTRIM;
                return new Call(op, List.of(text(ops.get(2)), text(ops.get(1))), type);
            }
            case "LTRIM", "RTRIM", "BTRIM" -> {
                Expr chars = ops.size() > 1 ? text(ops.get(1)) : new Literal(" ", FerryType.VARCHAR);
                return new Call(Op.valueOf(name), List.of(text(ops.get(0)), chars), type);
            }
            case "LEFT", "RIGHT" -> {
                return new Call(Op.valueOf(name), List.of(text(ops.get(0)), whole(ops.get(1))), type);
            }
            case "LPAD", "RPAD" -> {
                Expr fill = ops.size() > 2 ? text(ops.get(2)) : new Literal(" ", FerryType.VARCHAR);
                return new Call(Op.valueOf(name), List.of(text(ops.get(0)), whole(ops.get(1)), fill), type);
            }
            case "REPLACE" -> {
                return new Call(Op.REPLACE, List.of(text(ops.get(0)), text(ops.get(1)), text(ops.get(2))), type);
            }
            case "SPLIT_PART" -> {
                return new Call(Op.SPLIT_PART, List.of(text(ops.get(0)), text(ops.get(1)), whole(ops.get(2))), type);
            }
            case "INITCAP" -> {
                return new Call(Op.INITCAP, List.of(text(ops.get(0))), type);
            }
            case "OCTET_LENGTH" -> {
                // Calcite reads OCTET_LENGTH(s) as OCTET_LENGTH(CAST(s AS VARBINARY)); the cast changes no byte
                RexNode arg = ops.get(0);
                if (arg.getKind() == SqlKind.CAST && ((RexCall) arg).getOperands().get(0).getType().getSqlTypeName()
                        .getFamily() == SqlTypeFamily.CHARACTER) {
                    arg = ((RexCall) arg).getOperands().get(0);
                }
                return cast(new Call(Op.OCTET_LENGTH, List.of(text(arg)), FerryType.BIGINT), type);
            }
            case "POSITION" -> {
                // INSTR(s, t, start[, occurrence]) and POSITION(t IN s FROM start); the two-operand forms are POSITION
                if (ops.size() < 3) {
                    return null;
                }
                Expr occurrence = ops.size() > 3 ? whole(ops.get(3)) : new Literal(1L, FerryType.BIGINT);
                return cast(new Call(Op.INSTR, List.of(text(ops.get(0)), text(ops.get(1)), whole(ops.get(2)),
                        occurrence), FerryType.BIGINT), type);
            }
            case "REGEXP_LIKE" -> {
                return new Call(Op.REGEXP_LIKE, List.of(text(ops.get(0)), constant(name, ops, 1),
                        ops.size() > 2 ? constant(name, ops, 2) : new Literal("", FerryType.VARCHAR)), type);
            }
            case "REGEXP_REPLACE" -> {
                SqlOperator operator = call.getOperator();
                if (operator != StringFunctions.REGEXP_REPLACE && operator != StringFunctions.REGEXP_REPLACE_FLAGS) {
                    throw new UnsupportedExpression(name + " of a library other than PostgreSQL's");
                }
                return new Call(Op.REGEXP_REPLACE, List.of(text(ops.get(0)), constant(name, ops, 1),
                        text(ops.get(2)),
                        ops.size() > 3 ? constant(name, ops, 3) : new Literal("", FerryType.VARCHAR)), type);
            }
            default -> {
                return null;
            }
        }
    }

    private static boolean isOneHalf(Expr e) {
        if (!(e instanceof Literal lit) || lit.value() == null) {
            return false;
        }
        return switch (lit.type().kind()) {
            case DOUBLE -> (Double) lit.value() == 0.5;
            case DECIMAL -> lit.value() instanceof Long v && BigDecimal.valueOf(v, lit.type().scale())
                    .compareTo(ONE_HALF) == 0;
            default -> false;
        };
    }

    private static final BigDecimal ONE_HALF = new BigDecimal("0.5");

    /**
     * FLOOR and CEIL of a number (an integer is its own floor; a DECIMAL's is a DECIMAL of scale 0), or of a DATE or
     * TIMESTAMP to a unit from year down to second (Calcite's result type, the argument's).
     */
    private Expr floorOrCeil(RexCall call, FerryType type) {
        boolean up = call.getKind() == SqlKind.CEIL;
        List<RexNode> ops = call.getOperands();
        Expr arg = translate(ops.get(0));
        if (ops.size() == 1) {
            if (TypeMapping.isExactInteger(arg.type())) {
                return cast(arg, type);
            }
            if (!isNumber(arg.type()) || !isNumber(type)) {
                throw new UnsupportedExpression(call.getKind() + " of " + arg.type());
            }
            FerryType result = arg.type().kind() == TypeKind.DECIMAL
                    ? FerryType.decimal(arg.type().precision(), 0) : FerryType.DOUBLE;
            return cast(new Call(up ? Op.CEIL : Op.FLOOR, List.of(arg), result), type);
        }
        if (!(ops.get(1) instanceof RexLiteral flag) || !(flag.getValue() instanceof TimeUnitRange unit)
                || !isTemporal(arg.type()) || arg.type().kind() != type.kind()) {
            throw new UnsupportedExpression(call.getKind() + " of " + arg.type() + " to " + ops.get(1));
        }
        DatePart part = datePart(unit, call.getKind().toString());
        if (part.compareTo(DatePart.YEAR) < 0 || part.compareTo(DatePart.SECOND) > 0) {
            throw new UnsupportedExpression(call.getKind() + " to " + unit);
        }
        return new Call(up ? Op.CEIL_TO : Op.FLOOR_TO, List.of(unitLiteral(part), arg), type);
    }

    private static boolean isNumber(FerryType t) {
        return TypeMapping.isExactInteger(t) || t.kind() == TypeKind.DECIMAL || t.kind() == TypeKind.DOUBLE;
    }

    private Expr text(RexNode node) {
        return cast(translate(node), FerryType.VARCHAR);
    }

    private Expr whole(RexNode node) {
        return cast(translate(node), FerryType.BIGINT);
    }

    /** Operand {@code i} of a regex function, which must be a non-NULL constant to compile once. */
    private Literal constant(String name, List<RexNode> ops, int i) {
        if (!(ops.get(i) instanceof RexLiteral lit) || lit.isNull()) {
            throw new UnsupportedExpression(name + " with a pattern or flags that are not constants");
        }
        return (Literal) cast(literal(lit), FerryType.VARCHAR);
    }

    private static List<Expr> all(List<Expr> args, FerryType type) {
        List<Expr> out = new ArrayList<>(args.size());
        for (Expr a : args) {
            out.add(cast(a, type));
        }
        return out;
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
            if (a.type().physical() == Physical.DOUBLE || b.type().physical() == Physical.DOUBLE) {
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
        if (op == Op.MOD && type.kind() != TypeKind.DOUBLE) {
            // MOD's type has the divisor's integral digits, which the dividend may exceed (MOD(12.345, 1.2) is a
            // DECIMAL(4, 3), MOD(DECIMAL(20, 0), 7) an INTEGER): both operands at the result's scale in a DECIMAL
            // with the larger integral digits of the two, the remainder cast back
            int integral = Math.max(integralDigits(a.type()), integralDigits(b.type()));
            int scale = scaleOf(type);
            FerryType wide = FerryType.decimal(Math.min(FerryType.MAX_DECIMAL_PRECISION, integral + scale), scale);
            return cast(new Call(op, List.of(cast(a, wide), cast(b, wide)), wide), type);
        }
        if (type.kind() == TypeKind.DECIMAL && (op == Op.PLUS || op == Op.MINUS)) {
            // each operand at the result's scale but with its own integral digits: where those leave room for the
            // carry, no sum can overflow, and the kernel adds without checks (ArithmeticKernels.sumFits)
            FerryType ta = atScale(a.type(), type.scale());
            FerryType tb = atScale(b.type(), type.scale());
            if (ta != null && tb != null && Math.max(ta.precision(), tb.precision()) + 1
                    <= Math.min(type.precision(), FerryType.MAX_DECIMAL_DIGITS)) {
                return new Call(op, List.of(cast(a, ta), cast(b, tb)), type);
            }
        }
        return new Call(op, List.of(cast(a, type), cast(b, type)), type);
    }

    /**
     * A DECIMAL or INTEGER {@code t} scaled up to {@code scale} with its own integral digits (exact: no digit is
     * lost), or null where it has more decimals than that or is of another type.
     */
    private static FerryType atScale(FerryType t, int scale) {
        if ((t.kind() != TypeKind.DECIMAL && t.kind() != TypeKind.INTEGER) || scaleOf(t) > scale
                || integralDigits(t) + scale > FerryType.MAX_DECIMAL_DIGITS) {
            return null;
        }
        return FerryType.decimal(Math.max(1, integralDigits(t) + scale), scale);
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
            return commonDecimal(a, b);
        }
        return FerryType.BIGINT;
    }

    /**
     * The narrowest DECIMAL that holds every value of two exact types: the larger scale and the larger number of
     * integral digits (INTEGER 10, BIGINT 19), at most 38. Most comparisons of DECIMALs so stay within 18 digits, a
     * long, and only those that need more compare 128-bit values.
     */
    static FerryType commonDecimal(FerryType a, FerryType b) {
        int scale = Math.max(scaleOf(a), scaleOf(b));
        int integral = Math.max(integralDigits(a), integralDigits(b));
        return FerryType.decimal(Math.min(FerryType.MAX_DECIMAL_PRECISION, integral + scale), scale);
    }

    private static int scaleOf(FerryType t) {
        return t.kind() == TypeKind.DECIMAL ? t.scale() : 0;
    }

    private static int integralDigits(FerryType t) {
        return switch (t.kind()) {
            case DECIMAL -> t.precision() - t.scale();
            case INTEGER -> 10;
            default -> 19;
        };
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
            return new Literal(unscaled(BigDecimal.valueOf((Long) lit.value()), to), to);
        }
        if (e instanceof Literal lit && lit.value() instanceof Long v && from.kind() == TypeKind.DECIMAL
                && to.kind() == TypeKind.DECIMAL) {
            try {
                // folded here rather than computed for every row; one that does not fit stays a CAST, which fails
                // only if a row reaches it
                return new Literal(unscaled(BigDecimal.valueOf(v, from.scale()), to), to);
            } catch (FerryException tooWide) {
                // as below
            }
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
