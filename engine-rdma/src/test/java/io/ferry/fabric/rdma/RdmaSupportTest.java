package io.ferry.fabric.rdma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.fabric.rdma.RdmaSupport.Availability;

class RdmaSupportTest {
    /** On this machine: no device on the build hosts (their kernel has no RDMA), a device where one is present. */
    @Test
    void probeDescribesThisMachine() throws IOException {
        LibdisniBuild.require();
        Availability a = RdmaSupport.probe();
        if (deviceCount(RdmaSupport.DEVICES) == 0) {
            assertFalse(a.available());
            assertTrue(a.reason().startsWith("no RDMA device (/sys/class/infiniband "), a.reason());
        } else {
            assertTrue(a.available(), a.reason());
            assertTrue(a.reason().endsWith(" available"), a.reason());
        }
        assertEquals(a, RdmaSupport.probe(), "computed once");
    }

    @Test
    void probeNamesTheDevicesOrTheirAbsence(@TempDir Path dir) throws IOException {
        LibdisniBuild.require();
        VerbsLoader loader = LibdisniBuild.newLoader();
        Path devices = dir.resolve("infiniband");
        assertEquals(new Availability(false, "no RDMA device (" + devices
                + " does not exist: the kernel has no RDMA support loaded)"), RdmaSupport.probe(loader, devices));
        Files.createDirectory(devices);
        assertEquals(new Availability(false, "no RDMA device (" + devices + " is empty)"),
                RdmaSupport.probe(loader, devices));
        Files.createDirectory(devices.resolve("rxe0"));
        assertEquals(new Availability(true, "rxe0 available"), RdmaSupport.probe(loader, devices));
        Files.createDirectory(devices.resolve("mlx5_0"));
        assertEquals(new Availability(true, "mlx5_0, rxe0 available"), RdmaSupport.probe(loader, devices));
    }

    /** A JVM started without the export DiSNI needs is told which option to add, before anything loads. */
    @Test
    void probeNamesTheMissingJvmOption() throws Exception {
        LibdisniBuild.require();
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-opens=java.base/java.nio=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                ProbeMain.class.getName()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        assertTrue(out.contains("unavailable: DiSNI needs the JVM option --add-exports=java.base/sun.nio.ch=ALL-UNNAMED"),
                out);
    }

    /** Prints what {@link RdmaSupport#probe()} says in a fresh JVM. */
    public static final class ProbeMain {
        public static void main(String[] args) {
            Availability a = RdmaSupport.probe();
            System.out.println((a.available() ? "available: " : "unavailable: ") + a.reason());
        }
    }

    /** What a build without the verbs headers produces; runs everywhere. */
    @Test
    void probeReportsAJarWithoutTheLibrary(@TempDir Path dir) {
        VerbsLoader loader = new VerbsLoader(getClass().getClassLoader(), "io/ferry/fabric/rdma/native/none/libdisni.so");
        assertEquals(new Availability(false, "no libdisni built for " + VerbsLoader.platform() + " in this jar"),
                RdmaSupport.probe(loader, dir));
    }

    /**
     * A machine without rdma-core's libraries: the real library with its libibverbs dependency renamed to one that
     * does not exist, so dlopen fails exactly as it would there.
     */
    @Test
    void probeReportsMissingVerbsLibraries(@TempDir Path dir) throws IOException {
        Availability a = probeWithDependencyRenamed(dir, "libibverbs.so.1", "libibverbs.so.9");
        assertFalse(a.available());
        assertTrue(a.reason().startsWith("libibverbs/librdmacm not installed: "), a.reason());
        assertTrue(a.reason().contains("libibverbs.so.9"), a.reason());
    }

    @Test
    void probeReportsOtherLoadFailuresAsTheyAre(@TempDir Path dir) throws IOException {
        Availability a = probeWithDependencyRenamed(dir, "librdmacm.so.1", "libnothere.so.");
        assertFalse(a.available());
        assertTrue(a.reason().startsWith("cannot load libdisni: "), a.reason());
        assertTrue(a.reason().contains("libnothere.so."), a.reason());
    }

    private Availability probeWithDependencyRenamed(Path dir, String from, String to) throws IOException {
        LibdisniBuild.require();
        byte[] library;
        try (var in = getClass().getClassLoader().getResourceAsStream(VerbsLoader.defaultLibraryResource())) {
            library = in.readAllBytes();
        }
        assertTrue(replaceAll(library, from, to) > 0, "libdisni names " + from + " as a dependency");
        Path patched = Files.write(dir.resolve("libdisni.so"), library);
        return RdmaSupport.probe(LibdisniBuild.newLoaderServing(patched.toUri().toURL()), dir);
    }

    private static long deviceCount(Path devices) throws IOException {
        if (!Files.isDirectory(devices)) {
            return 0;
        }
        try (Stream<Path> s = Files.list(devices)) {
            return s.count();
        }
    }

    private static int replaceAll(byte[] data, String from, String to) {
        byte[] f = from.getBytes(StandardCharsets.US_ASCII);
        byte[] t = to.getBytes(StandardCharsets.US_ASCII);
        int count = 0;
        outer:
        for (int i = 0; i + f.length <= data.length; i++) {
            for (int j = 0; j < f.length; j++) {
                if (data[i + j] != f[j]) {
                    continue outer;
                }
            }
            System.arraycopy(t, 0, data, i, t.length);
            count++;
        }
        return count;
    }
}
