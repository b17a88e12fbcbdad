package io.ferry.core.storage;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
    private static final Logger LOG = LoggerFactory.getLogger(CatalogRestore.class);
    /** Blocks per part below which a file is not worth splitting among threads. */
    private static final int BLOCKS_PER_PART = 8;

    private final BlockStorage store;
    private final Catalog.FileReader reader;
    private final int threads;
    private final Consumer<DataFile> restored;
    private final AtomicInteger adopted = new AtomicInteger();

    CatalogRestore(BlockStorage store, Catalog.FileReader reader, int threads, Consumer<DataFile> restored) {
        this.store = store;
        this.reader = reader;
        this.threads = Math.max(1, threads);
        this.restored = restored;
    }

    /**
     * Restores every finished table of {@code manifest} into the table {@code create} makes for its entry; tables
     * whose filling statement never finished are left out ({@link Catalog#createToFill}). On failure, releases
     * every block it staged; the caller empties the catalog. Returns how many files' blocks were adopted where they
     * were rather than read from disk.
     */
    int run(Manifest manifest, Function<Manifest.TableEntry, Table> create) {
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
            // First the files whose blocks may still be where they were (a cluster's coordinator restarted, its
            // memory servers did not): their blocks adopted in place, so that what is read from disk after can go
            // into the adopted regions' free slots
            List<Table> owners = new ArrayList<>();
            List<DataFile> files = new ArrayList<>();
            boolean adopting = false;
            for (Table t : restoring) {
                for (DataFile f : manifest.tables().get(t.name()).files()) {
                    owners.add(t);
                    files.add(f);
                    adopting |= !f.locations().isEmpty();
                    List<Future<TableAppender>> adoption = new ArrayList<>();
                    int parts = partsOf(f);
                    for (int part = 0; !f.locations().isEmpty() && part < parts; part++) {
                        int p = part;
                        adoption.add(pool.submit(() -> adopt(t, f, p, parts)));
                    }
                    pending.add(adoption);
                }
            }
            if (adopting) {
                for (int i = 0; i < pending.size(); i++) {
                    List<TableAppender> parts = new ArrayList<>();
                    for (Future<TableAppender> part : pending.get(i)) {
                        parts.add(await(part));
                    }
                    if (parts.contains(null)) {
                        // a block of the file is gone: it is read below, and what the other parts adopted let go
                        parts.stream().filter(a -> a != null).forEach(TableAppender::close);
                        pending.set(i, List.of());
                    } else if (!parts.isEmpty()) {
                        adopted.incrementAndGet();
                    }
                }
                store.adopted();
            }
            for (int i = 0; i < files.size(); i++) {
                if (!pending.get(i).isEmpty()) {
                    continue;
                }
                Table t = owners.get(i);
                DataFile f = files.get(i);
                reader.check(f);
                int parts = partsOf(f);
                List<Future<TableAppender>> futures = new ArrayList<>();
                for (int part = 0; part < parts; part++) {
                    int p = part;
                    futures.add(pool.submit(() -> readPart(t, f, p, parts)));
                }
                pending.set(i, futures);
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
            return adopted.get();
        } catch (RuntimeException e) {
            pool.shutdownNow();
            for (List<Future<TableAppender>> futures : pending) {
                for (Future<TableAppender> f : futures) {
                    try {
                        TableAppender staged = f.get();
                        if (staged != null) {
                            staged.close();
                        }
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

    /** Into how many consecutive parts a file is cut, each read or adopted by a thread of its own. */
    private int partsOf(DataFile f) {
        return Math.max(1, Math.min(threads, f.blocks() / BLOCKS_PER_PART));
    }

    /**
     * Adopts the blocks of part {@code part} of {@code parts} of a file where they are, into an appender of its own;
     * returns null if one of them is gone or is not the block written there: then the file is read instead.
     */
    private TableAppender adopt(Table t, DataFile f, int part, int parts) {
        List<String> locations = f.locations();
        TableAppender appender = t.restorer(f);
        try {
            for (String location : locations.subList(locations.size() * part / parts,
                    locations.size() * (part + 1) / parts)) {
                appender.adopt(location);
            }
            return appender;
        } catch (FerryException e) {
            appender.close();
            LOG.info("the blocks of data file {} of table '{}' are not where they were ({}): reading the file",
                    f.name(), t.name(), e.getMessage());
            return null;
        } catch (RuntimeException | Error e) {
            appender.close();
            throw e;
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
