package io.ferry.core.expr;

/**
 * The operators Ferry evaluates natively. Arguments arrive already cast to the types the operator expects
 * (the SQL layer inserts CASTs): arithmetic and comparisons take operands of one type, except that DECIMAL
 * multiplication and division take operands of any scale and produce the result type's scale.
 */
public enum Op {
    PLUS, MINUS, TIMES, DIVIDE, MOD, NEGATE,
    EQ, NE, LT, LE, GT, GE,
    AND, OR, NOT,
    IS_NULL, IS_NOT_NULL, IS_TRUE, IS_FALSE, IS_NOT_TRUE, IS_NOT_FALSE,
    /** args: when1, then1, when2, then2, ..., else. */
    CASE,
    CAST,
    /** As CAST, but NULL for a value that does not convert. */
    TRY_CAST,
    /** args: value, pattern literal, optional escape literal. */
    LIKE,
    /** args: value, then literals; true when value equals any of them. */
    IN,
    COALESCE,
    /** args: unit ({@link DatePart} name, a VARCHAR literal), DATE or TIMESTAMP; a BIGINT. */
    DATE_PART,
    /** args: unit literal, DATE or TIMESTAMP; a TIMESTAMP. */
    DATE_TRUNC,
    /** args: unit literal, start, end (each DATE or TIMESTAMP); a BIGINT. */
    DATE_DIFF,
    /** args: DATE or TIMESTAMP, BIGINT milliseconds; a DATE moves by whole days (the milliseconds cut toward zero). */
    PLUS_MILLIS,
    /**
     * args: DATE or TIMESTAMP, BIGINT months; the day is clamped to the month's last (2024-01-31 plus a month is
     * 2024-02-29), as DuckDB does.
     */
    PLUS_MONTHS,
    /** args: end, start (each DATE or TIMESTAMP); the largest whole number of months m with start + m months <= end. */
    MONTHS_BETWEEN,
    /** No args: the statement's clock, bound to a literal before the plan runs ({@link StatementValues}). */
    CURRENT_DATE, CURRENT_TIMESTAMP,
    /** args: a BIGINT literal, the parameter's number from 0; bound to its value before the plan runs. */
    PARAMETER,
    UPPER, LOWER, CHAR_LENGTH, CONCAT, SUBSTRING,
    /** args: separator, then strings; NULL strings are skipped, a NULL separator gives NULL. */
    CONCAT_WS,
    /** args: string, BIGINT count; empty for a count below 1. */
    REPEAT,
    /** args: string; the first character's code point (0 for ''). */
    ASCII,
    /** args: BIGINT code point; the one-character string. */
    CHR,
    /** args: string; the lower-case hex MD5 of its UTF-8 bytes. */
    MD5,
    STARTS_WITH, ENDS_WITH,
    /** args: string, from, to; each character of from becomes the one at its position in to, or is removed. */
    TRANSLATE,
    /** args: string, replacement, BIGINT start[, BIGINT length]; SQL's OVERLAY(s PLACING r FROM start FOR length). */
    OVERLAY,
    REVERSE,
    /** args: needle, haystack; 1-based character position of the first occurrence, 0 if none. */
    POSITION,
    /** args: string, pattern literal (a java.util.regex pattern); true when the whole string matches. */
    REGEXP_FULL_MATCH,
    /** args: string, pattern literal[, BIGINT group]; DuckDB's REGEXP_EXTRACT: '' when nothing matches. */
    REGEXP_EXTRACT,
    /** args: string, pattern literal[, BIGINT start[, BIGINT occurrence]]; PostgreSQL's REGEXP_SUBSTR: NULL if none. */
    REGEXP_SUBSTR,
    /** args: string, BIGINT count; the first count characters, or all but the last -count when it is negative. */
    LEFT,
    /** args: string, BIGINT count; the last count characters, or all but the first -count when it is negative. */
    RIGHT,
    /** args: string, BIGINT width, fill; padded on the left (right) to width characters, or cut to its first width. */
    LPAD, RPAD,
    /** args: string, from, to; every occurrence of from replaced, left to right. */
    REPLACE,
    /** args: string, characters; those characters removed from the start, the end, or both. */
    LTRIM, RTRIM, BTRIM,
    /** args: string, delimiter, BIGINT field; DuckDB's SPLIT_PART. */
    SPLIT_PART,
    /** args: string; the first letter of each run of letters and digits upper-cased, the others lower-cased. */
    INITCAP,
    /** args: string; its length in UTF-8 bytes, a BIGINT. */
    OCTET_LENGTH,
    /** args: needle, haystack, BIGINT start, BIGINT occurrence; Calcite's INSTR and POSITION ... FROM (characters). */
    INSTR,
    /** args: string, pattern literal, flags literal; true when the pattern matches somewhere in the string. */
    REGEXP_LIKE,
    /** args: string, pattern literal, replacement, flags literal; the first match (every one with 'g') replaced. */
    REGEXP_REPLACE,
    ABS,
    /** DOUBLE functions of one DOUBLE argument. */
    SIN, COS, TAN, ASIN, ACOS, ATAN, COT, DEGREES, RADIANS, CBRT,
    /** args: x, or base and x; logarithm (base 10 for one argument). A non-positive argument is 2201E. */
    LOG,
    LOG2,
    /** args: y, x. */
    ATAN2,
    /** args: a number; -1, 0 or 1 in its type. */
    SIGN,
    /** args: a number, BIGINT digits; cut toward zero to that many digits after the point (before it if negative). */
    TRUNCATE,
    // ---- ROUND, CEIL, FLOOR, SQRT, EXP, LN, POWER, FLOOR/CEIL TO a unit, LAST_DAY, DAYNAME, MONTHNAME ----
    /**
     * args: a number, BIGINT digits; rounded half away from zero to that many digits after the point (before it when
     * negative), in the call's type; a DOUBLE as DuckDB rounds it (scaled by 10^n, rounded, scaled back).
     */
    ROUND,
    /** args: a DOUBLE or DECIMAL; the nearest whole number above (CEIL) or below (FLOOR), a DECIMAL at scale 0. */
    CEIL, FLOOR,
    /** DOUBLE functions of one DOUBLE: square root (NaN below zero), e^x, natural logarithm (2201E as LOG). */
    SQRT, EXP, LN,
    /** args: base, exponent (DOUBLEs); C's pow, as DuckDB: NaN for a negative base and a fractional exponent. */
    POWER,
    /**
     * args: unit literal, DATE or TIMESTAMP; the start of the unit holding it (FLOOR_TO), or the next start unless it is
     * one (CEIL_TO), in the argument's type. Weeks start on Sunday, as in Calcite's FLOOR(x TO WEEK).
     */
    FLOOR_TO, CEIL_TO,
    /** args: DATE or TIMESTAMP; the DATE of its month's last day. */
    LAST_DAY,
    /** args: DATE or TIMESTAMP; the English name of its weekday or month ('Monday', 'January'). */
    DAYNAME, MONTHNAME,
    /** No args: a DOUBLE drawn uniformly from [0, 1) for each row. */
    RANDOM,
    /**
     * args: BIGINT row count, value; the value, where the count is at most 1. A larger count fails the statement
     * (21000): a scalar subquery's rows, counted beside its value ({@code SINGLE_VALUE} of SQL).
     */
    SINGLE_ROW;

    /** The comparison that holds with the operands swapped ({@code a < b} is {@code b > a}); other ops are their own. */
    public Op swapped() {
        return switch (this) {
            case LT -> GT;
            case LE -> GE;
            case GT -> LT;
            case GE -> LE;
            default -> this;
        };
    }
}
