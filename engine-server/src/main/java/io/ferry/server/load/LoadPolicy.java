package io.ferry.server.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;

/**
 * Which server-side files a load may read. Whoever can reach the load endpoint can read any file the server can
 * (as a table, through SQL), so: with load roots given, only files under them; without, on a server that listens on
 * a loopback address only, files under its working directory and the temporary directory (its clients are this
 * machine's users, but not all of them may read what the server's user may: {@code /etc/shadow} of a server run as
 * root was readable); and none on a server reachable from other machines. Paths are resolved first, so {@code ..}
 * and symbolic links cannot lead out of a root.
 */
public final class LoadPolicy {
    static final String INSUFFICIENT_PRIVILEGE = SqlStates.INSUFFICIENT_PRIVILEGE;
    /** SQLSTATE undefined_file, as PostgreSQL's COPY FROM reports a missing file. */
    static final String UNDEFINED_FILE = "58P01";

    private final List<Path> roots;
    /** Whether the roots were given (--load-root), which writes need: the defaults are only read from. */
    private final boolean given;

    private LoadPolicy(List<Path> roots, boolean given) {
        this.roots = roots;
        this.given = given;
    }

    /**
     * @param roots        directories loads may read from (empty: see the class comment)
     * @param loopbackOnly whether the server listens on a loopback address only
     */
    public static LoadPolicy of(List<Path> roots, boolean loopbackOnly) {
        List<Path> real = new ArrayList<>();
        boolean given = !roots.isEmpty();
        if (roots.isEmpty() && loopbackOnly) {
            roots = List.of(Path.of("").toAbsolutePath(), Path.of(System.getProperty("java.io.tmpdir")));
        }
        for (Path root : roots) {
            try {
                real.add(root.toRealPath());
            } catch (IOException e) {
                throw new IllegalArgumentException("load root " + root + " is not a readable directory: " + e, e);
            }
        }
        return new LoadPolicy(List.copyOf(real), given);
    }

    /**
     * Where an export of {@code file} may write: its directory's real path (links resolved) under a root, and the
     * file itself not a link (which could point out of the root). The file is made or replaced.
     */
    Path checkWritable(Path file) {
        Path dir = file.toAbsolutePath().getParent();
        Path realDir;
        try {
            realDir = dir.toRealPath();
        } catch (IOException e) {
            throw new FerryException(UNDEFINED_FILE, "directory " + dir + " does not exist on the server", e);
        }
        if (Files.isSymbolicLink(file)) {
            throw new FerryException(INSUFFICIENT_PRIVILEGE, file + " is a symbolic link; COPY ... TO writes only "
                    + "plain files");
        }
        if (!given) {
            // not the working directory and the temporary directory a loopback server reads by default: a COPY
            // there could overwrite the server user's own files (~/.bashrc, ~/.ssh/authorized_keys)
            throw new FerryException(INSUFFICIENT_PRIVILEGE, "COPY ... TO writes only into directories the server "
                    + "was started with --load-root DIR; restart it with one (only the server's user should be able "
                    + "to write there)");
        }
        if (underRoot(realDir)) {
            return realDir.resolve(file.getFileName());
        }
        throw new FerryException(INSUFFICIENT_PRIVILEGE, "directory " + dir + " is outside the directories this "
                + "server reads and writes (" + roots + "); write there, or restart the server with --load-root DIR");
    }

    /** Whether a real path (links resolved) lies under one of the roots. */
    private boolean underRoot(Path real) {
        return roots.stream().anyMatch(real::startsWith);
    }

    /** The file's real path (links resolved), if loads may read it. */
    Path check(Path file) {
        Path real;
        try {
            real = file.toRealPath();
        } catch (NoSuchFileException e) {
            throw new FerryException(UNDEFINED_FILE, "file " + file + " does not exist on the server; the server "
                    + "reads the path itself, so the file must be on its machine", e);
        } catch (IOException e) {
            throw new FerryException(UNDEFINED_FILE, "cannot open " + file + " on the server: " + e.getMessage(), e);
        }
        if (!Files.isRegularFile(real)) {
            throw new FerryException(UNDEFINED_FILE, file + " is not a file");
        }
        if (roots.isEmpty()) {
            throw new FerryException(INSUFFICIENT_PRIVILEGE, "this server accepts connections from other "
                    + "machines, so it loads files only from directories it was started with --load-root DIR");
        }
        if (underRoot(real)) {
            return real;
        }
        throw new FerryException(INSUFFICIENT_PRIVILEGE, "file " + file + " is outside the directories this server "
                + "loads from (" + roots + "); move it there, or restart the server with --load-root DIR (repeat it "
                + "for more directories)");
    }
}
