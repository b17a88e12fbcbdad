package io.ferry.core.exec;

public record SortKey(int column, boolean descending, boolean nullsFirst) {
}
