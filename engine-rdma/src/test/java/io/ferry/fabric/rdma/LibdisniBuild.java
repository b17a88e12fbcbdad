package io.ferry.fabric.rdma;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether this build was supposed to produce libdisni. The tests that need the library skip only when the build
 * could not have made it (no verbs/CM headers, or not Linux x86-64, the engine-rdma pom's profile conditions);
 * when the headers are there, a missing library is a failure, so CI notices a broken native build.
 */
final class LibdisniBuild {
    private LibdisniBuild() {
    }

    static boolean expected() {
        return "linux-x86_64".equals(VerbsLoader.platform())
                && Files.exists(Path.of("/usr/include/infiniband/verbs.h"))
                && Files.exists(Path.of("/usr/include/rdma/rdma_cma.h"));
    }

    /** Skips the calling test when the library cannot have been built; fails it when it should have been. */
    static void require() {
        assumeTrue(expected(), "libibverbs-dev/librdmacm-dev headers are not installed: libdisni was not built");
        assertNotNull(LibdisniBuild.class.getClassLoader().getResource(VerbsLoader.defaultLibraryResource()),
                "the verbs headers are installed but the build did not produce " + VerbsLoader.defaultLibraryResource());
    }

    /** A loader of its own: each extracts its own copy, so tests do not depend on each other's loading. */
    static VerbsLoader newLoader() {
        return new VerbsLoader(LibdisniBuild.class.getClassLoader(), VerbsLoader.defaultLibraryResource());
    }

    /** A loader whose jar holds {@code library} as its libdisni; classes come from the test class path as usual. */
    static VerbsLoader newLoaderServing(URL library) {
        String resource = VerbsLoader.defaultLibraryResource();
        ClassLoader parent = new ClassLoader(LibdisniBuild.class.getClassLoader()) {
            @Override
            public URL getResource(String name) {
                return name.equals(resource) ? library : super.getResource(name);
            }
        };
        return new VerbsLoader(parent, resource);
    }
}
