package io.ferry.core.storage;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.Function;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;

/**
 * Reads a manifest's tables back into a catalog on several threads. Every data file is checked whole first (Arrow
 * trusts what it parses), then cut into consecutive parts that are read and encoded into blocks side by side, each
 * into an appender of its own; the parts of a file are committed together and the files of a table in order, so the
 * table's blocks follow its files as when they were written (a file's blocks are what later appends merge from).
 * A file is checked while the ones before it are read.
 */
final class CatalogRestore {
    /** Blocks per part below which a file is not worth splitting among threads. */
    private static final int BLOCKS_PER_PART = 8;

    private final Catalog.FileReader reader;
    private final int threads;
    private final Consumer<DataFile> restored;

    CatalogRestore(Catalog.FileReader reader, int threads, Consumer<DataFile> restored) {
        this.reader = reader;
        this.threads = Math.max(1, threads);
        this.restored = restored;
    }

    /**
     * Restores every finished table of {@code manifest} into the table {@code create} makes for its entry; tables
     * whose filling statement never finished are left out ({@link Catalog#createToFill}). On failure, releases
     * every block it staged; the caller empties the catalog.
     */
    void run(Manifest manifest, Function<Manifest.TableEntry, Table> create) {
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "ferry-restore");
            t.setDaemon(true);
            return t;
        });
        List<List<Future<TableAppender>>> pending = new ArrayList<>();
        try {
            List<Table> restoring = new ArrayList<>();
            for (Manifest.TableEntry e : manifest.tables().values()) {
                if (!e.filling()) {
                    restoring.add(create.apply(e));
                }
            }
            for (Table t : restoring) {
                for (DataFile f : manifest.tables().get(t.name()).files()) {
                    reader.check(f);
                    int parts = Math.max(1, Math.min(threads, f.blocks() / BLOCKS_PER_PART));
                    List<Future<TableAppender>> futures = new ArrayList<>();
                    for (int part = 0; part < parts; part++) {
                        int p = part;
                        futures.add(pool.submit(() -> readPart(t, f, p, parts)));
                    }
                    pending.add(futures);
                }
            }
            int next = 0;
            for (Table t : restoring) {
                for (DataFile f : manifest.tables().get(t.name()).files()) {
                    List<TableAppender> parts = new ArrayList<>();
                    for (Future<TableAppender> part : pending.get(next)) {
                        parts.add(await(part));
                    }
                    pending.set(next++, List.of());
                    commit(t, f, parts);
                    restored.accept(f);
                }
                t.setAttached(true);
            }
        } catch (RuntimeException e) {
            pool.shutdownNow();
            for (List<Future<TableAppender>> futures : pending) {
                for (Future<TableAppender> f : futures) {
                    try {
                        f.get().close();
                    } catch (ExecutionException | InterruptedException | CancellationException ignored) {
                        // a part that failed or never ran staged nothing to release
                    }
                }
            }
            throw e;
        } finally {
            pool.shutdown();
        }
    }

    /** Reads one part of a file into an appender of its own, its rows encoded into blocks but not published. */
    private TableAppender readPart(Table t, DataFile f, int part, int parts) {
        TableAppender appender = t.restorer(f);
        try {
            reader.read(f, t.schema(), part, parts, appender::append);
            return appender;
        } catch (RuntimeException | Error e) {
            appender.close();
            throw e;
        }
    }

    private static void commit(Table t, DataFile f, List<TableAppender> parts) {
        long rows = 0;
        for (TableAppender a : parts) {
            rows += a.stagedRows();
        }
        if (rows != f.rows()) {
            parts.forEach(TableAppender::close);
            throw new FerryException(SqlStates.DATA_CORRUPTED, "data file " + f.name() + " of table '" + t.name()
                    + "' holds " + rows + " rows where the manifest says " + f.rows());
        }
        TableAppender.commitRestored(parts);
    }

    private static TableAppender await(Future<TableAppender> part) {
        try {
            return part.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException("restoring a table failed: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FerryException(SqlStates.QUERY_CANCELED, "interrupted while restoring the catalog");
        }
    }
}
