package io.ferry.fabric.rdma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.fabric.Fabric;

class VerbsLoaderTest {
    private static final String DISPATCHER = "com.ibm.disni.verbs.impl.NativeDispatcher";
    private static final String STUB = "io.ferry.fabric.rdma.verbs.StubVerbsFabric";

    @Test
    void extractsTheLibraryOnceIntoAPrivateDirectory() throws IOException {
        LibdisniBuild.require();
        VerbsLoader loader = LibdisniBuild.newLoader();
        Path library = loader.extractLibrary();
        assertSame(library, loader.extractLibrary(), "extracted once per loader");
        assertTrue(Files.size(library) > 0);
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(library.getParent())));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(library)));
        assertEquals(library.toString(), loader.findLibrary("disni"));
        assertEquals(null, loader.findLibrary("affinity"), "other names keep the JDK's own search");
    }

    @Test
    void definesDisniAndVerbsClassesItselfAndDelegatesEverythingElse() throws Exception {
        VerbsLoader loader = LibdisniBuild.newLoader();
        Class<?> dispatcher = Class.forName(DISPATCHER, false, loader);
        assertSame(loader, dispatcher.getClassLoader());
        assertTrue(dispatcher.getProtectionDomain().getCodeSource().getLocation().toString().endsWith("disni-2.1.jar"),
                "DiSNI keeps its jar as code source: " + dispatcher.getProtectionDomain().getCodeSource());
        assertSame(loader, Class.forName(STUB, false, loader).getClassLoader());
        assertSame(Fabric.class, loader.loadClass("io.ferry.fabric.Fabric"));
        assertSame(VerbsLoader.class, loader.loadClass(VerbsLoader.class.getName()));
        assertSame(org.slf4j.Logger.class, loader.loadClass("org.slf4j.Logger"));
        assertThrows(ClassNotFoundException.class, () -> loader.loadClass("io.ferry.fabric.rdma.verbs.NoSuchClass"));
    }

    @Test
    void createsAFabricInTheVerbsPackageThatCallersUseAsTheirOwnType() throws Exception {
        VerbsLoader loader = LibdisniBuild.newLoader();
        Fabric fabric = loader.newInstance(STUB, Fabric.class, new Class<?>[] {String.class, int.class}, "n1", 7471);
        assertEquals("rdma", fabric.provider());
        assertEquals("n1:7471", fabric.address().toString());
        assertSame(loader, fabric.getClass().getClassLoader());
        assertSame(loader, fabric.getClass().getMethod("disniLoader").invoke(fabric), "it sees the loader's DiSNI");
        assertSame(Fabric.class, fabric.getClass().getMethod("fabricType").invoke(fabric), "and the caller's Fabric");
        assertThrows(IllegalArgumentException.class,
                () -> loader.newInstance("io.ferry.fabric.local.LocalFabric", Fabric.class, new Class<?>[0]));
    }

    /** The shaded server jar's case: the library comes out of a jar rather than the classes directory. */
    @Test
    void loadsTheLibraryFromAJar(@TempDir Path dir) throws Exception {
        LibdisniBuild.require();
        String resource = VerbsLoader.defaultLibraryResource();
        Path jar = dir.resolve("natives.jar");
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file);
                InputStream in = getClass().getClassLoader().getResourceAsStream(resource)) {
            out.putNextEntry(new JarEntry(resource));
            in.transferTo(out);
            out.closeEntry();
        }
        URL inJar = new URL("jar:" + jar.toUri() + "!/" + resource);
        VerbsLoader loader = LibdisniBuild.newLoaderServing(inJar);
        Class<?> dispatcher = Class.forName(DISPATCHER, false, loader);
        var constructor = dispatcher.getDeclaredConstructor();
        constructor.setAccessible(true);
        Object natives = constructor.newInstance(); // loads the copy extracted from the jar
        assertEquals(32, dispatcher.getMethod("_getVersion").invoke(natives));
        String extracted = loader.extractLibrary().toString();
        assertTrue(Files.readAllLines(Path.of("/proc/self/maps")).stream().anyMatch(l -> l.endsWith(extracted)),
                extracted + " is not mapped into this process");
    }
}
