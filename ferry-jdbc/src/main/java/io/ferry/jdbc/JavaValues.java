package io.ferry.jdbc;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * {@code ResultSet.getObject(column, type)} for the Java types JDBC 4.2 maps SQL values to. Avatica's client
 * implements it for no type at all ("cannot convert to Object (with type)"), not even String. DATE and TIMESTAMP
 * values are read from the numbers on the wire (days and milliseconds since 1970-01-01, proleptic Gregorian, no time
 * zone) rather than through {@code java.sql.Date}, which counts old dates in the Julian calendar. Ferry's TIMESTAMP
 * has no time zone: read as an {@link OffsetDateTime} or {@link Instant} it is taken to be UTC.
 */
final class JavaValues {
    private JavaValues() {
    }

    static <T> T read(ResultSet rs, int column, Class<T> type) throws SQLException {
        if (type == null) {
            throw new SQLException("getObject needs the class to read column " + column + " as", "22023");
        }
        int sqlType = rs.getMetaData().getColumnType(column);
        Object value = value(rs, column, sqlType, type);
        return rs.wasNull() ? null : type.cast(value);
    }

    private static Object value(ResultSet rs, int column, int sqlType, Class<?> type) throws SQLException {
        if (type == Object.class) {
            return rs.getObject(column);
        } else if (type == String.class) {
            return rs.getString(column);
        }
        switch (sqlType) {
            case Types.DATE, Types.TIMESTAMP -> {
                Object t = dateTime(rs, column, sqlType == Types.TIMESTAMP, type);
                if (t != null || rs.wasNull()) {
                    return t;
                }
            }
            case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR -> {
                String text = rs.getString(column);
                try {
                    Object n = text == null ? null : number(text.trim(), type);
                    if (n != null || text == null && numeric(type)) {
                        return n;
                    }
                } catch (NumberFormatException e) {
                    throw new SQLException("column " + column + " holds '" + text + "', which is not a "
                            + type.getSimpleName(), "22018");
                }
            }
            default -> {
                if (numeric(type)) {
                    return number(rs, column, type);
                }
            }
        }
        throw new SQLException("column " + column + " is a " + rs.getMetaData().getColumnTypeName(column)
                + " and cannot be read as " + type.getName() + "; read it as " + (sqlType == Types.DATE
                || sqlType == Types.TIMESTAMP ? "LocalDate, LocalDateTime, OffsetDateTime, Instant"
                + (sqlType == Types.TIMESTAMP ? ", LocalTime" : "") + ", java.sql.Date, java.sql.Timestamp or String"
                : "BigDecimal, Long, Integer, Double, Boolean or String"), "22023");
    }

    private static boolean numeric(Class<?> type) {
        return type == BigDecimal.class || type == Boolean.class || type == Byte.class || type == Short.class
                || type == Integer.class || type == Long.class || type == Float.class || type == Double.class;
    }

    /** A number or BOOLEAN column as {@code type}, one of the {@link #numeric} types. */
    private static Object number(ResultSet rs, int column, Class<?> type) throws SQLException {
        if (type == BigDecimal.class) {
            return rs.getBigDecimal(column);
        } else if (type == Boolean.class) {
            return rs.getBoolean(column);
        } else if (type == Byte.class) {
            return rs.getByte(column);
        } else if (type == Short.class) {
            return rs.getShort(column);
        } else if (type == Integer.class) {
            return rs.getInt(column);
        } else if (type == Long.class) {
            return rs.getLong(column);
        } else if (type == Float.class) {
            return rs.getFloat(column);
        }
        return rs.getDouble(column);
    }

    /** Text as {@code type} if it is one of the {@link #numeric} types, else null. */
    private static Object number(String text, Class<?> type) {
        if (type == BigDecimal.class) {
            return new BigDecimal(text);
        } else if (type == Boolean.class) {
            if (!text.equalsIgnoreCase("true") && !text.equalsIgnoreCase("false")) {
                throw new NumberFormatException(text);
            }
            return Boolean.parseBoolean(text);
        } else if (type == Byte.class) {
            return Byte.parseByte(text);
        } else if (type == Short.class) {
            return Short.parseShort(text);
        } else if (type == Integer.class) {
            return Integer.parseInt(text);
        } else if (type == Long.class) {
            return Long.parseLong(text);
        } else if (type == Float.class) {
            return Float.parseFloat(text);
        } else if (type == Double.class) {
            return Double.parseDouble(text);
        }
        return null;
    }

    /** A DATE or TIMESTAMP column as {@code type}; null if it is NULL or not a date or time type. */
    private static Object dateTime(ResultSet rs, int column, boolean timestamp, Class<?> type) throws SQLException {
        if (type == java.sql.Date.class) {
            return rs.getDate(column);
        } else if (type == java.sql.Timestamp.class) {
            return rs.getTimestamp(column);
        } else if (type == java.sql.Time.class) {
            return rs.getTime(column);
        }
        long n = rs.getLong(column);
        if (rs.wasNull()) {
            return null;
        }
        LocalDateTime t = !timestamp ? LocalDate.ofEpochDay(n).atStartOfDay()
                : LocalDateTime.ofEpochSecond(Math.floorDiv(n, 1000), (int) Math.floorMod(n, 1000) * 1_000_000,
                        ZoneOffset.UTC);
        if (type == LocalDate.class) {
            return t.toLocalDate();
        } else if (type == LocalDateTime.class) {
            return t;
        } else if (type == LocalTime.class && timestamp) {
            return t.toLocalTime();
        } else if (type == OffsetDateTime.class) {
            return t.atOffset(ZoneOffset.UTC);
        } else if (type == Instant.class) {
            return t.toInstant(ZoneOffset.UTC);
        }
        return null;
    }
}
