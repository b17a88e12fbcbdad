package io.ferry.core.storage;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;

import io.ferry.core.stats.TableStats;
import io.ferry.core.types.TableSchema;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.Vector;

/**
 * A named table: its schema, its constraints and its current {@link TableData} version. Readers take a version and
 * never wait. Writers take turns ({@link #lockWrites()}): an INSERT only for its commit, a DELETE or UPDATE for its
 * whole run, since it computes the table's next version from the current one.
 */
public final class Table implements TableHandle {
    /** How long a write waits for another statement's write to the same table before it gives up. */
    static final Duration LOCK_WAIT = Duration.ofSeconds(60);

    private final long id;
    private final String name;
    private final TableSchema schema;
    private final List<UniqueConstraint> constraints;
    private final BlockStorage store;
    private final Persistence persistence;
    private final Runnable onChange;
    private final ReentrantLock writes = new ReentrantLock();
    private final AtomicLong blocksRead = new AtomicLong();
    private final AtomicLong blocksSkipped = new AtomicLong();
    private volatile List<ZoneMapIndex> indexes;
    private volatile PartitionScheme partitioning = PartitionScheme.NONE;
    private volatile Placement placement = Placement.NAM;
    private TableData current;
    /** Per constraint, the keys of {@link #current}; null until a write first needs them. */
    private List<UniqueKeys> currentKeys;
    private boolean dropped;
    /** Whether the table is in its catalog, so that its changes go to the manifest. */
    private boolean attached;
    /** Whether the statement that made the table has yet to commit its rows ({@link Manifest.TableEntry#filling}). */
    private boolean filling;
    /** The files holding {@link #current}'s rows in order, when it is persisted; their blocks add up to its blocks. */
    private List<DataFile> files = List.of();

    /**
     * {@code id} tells this table from any other of its name, before or after; {@code onChange} runs after every
     * change to its rows.
     */
    Table(long id, String name, TableSchema schema, List<UniqueConstraint> constraints, List<ZoneMapIndex> indexes,
            BlockStorage store, Persistence persistence, Runnable onChange) {
        this.id = id;
        this.name = requireNonNull(name, "name is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.constraints = List.copyOf(constraints);
        for (ZoneMapIndex i : indexes) {
            if (i.column() >= schema.size()) {
                throw new IllegalArgumentException("index " + i.name() + " on column " + i.column() + " of a table of "
                        + schema.size() + " columns");
            }
        }
        this.indexes = List.copyOf(indexes);
        this.store = store;
        this.persistence = persistence;
        this.onChange = onChange;
        this.current = TableData.empty(schema.size());
    }

    /** What tells this table from another of its name (one dropped, or made by ALTER TABLE) in the manifest. */
    public long id() {
        return id;
    }

    /** The files that hold the table's rows in a data directory (none in memory, or while it is built aside). */
    public synchronized List<DataFile> files() {
        return files;
    }

    /** Whether the table's changes go to the manifest: it is in its catalog, and the catalog is persisted. */
    private synchronized boolean durable() {
        return attached && persistence.durable();
    }

    /** Whether the statement that made the table is still to commit its first rows. */
    public synchronized boolean filling() {
        return filling;
    }

    /** The catalog sets this for a table a statement creates to fill. */
    synchronized void setFilling(boolean f) {
        filling = f;
    }

    /** The catalog sets this as it puts the table in or takes it out. */
    synchronized void setAttached(boolean in) {
        attached = in;
    }

    /** The table's PRIMARY KEY and UNIQUE constraints, which every write keeps. */
    public List<UniqueConstraint> constraints() {
        return constraints;
    }

    /** The table's zone-map indexes (CREATE INDEX): the columns whose zone maps its scans use. */
    public List<ZoneMapIndex> indexes() {
        return indexes;
    }

    /** Whether a zone-map index covers {@code column}. */
    public boolean indexed(int column) {
        for (ZoneMapIndex i : indexes) {
            if (i.column() == column) {
                return true;
            }
        }
        return false;
    }

    /** How the table's rows are split into partitions (I-Store DPE section 3); NONE for one partition. */
    public PartitionScheme partitioning() {
        return partitioning;
    }

    /** Where a cluster places the blocks of each partition. */
    public Placement placement() {
        return placement;
    }

    /** Sets the partitioning; the {@link Catalog} does, while the table has no rows. */
    void setPartitioning(PartitionScheme scheme, Placement where) {
        partitioning = java.util.Objects.requireNonNull(scheme, "scheme is null");
        placement = java.util.Objects.requireNonNull(where, "placement is null");
    }

    /** Replaces the index list; the {@link Catalog} does, holding this table's write lock and its own monitor. */
    void setIndexes(List<ZoneMapIndex> next) {
        indexes = List.copyOf(next);
    }

    /** Counts what one scan of this table did: blocks it read, and blocks its zone maps let it skip. */
    public void recordScan(int read, int skipped) {
        blocksRead.addAndGet(read);
        blocksSkipped.addAndGet(skipped);
    }

    /** Blocks scans of this table have read since it was created (sys.tables). */
    public long blocksRead() {
        return blocksRead.get();
    }

    /** Blocks scans of this table have skipped by their zone maps since it was created (sys.tables). */
    public long blocksSkipped() {
        return blocksSkipped.get();
    }

    /** A lock on the table's writes, held until closed; the current thread may take it again. */
    public WriteLock lockWrites() {
        try {
            if (!writes.tryLock(LOCK_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new FerryException(SqlStates.LOCK_NOT_AVAILABLE, "table '" + name + "' has been changed by "
                        + "another statement for over " + LOCK_WAIT.toSeconds() + " s; retry when it is done");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FerryException(SqlStates.QUERY_CANCELED, "canceled while waiting to change table '" + name
                    + "'");
        }
        return writes::unlock;
    }

    /** A held write lock; closing releases it. */
    @FunctionalInterface
    public interface WriteLock extends AutoCloseable {
        @Override
        void close();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public TableSchema schema() {
        return schema;
    }

    /** The current version, retained for the caller: close it when done. */
    public synchronized TableData snapshot() {
        return current.retain();
    }

    public synchronized long rowCount() {
        return current.rowCount();
    }

    /** Statistics of the current version's rows (what the planner estimates result sizes from). */
    public synchronized TableStats stats() {
        return current.stats();
    }

    /**
     * Hands every block of the current version to {@code sink} as one batch of all columns, in order; returns the
     * number of rows. The version is held for the whole scan, so a concurrent INSERT or DROP cannot free blocks
     * under it.
     */
    public long forEachBatch(Consumer<Batch> sink) {
        long rows = 0;
        try (TableData data = snapshot()) {
            for (Block block : data.blocks()) {
                block.read(reader -> sink.accept(reader.batch(schema)));
                rows += block.rowCount();
            }
        }
        return rows;
    }

    /** Starts staging rows to add; nothing is visible until {@link TableAppender#commit()}. */
    public TableAppender appender() {
        return new TableAppender(this, store, false);
    }

    /** Starts staging the rows of {@code file}, read back as the catalog is restored; committing writes nothing. */
    TableAppender restorer(DataFile file) {
        return new TableAppender(this, store, false, file);
    }

    /**
     * Starts staging the table's next contents, which replace all its rows at {@link TableAppender#commit()}. The
     * caller holds {@link #lockWrites()} from before it reads the rows it derives them from until the commit.
     */
    public TableAppender rewriter() {
        if (!writes.isHeldByCurrentThread()) {
            throw new IllegalStateException("rewriting table '" + name + "' without holding its write lock");
        }
        return new TableAppender(this, store, true);
    }

    /**
     * Gives this new, empty table the rows of {@code source}, whose columns are stored alike (a renamed table or
     * column): the blocks are shared, not copied. The caller holds source's write lock.
     */
    public synchronized void shareRows(Table source) {
        if (current.rowCount() > 0 || source.schema.size() != schema.size()
                || !source.schema.types().equals(schema.types())) {
            throw new IllegalStateException("table '" + name + "' cannot share the rows of '" + source.name + "'");
        }
        TableData shared = source.snapshot();
        List<UniqueKeys> keys = null;
        List<DataFile> sharedFiles;
        synchronized (source) {
            sharedFiles = source.files;
            if (source.currentKeys != null && source.constraints.equals(constraints)) {
                keys = new ArrayList<>();
                for (UniqueKeys k : source.currentKeys) {
                    keys.add(k.copyFor(name, schema));
                }
            }
        }
        current.close();
        current = shared;
        currentKeys = keys;
        files = sharedFiles;
        onChange.run();
    }

    /** Empty key sets, one per constraint, for rows about to be staged. */
    List<UniqueKeys> newKeys() {
        List<UniqueKeys> keys = new ArrayList<>(constraints.size());
        for (UniqueConstraint c : constraints) {
            keys.add(new UniqueKeys(name, schema, c));
        }
        return keys;
    }

    /**
     * Makes {@code staged} visible, after the current rows or instead of them, with {@code stagedStats} the stats of
     * exactly their rows and {@code stagedKeys} their keys. A persisted table writes them to a file and commits a
     * manifest naming it first; with {@code restored}, the rows are that file's, read back as the catalog is restored,
     * and nothing is written. Releases the blocks if it fails.
     */
    void publish(List<Block> staged, TableStats stagedStats, List<UniqueKeys> stagedKeys, boolean replace,
            DataFile restored) {
        List<DataFile> written = List.of();
        List<DataFile> replaced = List.of();
        try (WriteLock held = lockWrites()) {
            List<DataFile> nextFiles;
            if (restored != null) {
                nextFiles = concat(files(), restored.heldIn(staged));
            } else if (durable()) {
                FileChange change = writeFiles(staged, replace);
                written = change.written();
                nextFiles = change.files();
            } else {
                nextFiles = replace ? List.of() : files();
            }
            synchronized (this) {
                replaced = publishLocked(staged, stagedStats, stagedKeys, replace, nextFiles);
            }
        } catch (RuntimeException e) {
            for (Block b : staged) {
                b.release();
            }
            persistence.release(written);
            throw e;
        }
        persistence.release(replaced);
    }

    /**
     * Reads the table's rows back from its data files, placed anew, in place of its blocks, writing nothing: a
     * cluster's coordinator does this for a table some of whose blocks were on a memory server that restarted and lost
     * them. Holds the table's write lock throughout, so no change comes between; queries meanwhile see the table as
     * it was. Does nothing for a table whose rows are not kept in files.
     */
    public void reload(Catalog.FileReader reader) {
        try (WriteLock held = lockWrites()) {
            if (!durable() || !attached) {
                return;
            }
            List<TableAppender> perFile = new ArrayList<>();
            try {
                for (DataFile f : files()) {
                    reader.check(f);
                    TableAppender a = new TableAppender(this, store, true, f);
                    perFile.add(a);
                    reader.read(f, schema, 0, 1, a::append);
                }
            } catch (RuntimeException | Error e) {
                perFile.forEach(TableAppender::close);
                throw e;
            }
            TableAppender.commitReloaded(this, perFile);
        }
    }

    /** Publishes a {@link #reload}: {@code staged} in place of every block, the same rows in the same files. */
    void publishReloaded(List<Block> staged, TableStats stagedStats, List<UniqueKeys> stagedKeys,
            List<DataFile> nextFiles) {
        List<DataFile> replaced;
        try (WriteLock held = lockWrites()) {
            synchronized (this) {
                replaced = publishLocked(staged, stagedStats, stagedKeys, true, nextFiles);
            }
        } catch (RuntimeException e) {
            for (Block b : staged) {
                b.release();
            }
            throw e;
        }
        persistence.release(replaced);
    }

    /** The table's next files ({@code files}), of which {@code written} are new. */
    private record FileChange(List<DataFile> files, List<DataFile> written) {
    }

    /**
     * Writes {@code staged}, about to be published, to a new file. Appends merge the newest files into it while they
     * hold no more rows than it (a binary counter: a table keeps about log2(rows) files however small its INSERTs,
     * and each row is rewritten about as often); a rewrite's file replaces them all.
     */
    private FileChange writeFiles(List<Block> staged, boolean replace) {
        List<DataFile> before = files();
        if (staged.isEmpty()) {
            return new FileChange(replace ? List.of() : before, List.of());
        }
        if (replace) {
            DataFile f = persistence.write(name, schema, staged);
            return new FileChange(List.of(f), List.of(f));
        }
        long rows = 0;
        for (Block b : staged) {
            rows += b.rowCount();
        }
        int keep = before.size();
        int tailBlocks = 0;
        while (keep > 0 && before.get(keep - 1).rows() <= rows) {
            keep--;
            rows += before.get(keep).rows();
            tailBlocks += before.get(keep).blocks();
        }
        if (tailBlocks == 0) {
            DataFile f = persistence.write(name, schema, staged);
            return new FileChange(concat(before, f), List.of(f));
        }
        try (TableData data = snapshot()) {
            List<Block> blocks = data.blocks();
            if (covered(before) != blocks.size()) {
                keep = 0; // the files do not match the blocks (never expected): write the whole table anew
                tailBlocks = blocks.size();
            }
            List<Block> merged = new ArrayList<>(blocks.subList(blocks.size() - tailBlocks, blocks.size()));
            merged.addAll(staged);
            DataFile f = persistence.write(name, schema, merged);
            return new FileChange(concat(before.subList(0, keep), f), List.of(f));
        }
    }

    private static int covered(List<DataFile> files) {
        int blocks = 0;
        for (DataFile f : files) {
            blocks += f.blocks();
        }
        return blocks;
    }

    private static List<DataFile> concat(List<DataFile> files, DataFile last) {
        List<DataFile> out = new ArrayList<>(files.size() + 1);
        out.addAll(files);
        out.add(last);
        return List.copyOf(out);
    }

    /** Returns the files the table no longer holds. */
    private List<DataFile> publishLocked(List<Block> staged, TableStats stagedStats, List<UniqueKeys> stagedKeys,
            boolean replace, List<DataFile> nextFiles) {
        if (dropped) {
            throw new FerryException(SqlStates.UNDEFINED_TABLE, "table '" + name + "' was dropped while it was "
                    + "being changed");
        }
        List<UniqueKeys> nextKeys;
        boolean merge = !replace && !constraints.isEmpty();
        if (merge) {
            nextKeys = keysOfCurrent();
            for (int i = 0; i < nextKeys.size(); i++) {
                nextKeys.get(i).checkDisjoint(stagedKeys.get(i));
            }
        } else {
            nextKeys = replace ? stagedKeys : currentKeys;
        }
        // the point of no return: once the manifest names the new files, the change is made
        if (attached && persistence.durable() && (filling || !nextFiles.equals(files))) {
            persistence.commit(m -> m.withFiles(name, id, nextFiles));
        }
        filling = false;
        if (merge) {
            for (int i = 0; i < nextKeys.size(); i++) {
                nextKeys.get(i).addDisjoint(stagedKeys.get(i));
            }
        }
        TableData next = replace ? TableData.of(staged, stagedStats) : current.append(staged, stagedStats);
        current.close();
        current = next;
        currentKeys = nextKeys;
        List<DataFile> gone = new ArrayList<>(files);
        gone.removeAll(nextFiles);
        files = nextFiles;
        onChange.run();
        return gone;
    }

    /**
     * Writes the rows no file holds yet — those of a table built aside by ALTER TABLE — so the manifest can name
     * them when the catalog swaps the table in. Returns the new file, or null if there was nothing to write.
     */
    synchronized DataFile writeUnwritten() {
        if (!persistence.durable()) {
            return null;
        }
        List<Block> blocks = current.blocks();
        int covered = covered(files);
        if (covered > blocks.size()) {
            files = List.of(); // never expected: write the whole table anew
            covered = 0;
        }
        if (covered == blocks.size()) {
            return null;
        }
        DataFile f = persistence.write(name, schema, blocks.subList(covered, blocks.size()));
        files = concat(files, f);
        return f;
    }

    /**
     * The keys of the current rows, read from their blocks the first time a write needs them. Only this node's
     * blocks can be read so: on a cluster's coordinator every version's keys come from the rows staged into it
     * (appends extend them, rewrites and renamed tables take them over), so this never reads.
     */
    private List<UniqueKeys> keysOfCurrent() {
        if (currentKeys == null) {
            List<UniqueKeys> keys = newKeys();
            for (Block block : current.blocks()) {
                BlockReader reader = block.reader();
                int n = reader.rowCount();
                Vector[] columns = new Vector[schema.size()];
                for (UniqueConstraint c : constraints) {
                    for (int col : c.columns()) {
                        columns[col] = reader.decode(col, schema.type(col), 0, n);
                    }
                }
                Batch batch = new Batch(n, fillAbsent(columns, n));
                for (UniqueKeys k : keys) {
                    k.addAll(batch);
                }
            }
            currentKeys = keys;
        }
        return currentKeys;
    }

    /** Columns no constraint reads stay undecoded: an all-NULL placeholder keeps the batch's shape. */
    private Vector[] fillAbsent(Vector[] columns, int rows) {
        for (int c = 0; c < columns.length; c++) {
            if (columns[c] == null) {
                columns[c] = Vector.allNull(schema.type(c).physical(), rows);
            }
        }
        return columns;
    }

    /** Removes every row at once; scans that began before see the rows they began with. */
    public void truncate() {
        List<DataFile> gone;
        try (WriteLock held = lockWrites()) {
            synchronized (this) {
                if (dropped) {
                    throw new FerryException(SqlStates.UNDEFINED_TABLE, "table '" + name + "' was dropped");
                }
                if (attached && persistence.durable() && !files.isEmpty()) {
                    persistence.commit(m -> m.withFiles(name, id, List.of()));
                }
                current.close();
                current = TableData.empty(schema.size());
                currentKeys = null;
                gone = files;
                files = List.of();
                onChange.run();
            }
        }
        persistence.release(gone);
    }

    /** Frees the rows; returns the files that held them, for the catalog to release once no manifest names them. */
    synchronized List<DataFile> drop() {
        dropped = true;
        attached = false;
        current.close();
        current = TableData.empty(schema.size());
        currentKeys = null;
        List<DataFile> gone = files;
        files = List.of();
        return gone;
    }
}
