package io.ferry.bench.fuzz;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A failure the fuzzer found, shrunk: the query as generated and as reduced, on which target and shipping
 * setting, what each engine said, how often the same failure came up, and the regression test that reproduces it.
 */
public record Finding(int index, String target, String shipping, Query query, Verdict verdict, Query shrunk,
        Verdict shrunkVerdict, List<TableDef> tables, String dataNote, int occurrences, String repro) {
    public Finding {
        requireNonNull(target, "target is null");
        requireNonNull(query, "query is null");
        requireNonNull(verdict, "verdict is null");
        requireNonNull(shrunk, "shrunk is null");
        requireNonNull(shrunkVerdict, "shrunkVerdict is null");
        tables = List.copyOf(tables);
        requireNonNull(dataNote, "dataNote is null");
    }

    public Finding seen(int more) {
        return new Finding(index, target, shipping, query, verdict, shrunk, shrunkVerdict, tables, dataNote,
                occurrences + more, repro);
    }

    /** Where it ran: "local", "cluster (shipping = 'data')" or "cluster (execution = 'shuffle')". */
    public String where() {
        return shipping == null ? target : target + (shipping.equals("shuffle") ? " (execution = 'shuffle')"
                : " (shipping = '" + shipping + "')");
    }
}
