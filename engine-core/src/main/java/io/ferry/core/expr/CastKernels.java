package io.ferry.core.expr;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.types.CivilCalendar;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TypeKind;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/** CAST between every pair of Ferry types. Numeric casts round half away from zero and check the target's range. */
public final class CastKernels {
    private static final DateTimeFormatter TIMESTAMP_TEXT = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private CastKernels() {
    }

    static Vector cast(Vector v, FerryType from, FerryType to, int n) {
        if (from.equals(to)) {
            return v;
        }
        if (to.kind() == TypeKind.VARCHAR) {
            if (from.kind() == TypeKind.VARCHAR) {
                return v;
            }
            BytesVector.Builder b = new BytesVector.Builder(n);
            for (int i = 0; i < n; i++) {
                if (v.isNull(i)) {
                    b.appendNull();
                } else {
                    b.append(format(v, i, from).getBytes(StandardCharsets.UTF_8));
                }
            }
            return b.build();
        }
        if (from.kind() == TypeKind.VARCHAR) {
            return parse((BytesVector) v, to, n);
        }
        if (to.kind() == TypeKind.DOUBLE) {
            double[] r = new double[n];
            if (v instanceof DoubleVector d) {
                return d;
            }
            long[] x = ((LongVector) v).values();
            double div = from.kind() == TypeKind.DECIMAL ? Decimals.pow10(from.scale()) : 1;
            for (int i = 0; i < n; i++) {
                r[i] = x[i] / div;
            }
            return new DoubleVector(r, v.nulls(), n);
        }
        if (v instanceof DoubleVector d) {
            return fromDouble(d, to, n);
        }
        LongVector l = (LongVector) v;
        return switch (to.kind()) {
            case DECIMAL -> Decimals.rescale(l, to.scale() - scaleOf(from), to, n);
            case INTEGER, BIGINT -> {
                LongVector r = from.kind() == TypeKind.DECIMAL ? Decimals.rescale(l, -from.scale(), FerryType.BIGINT, n) : l;
                ArithmeticKernels.checkWidth(r.values(), r.nulls(), to, n);
                yield from.kind() == TypeKind.DATE || from.kind() == TypeKind.TIMESTAMP ? unsupported(from, to) : r;
            }
            case BOOLEAN -> {
                long[] r = new long[n];
                for (int i = 0; i < n; i++) {
                    r[i] = l.values()[i] != 0 ? 1 : 0;
                }
                yield new LongVector(r, l.nulls(), n);
            }
            case DATE -> {
                if (from.kind() != TypeKind.TIMESTAMP) {
                    yield unsupported(from, to);
                }
                long[] r = new long[n];
                for (int i = 0; i < n; i++) {
                    r[i] = Math.floorDiv(l.values()[i], CivilCalendar.MILLIS_PER_DAY);
                }
                yield new LongVector(r, l.nulls(), n);
            }
            case TIMESTAMP -> {
                if (from.kind() != TypeKind.DATE) {
                    yield unsupported(from, to);
                }
                long[] r = new long[n];
                for (int i = 0; i < n; i++) {
                    r[i] = l.values()[i] * CivilCalendar.MILLIS_PER_DAY;
                }
                yield new LongVector(r, l.nulls(), n);
            }
            default -> unsupported(from, to);
        };
    }

    private static Vector unsupported(FerryType from, FerryType to) {
        throw new FerryException(SqlStates.DATATYPE_MISMATCH, "cannot cast " + from + " to " + to);
    }

    private static int scaleOf(FerryType t) {
        return t.kind() == TypeKind.DECIMAL ? t.scale() : 0;
    }

    private static Vector fromDouble(DoubleVector d, FerryType to, int n) {
        double[] x = d.values();
        long[] r = new long[n];
        double factor = to.kind() == TypeKind.DECIMAL ? Decimals.pow10(to.scale()) : 1;
        for (int i = 0; i < n; i++) {
            if (d.isNull(i)) {
                continue;
            }
            double scaled = x[i] * factor;
            if (Double.isNaN(scaled) || Math.abs(scaled) >= 9.2e18) {
                throw FerryException.overflow(to.sqlName());
            }
            r[i] = to.kind() == TypeKind.BOOLEAN ? (x[i] != 0 ? 1 : 0) : Math.round(Math.abs(scaled)) * (scaled < 0 ? -1 : 1);
        }
        ArithmeticKernels.checkWidth(r, d.nulls(), to, n);
        return new LongVector(r, d.nulls(), n);
    }

    /** The SQL text of one value, as CAST(x AS VARCHAR) gives it. */
    public static String format(Vector v, int i, FerryType type) {
        if (v instanceof BytesVector b) {
            return b.getString(i);
        }
        if (v instanceof DoubleVector d) {
            return Double.toString(d.get(i));
        }
        long x = ((LongVector) v).get(i);
        return switch (type.kind()) {
            case BOOLEAN -> x != 0 ? "TRUE" : "FALSE";
            case DECIMAL -> BigDecimal.valueOf(x, type.scale()).toPlainString();
            case DATE -> LocalDate.ofEpochDay(x).toString();
            case TIMESTAMP -> {
                LocalDateTime t = LocalDateTime.ofEpochSecond(Math.floorDiv(x, 1000), (int) Math.floorMod(x, 1000) * 1_000_000, ZoneOffset.UTC);
                String s = t.format(TIMESTAMP_TEXT);
                yield Math.floorMod(x, 1000) == 0 ? s : s + String.format(".%03d", Math.floorMod(x, 1000));
            }
            default -> Long.toString(x);
        };
    }

    private static Vector parse(BytesVector v, FerryType to, int n) {
        if (to.kind() == TypeKind.DOUBLE) {
            double[] r = new double[n];
            for (int i = 0; i < n; i++) {
                if (!v.isNull(i)) {
                    String s = v.getString(i).trim();
                    try {
                        r[i] = Double.parseDouble(s);
                    } catch (NumberFormatException e) {
                        throw invalid(s, to);
                    }
                }
            }
            return new DoubleVector(r, v.nulls(), n);
        }
        long[] r = new long[n];
        for (int i = 0; i < n; i++) {
            if (!v.isNull(i)) {
                r[i] = parseLong(v.getString(i), to);
            }
        }
        return new LongVector(r, v.nulls(), n);
    }

    /** Parses SQL text into the physical long of {@code to}; a 22xxx error names the value when it cannot. */
    public static long parseLong(String text, FerryType to) {
        String s = text.trim();
        try {
            return switch (to.kind()) {
                case INTEGER -> {
                    long x = Long.parseLong(s);
                    if (x != (int) x) {
                        throw FerryException.overflow(to.sqlName());
                    }
                    yield x;
                }
                case BIGINT -> Long.parseLong(s);
                case DECIMAL -> {
                    BigDecimal d = new BigDecimal(s).setScale(to.scale(), RoundingMode.HALF_UP);
                    if (d.precision() > to.precision() && d.unscaledValue().abs().compareTo(
                            java.math.BigInteger.TEN.pow(to.precision())) >= 0) {
                        throw FerryException.overflow(to.sqlName());
                    }
                    yield d.unscaledValue().longValueExact();
                }
                case BOOLEAN -> switch (s.toLowerCase(java.util.Locale.ROOT)) {
                    case "true", "t", "1", "yes", "y" -> 1L;
                    case "false", "f", "0", "no", "n" -> 0L;
                    default -> throw invalid(s, to);
                };
                case DATE -> LocalDate.parse(s).toEpochDay();
                case TIMESTAMP -> parseTimestamp(s);
                default -> throw invalid(s, to);
            };
        } catch (NumberFormatException | ArithmeticException e) {
            if (looksNumeric(s)) {
                throw FerryException.overflow(to.sqlName());
            }
            throw invalid(s, to);
        } catch (DateTimeParseException e) {
            throw new FerryException(SqlStates.INVALID_DATETIME_FORMAT, "invalid " + to.sqlName() + " value '" + s
                    + "': write dates as YYYY-MM-DD and timestamps as YYYY-MM-DD HH:MM:SS[.fff]");
        }
    }

    private static boolean looksNumeric(String s) {
        return s.matches("[-+]?[0-9]+(\\.[0-9]*)?");
    }

    static long parseTimestamp(String s) {
        String t = s.length() > 10 && s.charAt(10) == ' ' ? s.substring(0, 10) + 'T' + s.substring(11) : s;
        if (t.length() == 10) {
            return LocalDate.parse(t).toEpochDay() * CivilCalendar.MILLIS_PER_DAY;
        }
        LocalDateTime dt = LocalDateTime.parse(t);
        return dt.toInstant(ZoneOffset.UTC).toEpochMilli();
    }

    private static FerryException invalid(String s, FerryType to) {
        return new FerryException(SqlStates.INVALID_CHARACTER_VALUE_FOR_CAST, "invalid input for " + to.sqlName()
                + ": '" + s + "'; check the value or CAST it to a type that can hold it");
    }
}
