package io.ferry.server.data;

import java.util.ArrayList;
import java.util.List;

import io.ferry.core.gen.SkewRows;
import io.ferry.core.gen.SkewWorkload;
import io.ferry.core.storage.Catalog;
import io.ferry.core.storage.Table;
import io.ferry.core.storage.TableAppender;

/**
 * {@code bin/ferry load --generate skew:…}: the skew paper's four tables made and stored in a catalog, partitioned
 * and placed as the spec says. Table function {@code skew_workload} makes the same rows.
 */
public final class SkewLoad {
    private SkewLoad() {
    }

    /** Creates and fills the four tables; if one fails, those this call created are dropped again. */
    public static void load(SkewWorkload.Spec spec, Catalog catalog, ProgressListener progress) {
        SkewWorkload workload = new SkewWorkload(spec);
        List<String> created = new ArrayList<>();
        boolean done = false;
        try {
            for (String name : SkewWorkload.TABLES) {
                Table table = catalog.createToFill(spec.prefix() + name, SkewWorkload.schema());
                created.add(spec.prefix() + name);
                catalog.partition(table, workload.partitioning(name), spec.placement());
                SkewRows rows = workload.rows(name);
                progress.start("generate " + name, rows.rows(), ProgressListener.Unit.ROWS);
                try (TableAppender appender = table.appender()) {
                    long made = 0;
                    for (int m = 0; m < rows.morsels(); m++) {
                        appender.append(rows.morsel(m));
                        made += rows.morselRows(m);
                        progress.update(made);
                    }
                    appender.commit();
                } finally {
                    progress.finish();
                }
            }
            done = true;
        } finally {
            if (!done) {
                for (String name : created) {
                    catalog.drop(name, true);
                }
            }
        }
    }
}
