package io.ferry.server.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.core.FerryException;

class LoadPolicyTest {
    @TempDir
    Path dir;

    /**
     * Without roots, a loopback server reads under its working directory and the temporary directory (where this
     * test's files are), and nothing else: not a system file, nor one reached through a link or {@code ..}.
     */
    @Test
    void aLoopbackServerWithoutRootsReadsItsWorkingAndTemporaryDirectories() throws IOException {
        LoadPolicy policy = LoadPolicy.of(List.of(), true);
        Path file = Files.writeString(dir.resolve("a.csv"), "x\n");
        assertEquals(file.toRealPath(), policy.check(file));
        Path pom = Path.of("pom.xml").toAbsolutePath();
        assertEquals(pom.toRealPath(), policy.check(pom));
        Path system = Path.of("/etc/hostname");
        Assumptions.assumeTrue(Files.isReadable(system));
        FerryException e = assertThrows(FerryException.class, () -> policy.check(system));
        assertEquals(LoadPolicy.INSUFFICIENT_PRIVILEGE, e.sqlState());
        assertTrue(e.getMessage().contains("--load-root"), e.getMessage());
        Path link = Files.createSymbolicLink(dir.resolve("hostname.csv"), system);
        assertEquals(LoadPolicy.INSUFFICIENT_PRIVILEGE, assertThrows(FerryException.class,
                () -> policy.check(link)).sqlState());
        assertEquals(LoadPolicy.INSUFFICIENT_PRIVILEGE, assertThrows(FerryException.class,
                () -> policy.check(dir.resolve("../../../../../../../../etc/hostname"))).sqlState());
    }

    @Test
    void aServerOthersCanReachReadsNothingWithoutRoots() throws IOException {
        Path file = Files.writeString(dir.resolve("a.csv"), "x\n");
        FerryException e = assertThrows(FerryException.class, () -> LoadPolicy.of(List.of(), false).check(file));
        assertEquals(LoadPolicy.INSUFFICIENT_PRIVILEGE, e.sqlState());
    }

    @Test
    void rootsAreEnforcedAfterResolvingLinks() throws IOException {
        Path inside = Files.createDirectories(dir.resolve("inside"));
        Path outside = Files.createDirectories(dir.resolve("outside"));
        Path allowed = Files.writeString(inside.resolve("ok.csv"), "x\n");
        Path secret = Files.writeString(outside.resolve("secret.csv"), "x\n");
        Path link = Files.createSymbolicLink(inside.resolve("link.csv"), secret);
        LoadPolicy policy = LoadPolicy.of(List.of(inside), false);
        assertEquals(allowed.toRealPath(), policy.check(allowed));
        assertEquals(LoadPolicy.INSUFFICIENT_PRIVILEGE,
                assertThrows(FerryException.class, () -> policy.check(secret)).sqlState());
        assertEquals(LoadPolicy.INSUFFICIENT_PRIVILEGE,
                assertThrows(FerryException.class, () -> policy.check(link)).sqlState());
        assertEquals(LoadPolicy.INSUFFICIENT_PRIVILEGE, assertThrows(FerryException.class,
                () -> policy.check(inside.resolve("../outside/secret.csv"))).sqlState());
    }

    @Test
    void missingFilesAndDirectoriesAreUndefinedFiles() {
        LoadPolicy policy = LoadPolicy.of(List.of(), true);
        assertEquals(LoadPolicy.UNDEFINED_FILE,
                assertThrows(FerryException.class, () -> policy.check(dir.resolve("none.csv"))).sqlState());
        assertEquals(LoadPolicy.UNDEFINED_FILE, assertThrows(FerryException.class, () -> policy.check(dir)).sqlState());
    }
}
