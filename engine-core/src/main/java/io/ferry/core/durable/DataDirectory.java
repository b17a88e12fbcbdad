package io.ferry.core.durable;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

import org.apache.arrow.memory.BufferAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.ipc.TableFile;
import io.ferry.core.storage.Block;
import io.ferry.core.storage.Catalog;
import io.ferry.core.storage.DataFile;
import io.ferry.core.storage.Manifest;
import io.ferry.core.storage.Persistence;
import io.ferry.core.storage.Table;
import io.ferry.core.types.TableSchema;
import io.ferry.core.vector.Batch;

/**
 * A node's data directory (docs/storage.md): {@code manifest.json} names every table with its definition and data
 * files, and every view; {@code tables/} holds the data files, Arrow IPC with LZ4 ({@link TableFile}). A change
 * writes its new files and forces them to disk, then writes the next manifest beside the current one, forces it, and
 * renames it over the current one — the step that makes the change — and forces the directory. A process killed
 * anywhere restarts from one manifest or the other; files no manifest names are left-overs of a change that never
 * happened, or of one whose files were replaced, and are removed when the directory is opened.
 *
 * <p>One process at a time: the directory is locked while open.
 */
public final class DataDirectory implements Persistence, AutoCloseable {
    public static final String MANIFEST = "manifest.json";
    public static final String TABLES = "tables";
    static final String LOCK = "lock";
    private static final Logger LOG = LoggerFactory.getLogger(DataDirectory.class);

    private final Path root;
    private final Path tables;
    private final FileChannel lockFile;
    private final FileLock lock;
    private final BufferAllocator allocator;
    private final int swept;
    private Manifest manifest;

    private DataDirectory(Path root, FileChannel lockFile, FileLock lock, BufferAllocator allocator, Manifest manifest,
            int swept) {
        this.root = root;
        this.tables = root.resolve(TABLES);
        this.lockFile = lockFile;
        this.lock = lock;
        this.allocator = allocator;
        this.manifest = manifest;
        this.swept = swept;
    }

    /**
     * Opens (or makes) the data directory at {@code root} and locks it: reads its manifest and removes the files
     * no manifest names. Fails with 55006 if another process has it open, 58030 if it cannot be read or made, XX001
     * if its manifest is damaged.
     */
    public static DataDirectory open(Path root, BufferAllocator parent) {
        Path dir = root.toAbsolutePath().normalize();
        FileChannel lockFile = null;
        try {
            makeDirectory(dir);
            makeDirectory(dir.resolve(TABLES));
            lockFile = FileChannel.open(dir.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            FileLock lock = tryLock(lockFile);
            if (lock == null) {
                String holder = new String(Files.readAllBytes(dir.resolve(LOCK)), StandardCharsets.UTF_8).trim();
                throw new FerryException(SqlStates.OBJECT_IN_USE, "data directory " + dir + " is in use by another "
                        + "Ferry process" + (holder.isEmpty() ? "" : " (pid " + holder + ")") + "; stop it, or give "
                        + "this one another data directory (--data-dir DIR, or --in-memory)");
            }
            lockFile.truncate(0);
            lockFile.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.UTF_8)),
                    0);
            Manifest manifest = readManifest(dir);
            int swept = sweep(dir, manifest);
            BufferAllocator allocator = parent.newChildAllocator("data-directory", 0, Long.MAX_VALUE);
            return new DataDirectory(dir, lockFile, lock, allocator, manifest, swept);
        } catch (IOException | RuntimeException e) {
            closeQuietly(lockFile, e);
            if (e instanceof FerryException f) {
                throw f;
            }
            throw failure(e instanceof IOException io ? io : new IOException(e), "open data directory " + dir);
        }
    }

    private static FileLock tryLock(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException e) {
            return null; // this very process has it open
        }
    }

    private static void makeDirectory(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            return;
        }
        try {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(
                    "rwx------")));
        } catch (UnsupportedOperationException e) {
            Files.createDirectories(dir);
        }
    }

    /**
     * The manifest of the data directory {@code dir} (empty if it has none), read without opening the directory: no
     * lock is taken and nothing is swept, so a tool or a test may look at a directory as a stopped process left it.
     */
    public static Manifest readManifest(Path dir) throws IOException {
        Path file = dir.resolve(MANIFEST);
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return Manifest.EMPTY;
        }
        try {
            return ManifestJson.read(bytes);
        } catch (IOException | RuntimeException e) {
            throw new FerryException(SqlStates.DATA_CORRUPTED, "the manifest " + file + " is damaged (" + e.getMessage()
                    + "); restore the data directory from a backup, or start with another --data-dir", e);
        }
    }

    /** Removes what no manifest names: data files of changes that never committed, and a half-written manifest. */
    private static int sweep(Path dir, Manifest manifest) throws IOException {
        Set<String> named = new HashSet<>(manifest.fileNames());
        int removed = 0;
        Files.deleteIfExists(dir.resolve(MANIFEST + ".tmp"));
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir.resolve(TABLES))) {
            for (Path f : files) {
                if (!named.contains(f.getFileName().toString()) && Files.isRegularFile(f)) {
                    Files.delete(f);
                    removed++;
                }
            }
        }
        return removed;
    }

    public Path root() {
        return root;
    }

    /** The manifest as last committed. */
    public synchronized Manifest manifest() {
        return manifest;
    }

    /** The data files removed when the directory was opened: left by changes a stopped process never finished. */
    public int swept() {
        return swept;
    }

    /**
     * Brings {@code catalog} (empty) back to what the manifest records, reading every table's files on
     * {@code threads} threads; {@code progress} hears of each file once its rows are in. The catalog must have been
     * made with this directory as its {@link Persistence}. Returns how many files' blocks were adopted where an
     * earlier process left them rather than read ({@link Catalog#restore}).
     */
    public int restore(Catalog catalog, int threads, Consumer<DataFile> progress) {
        int adopted = catalog.restore(manifest(), reader(), threads, progress);
        // tables whose filling statement died with the process are forgotten (the catalog left them out); a file
        // read back where its blocks had been (a cluster's) now fills other blocks, which the manifest names from
        // here on. Nothing else is written: a restart that changes nothing commits nothing.
        commit(m -> {
            Manifest next = m;
            for (Manifest.TableEntry t : m.tables().values()) {
                if (t.filling()) {
                    next = next.without(t.name(), t.id());
                }
            }
            for (Table t : catalog.tables()) {
                Manifest.TableEntry e = next.tables().get(t.name());
                if (e != null && e.id() == t.id() && !locations(e.files()).equals(locations(t.files()))) {
                    next = next.withFiles(t.name(), t.id(), t.files());
                }
            }
            return next;
        });
        return adopted;
    }

    private static List<List<String>> locations(List<DataFile> files) {
        return files.stream().map(DataFile::locations).toList();
    }

    /** Reads back the data files of this directory, each checked whole first ({@link Table#reload}). */
    public Catalog.FileReader reader() {
        return new Catalog.FileReader() {
            @Override
            public void check(DataFile file) {
                TableFile.check(existing(file), file.bytes(), file.crc());
            }

            @Override
            public void read(DataFile file, TableSchema schema, int part, int parts, Consumer<Batch> sink) {
                TableFile.read(tables.resolve(file.name()), schema, allocator, part, parts, sink);
            }
        };
    }

    private Path existing(DataFile file) {
        Path path = tables.resolve(file.name());
        if (!Files.isRegularFile(path)) {
            throw new FerryException(SqlStates.DATA_CORRUPTED, "data file " + path + " named by the manifest is "
                    + "missing; restore the data directory from a backup");
        }
        return path;
    }

    @Override
    public boolean durable() {
        return true;
    }

    @Override
    public DataFile write(String table, TableSchema schema, List<Block> blocks) {
        String name = fileName(table);
        Path file = tables.resolve(name);
        try {
            TableFile.Written w = TableFile.write(file, table, schema, blocks, allocator);
            CrashPoint.reached(CrashPoint.FILE_WRITTEN);
            force(tables);
            return DataFile.of(name, w.bytes(), w.crc(), w.rows(), blocks);
        } catch (IOException | RuntimeException e) {
            deleteQuietly(file, e);
            if (e instanceof FerryException f) {
                throw f;
            }
            throw failure(e instanceof IOException io ? io : new IOException(e), "write table '" + table + "' to "
                    + file);
        }
    }

    /** A new file's name: the table's (made safe for any file system), and random digits that no other file has. */
    private static String fileName(String table) {
        StringBuilder safe = new StringBuilder();
        for (int i = 0; i < table.length() && safe.length() < 40; i++) {
            char c = table.charAt(i);
            safe.append((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ? c : '_');
        }
        return safe + "-" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong()) + ".arrow";
    }

    @Override
    public synchronized void commit(UnaryOperator<Manifest> change) {
        Manifest next = change.apply(manifest);
        if (next == manifest) {
            return;
        }
        next = next.next();
        Path tmp = root.resolve(MANIFEST + ".tmp");
        try {
            try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer bytes = ByteBuffer.wrap(ManifestJson.write(next));
                while (bytes.hasRemaining()) {
                    out.write(bytes);
                }
                out.force(true);
            }
            CrashPoint.reached(CrashPoint.MANIFEST_WRITTEN);
            try {
                Files.move(tmp, root.resolve(MANIFEST), StandardCopyOption.ATOMIC_MOVE,
                        StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                throw new IOException("the file system cannot replace a file in one step", e);
            }
        } catch (IOException e) {
            deleteQuietly(tmp, e);
            throw failure(e, "record the change in data directory " + root + " (nothing was changed)");
        }
        // The rename made the change: it is made whatever happens next.
        manifest = next;
        CrashPoint.reached(CrashPoint.MANIFEST_RENAMED);
        try {
            force(root);
        } catch (IOException e) {
            LOG.warn("data directory {}: the change is made, but forcing the directory to disk failed: {}", root,
                    e.toString());
        }
    }

    @Override
    public synchronized void release(List<DataFile> files) {
        if (files.isEmpty()) {
            return;
        }
        Set<String> named = new HashSet<>(manifest.fileNames());
        for (DataFile f : files) {
            if (!named.contains(f.name())) {
                try {
                    Files.deleteIfExists(tables.resolve(f.name()));
                } catch (IOException e) {
                    // left for the next open's sweep
                    LOG.warn("data directory {}: cannot remove {} ({}); it is removed at the next start", root,
                            f.name(), e.toString());
                }
            }
        }
    }

    /** Releases the lock; the catalog keeps no file open. */
    @Override
    public void close() {
        try {
            lock.release();
            lockFile.close();
        } catch (IOException e) {
            LOG.warn("data directory {}: releasing its lock failed: {}", root, e.toString());
        } finally {
            allocator.close();
        }
    }

    /** Forces a directory's entries (a new or renamed file in it) to disk. */
    private static void force(Path dir) throws IOException {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        }
    }

    private static FerryException failure(IOException e, String what) {
        String message = String.valueOf(e.getMessage());
        boolean full = message.toLowerCase(Locale.ROOT).contains("no space left");
        return new FerryException(full ? SqlStates.DISK_FULL : SqlStates.IO_ERROR, "cannot " + what + ": "
                + (full ? "the disk is full; free space on it" : e), e);
    }

    private static void deleteQuietly(Path file, Exception cause) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException suppressed) {
            cause.addSuppressed(suppressed);
        }
    }

    private static void closeQuietly(FileChannel channel, Exception cause) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException suppressed) {
                cause.addSuppressed(suppressed);
            }
        }
    }
}
