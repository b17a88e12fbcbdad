package io.ferry.core.exec;

/** Joins Ferry runs natively; RIGHT joins are planned as LEFT joins with the inputs swapped. */
public enum JoinKind {
    INNER, LEFT, SEMI, ANTI
}
