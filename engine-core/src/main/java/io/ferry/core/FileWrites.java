package io.ferry.core;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Writing files readers must never see half-made or others must never read: secrets created readable by their owner
 * before a byte is in them, and files replaced whole through a temporary file beside them.
 */
public final class FileWrites {
    private FileWrites() {
    }

    /** What fills a file. */
    public interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    /** Creates {@code file}, which must not exist, readable and writable by its owner only (where POSIX allows). */
    public static void createPrivate(Path file) throws IOException {
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException e) {
            Files.createFile(file); // not a POSIX file system: the directory's permissions protect it
        }
    }

    /**
     * Replaces {@code target} with what {@code content} writes, in one step: into a temporary file beside it (which
     * the JDK makes readable by its owner only), then moved over it. If anything fails, {@code target} is as it was
     * and the temporary file is gone.
     */
    public static void replace(Path target, Content content) throws IOException {
        Path tmp = Files.createTempFile(target.toAbsolutePath().getParent(), "." + target.getFileName(), ".tmp");
        try {
            try (OutputStream out = Files.newOutputStream(tmp)) {
                content.writeTo(out);
            }
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException | RuntimeException e) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }
}
