package io.ferry.core.types;

/**
 * How a value is held in an execution vector. Every logical type maps onto one of three so the kernels are
 * specialized three ways rather than eight: integral, date, timestamp, boolean and decimal (unscaled) values
 * are longs, DOUBLE is a double, VARCHAR is UTF-8 bytes.
 */
public enum Physical {
    LONG, DOUBLE, BYTES
}
