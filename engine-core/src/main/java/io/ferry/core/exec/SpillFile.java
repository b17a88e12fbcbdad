package io.ferry.core.exec;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

import org.apache.arrow.memory.BufferAllocator;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.ipc.BatchIpc;
import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BatchConcat;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4FastDecompressor;

/**
 * Batches on local disk, appended in chunks and read back in the order they were written: each chunk is its
 * compressed and uncompressed lengths and an Arrow IPC stream with its checksum ({@link BatchIpc}), LZ4-compressed
 * whole, so what is read back is what was written or an error. One LZ4 block per chunk, not Arrow's LZ4 frame per
 * buffer: setting up a frame cost more than compressing a spilled part's small buffers. Threads may append at once;
 * a chunk is encoded before the file's lock is taken.
 */
public final class SpillFile {
    private static final LZ4Compressor COMPRESSOR = LZ4Factory.fastestInstance().fastCompressor();
    private static final LZ4FastDecompressor DECOMPRESSOR = LZ4Factory.fastestInstance().fastDecompressor();

    private final Path path;
    private final List<FerryType> types;
    private final BufferAllocator allocator;
    private final QueryMemory memory;
    private FileChannel channel;
    private long size;
    private long rows;

    SpillFile(Path path, List<FerryType> types, BufferAllocator allocator, QueryMemory memory) {
        this.path = path;
        this.types = types;
        this.allocator = allocator;
        this.memory = memory;
    }

    /**
     * Writes {@code batches} as one chunk at the end of the file, in one Arrow record batch: the small batches a
     * partitioning makes would each cost a record batch's metadata and buffers.
     */
    public void append(List<Batch> batches) {
        long n = Batch.totalRows(batches);
        if (n == 0) {
            return;
        }
        List<Batch> one = batches.size() == 1 ? batches : List.of(BatchConcat.concat(batches, types));
        byte[] stream = BatchIpc.write(one, types, false, allocator);
        ByteBuffer buf = ByteBuffer.allocate(8 + COMPRESSOR.maxCompressedLength(stream.length));
        int length = COMPRESSOR.compress(stream, 0, stream.length, buf.array(), 8);
        buf.putInt(length).putInt(stream.length).position(8 + length).flip();
        int chunkBytes = buf.remaining();
        synchronized (this) {
            try {
                if (channel == null) {
                    channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                            StandardOpenOption.WRITE);
                }
                while (buf.hasRemaining()) {
                    size += channel.write(buf, size);
                }
            } catch (IOException e) {
                throw new FerryException(SqlStates.DISK_FULL, "cannot write " + chunkBytes + " bytes to the spill "
                        + "file " + path + " (" + e.getMessage() + "); free space there, point --spill-dir at a "
                        + "larger disk, or raise --query-memory", e);
            }
            rows += n;
        }
        memory.addSpilled(chunkBytes);
    }

    public synchronized long rows() {
        return rows;
    }

    /** The bytes written, compressed. */
    public synchronized long bytes() {
        return size;
    }

    /** Every batch written, read at once: a part that is to fit in memory. */
    public List<Batch> readAll() {
        List<Batch> out = new ArrayList<>();
        batches().forEachRemaining(out::add);
        return out;
    }

    /** The batches written, read one chunk at a time as the iterator advances. */
    public Iterator<Batch> batches() {
        return new Iterator<>() {
            private final ArrayDeque<Batch> ready = new ArrayDeque<>();
            private long at;

            @Override
            public boolean hasNext() {
                while (ready.isEmpty() && at < bytes()) {
                    ready.addAll(readChunk());
                }
                return !ready.isEmpty();
            }

            @Override
            public Batch next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return ready.poll();
            }

            private List<Batch> readChunk() {
                try {
                    ByteBuffer lengths = ByteBuffer.allocate(8);
                    readFully(lengths, at);
                    int length = lengths.flip().getInt();
                    int streamLength = lengths.getInt();
                    ByteBuffer chunk = ByteBuffer.allocate(length);
                    readFully(chunk, at + 8);
                    at += 8L + length;
                    byte[] stream = new byte[streamLength];
                    DECOMPRESSOR.decompress(chunk.array(), 0, stream, 0, streamLength);
                    return BatchIpc.read(stream, 0, streamLength, types, allocator);
                } catch (IOException e) {
                    throw new FerryException(SqlStates.IO_ERROR, "cannot read the spill file " + path + " ("
                            + e.getMessage() + ")", e);
                }
            }
        };
    }

    private void readFully(ByteBuffer buf, long position) throws IOException {
        long p = position;
        while (buf.hasRemaining()) {
            int r = channel.read(buf, p);
            if (r < 0) {
                throw new IOException("the file ends early");
            }
            p += r;
        }
    }

    /** Closes and removes the file; it reads as empty afterwards. */
    public synchronized void delete() {
        try {
            if (channel != null) {
                channel.close();
                channel = null;
            }
            Files.deleteIfExists(path);
        } catch (IOException e) {
            // the space removes its directory when it closes
        }
        size = 0;
        rows = 0;
    }
}
