package io.ferry.core.exec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.types.FerryType;

/**
 * The disk one execution of a query spills to when its operators pass their share of its memory: a directory made on
 * first use under the configured spill directory, removed with every file in it when the execution ends
 * ({@link #close}), however it ends. Its name carries the process id, so that a process that died leaves nothing for
 * long: the next execution that spills removes the directories of processes that are gone.
 *
 * <p>Files hold batches as LZ4-compressed Arrow IPC ({@link SpillFile}); the allocator that encodes them is this
 * space's own and must be empty when it closes.
 */
public final class SpillSpace implements AutoCloseable {
    private static final String PREFIX = "ferry-spill-";
    private static final AtomicInteger EXECUTIONS = new AtomicInteger();
    private static volatile boolean sweptStale;

    private final Path parent;
    private final QueryMemory memory;
    private final List<SpillFile> files = new ArrayList<>();
    private Path dir;
    private BufferAllocator allocator;
    private int next;
    private boolean closed;

    /** A space under the memory's spill directory (none: this execution may not spill), counting what it writes. */
    public SpillSpace(QueryMemory memory) {
        this.parent = memory.spillDirectory();
        this.memory = memory;
    }

    public boolean enabled() {
        return parent != null;
    }

    /** A new empty file for batches of {@code types}, removed when this space closes (or by {@link SpillFile#delete}). */
    public synchronized SpillFile create(List<FerryType> types) {
        if (closed) {
            throw new IllegalStateException("spill space already closed");
        }
        if (dir == null) {
            dir = makeDirectory();
            allocator = new RootAllocator();
        }
        SpillFile f = new SpillFile(dir.resolve("part-" + next++ + ".arrows"), types, allocator, memory);
        files.add(f);
        return f;
    }

    private Path makeDirectory() {
        if (parent == null) {
            throw new IllegalStateException("spilling is off");
        }
        try {
            Files.createDirectories(parent);
            sweepStale(parent);
            return Files.createDirectory(parent.resolve(PREFIX + ProcessHandle.current().pid() + "-"
                    + EXECUTIONS.incrementAndGet()));
        } catch (IOException | UncheckedIOException e) {
            throw new FerryException(SqlStates.IO_ERROR, "cannot make a directory to spill to under " + parent
                    + " (" + e.getMessage() + "); point --spill-dir at a writable directory with free space", e);
        }
    }

    /** Removes, once per process, the spill directories of processes that are no longer running. */
    private static void sweepStale(Path parent) throws IOException {
        if (sweptStale) {
            return;
        }
        sweptStale = true;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(parent, PREFIX + "*")) {
            for (Path p : entries) {
                String[] parts = p.getFileName().toString().substring(PREFIX.length()).split("-");
                try {
                    long pid = Long.parseLong(parts[0]);
                    if (ProcessHandle.of(pid).isEmpty()) {
                        deleteTree(p);
                    }
                } catch (NumberFormatException e) {
                    // not ours
                }
            }
        }
    }

    private static void deleteTree(Path p) throws IOException {
        try (Stream<Path> walk = Files.walk(p)) {
            for (Path q : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(q);
            }
        }
    }

    /** Deletes every file and the directory; the allocator must have been given back all it lent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (SpillFile f : files) {
            f.delete();
        }
        files.clear();
        if (dir != null) {
            try {
                deleteTree(dir);
            } catch (IOException e) {
                // the next execution's sweep removes it once this process is gone
            }
            allocator.close();
        }
    }
}
