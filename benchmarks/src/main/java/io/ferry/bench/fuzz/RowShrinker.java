package io.ferry.bench.fuzz;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Reduces the rows a failing query needs, by delta debugging (Zeller's ddmin): remove a chunk of rows, keep the
 * removal if the query still fails the same way, and halve the chunks when no removal does. Each attempt loads the
 * remaining rows into a fresh local Ferry engine and a fresh DuckDB, as the regression test will, so a failure
 * seen only in a cluster keeps all its rows.
 */
final class RowShrinker {
    /** Each attempt plans the INSERTs anew, about a second for the default tables: a few dozen at most. */
    static final int MAX_ATTEMPTS = 40;
    /** The tables with the rows kept, the verdict on them (null if the failure did not reproduce), a note. */
    record Reduced(List<TableDef> tables, Verdict verdict, String note) {
    }

    /** A row, by table and position. */
    private record Cell(int table, int row) {
    }

    private final Execution execution;
    private final Query query;
    private final Predicate<Verdict> reproduces;
    private int tries;

    RowShrinker(Execution execution, Query query, Predicate<Verdict> reproduces) {
        this.execution = requireNonNull(execution, "execution is null");
        this.query = requireNonNull(query, "query is null");
        this.reproduces = requireNonNull(reproduces, "reproduces is null");
    }

    Reduced shrink(List<TableDef> tables, int tries) throws SQLException {
        int maxTries = Math.min(tries, MAX_ATTEMPTS);
        Verdict first = attempt(tables);
        int total = tables.stream().mapToInt(t -> t.rows().size()).sum();
        if (!reproduces.test(first)) {
            return new Reduced(tables, null, "all " + total + " rows (the failure does not reproduce in a fresh "
                    + "local engine)");
        }
        List<Cell> kept = new ArrayList<>();
        for (int t = 0; t < tables.size(); t++) {
            for (int r = 0; r < tables.get(t).rows().size(); r++) {
                kept.add(new Cell(t, r));
            }
        }
        Verdict last = first;
        int chunks = 2;
        while (kept.size() >= 1 && tries < maxTries) {
            int size = (kept.size() + chunks - 1) / chunks;
            boolean reduced = false;
            for (int from = 0; from < kept.size() && tries < maxTries; from += size) {
                List<Cell> rest = new ArrayList<>(kept.subList(0, from));
                rest.addAll(kept.subList(Math.min(kept.size(), from + size), kept.size()));
                Verdict v = attempt(subset(tables, rest));
                if (reproduces.test(v)) {
                    kept = rest;
                    last = v;
                    chunks = Math.max(chunks - 1, 2);
                    reduced = true;
                    break;
                }
            }
            if (!reduced) {
                if (size == 1) {
                    break;
                }
                chunks = Math.min(kept.size(), chunks * 2);
            }
        }
        return new Reduced(subset(tables, kept), last, kept.size() + " of " + total + " rows");
    }

    private static List<TableDef> subset(List<TableDef> tables, List<Cell> cells) {
        List<List<List<Value>>> rows = new ArrayList<>();
        tables.forEach(t -> rows.add(new ArrayList<>()));
        for (Cell c : cells) {
            rows.get(c.table()).add(tables.get(c.table()).rows().get(c.row()));
        }
        List<TableDef> out = new ArrayList<>();
        for (int t = 0; t < tables.size(); t++) {
            out.add(tables.get(t).withRows(rows.get(t)));
        }
        return out;
    }

    /** The verdict on the query over these rows, in a fresh local engine and DuckDB. */
    private Verdict attempt(List<TableDef> tables) throws SQLException {
        tries++;
        try (FerryTarget ferry = FerryTarget.local(); Connection duck = Execution.duckDb()) {
            for (TableDef t : tables) {
                for (LoadStatement s : t.load()) {
                    s.run(ferry.connection());
                    s.run(duck);
                }
            }
            return Fuzzer.judge(execution, duck, ferry.connection(), query, execution.duck(duck, query.sql()));
        }
    }
}
