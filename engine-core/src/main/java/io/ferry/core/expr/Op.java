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
    UPPER, LOWER, CHAR_LENGTH, CONCAT, SUBSTRING,
    ABS;

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
