package io.ferry.fabric.rdma;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Whether the {@code rdma} fabric can run in this process, and if not, why. {@code fabric=auto} picks rdma when
 * {@link #probe()} says so and logs the reason either way; the answer is computed once per process.
 *
 * <p>The checks run in the order a deployment can fail: the jar carries no native library for this platform; the
 * library does not load (usually libibverbs/librdmacm are not installed); the library is not the one DiSNI's Java
 * side expects (version or structure layout); the machine has no RDMA device.
 */
public final class RdmaSupport {
    /** Where the kernel lists RDMA devices (rxe0, mlx5_0, ...). */
    static final Path DEVICES = Path.of("/sys/class/infiniband");

    /** The outcome of {@link #probe()}: {@code reason} is human-readable either way. */
    public record Availability(boolean available, String reason) {
        static Availability no(String reason) {
            return new Availability(false, reason);
        }
    }

    private RdmaSupport() {
    }

    /** The cached answer for the shared loader and this machine's devices. */
    public static Availability probe() {
        return Cached.RESULT;
    }

    private static final class Cached {
        static final Availability RESULT = probe(VerbsLoader.shared(), DEVICES);
    }

    /** The loader phase-2 code uses to create {@code io.ferry.fabric.rdma.verbs.VerbsFabric}. */
    public static VerbsLoader loader() {
        return VerbsLoader.shared();
    }

    static Availability probe(VerbsLoader loader, Path devices) {
        if (!loader.hasLibrary()) {
            return Availability.no("no libdisni built for " + VerbsLoader.platform() + " in this jar");
        }
        if (!Object.class.getModule().isExported("sun.nio.ch", loader.getUnnamedModule())) {
            return Availability.no("DiSNI needs the JVM option --add-exports=java.base/sun.nio.ch=ALL-UNNAMED "
                    + "(bin/ferry and the jar's manifest set it)");
        }
        String problem = checkLibrary(loader);
        if (problem != null) {
            return Availability.no(problem);
        }
        List<String> names;
        try (Stream<Path> entries = Files.list(devices)) {
            names = entries.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (NoSuchFileException e) {
            return Availability.no("no RDMA device (" + devices + " does not exist: the kernel has no RDMA support"
                    + " loaded)");
        } catch (IOException e) {
            return Availability.no("no RDMA device (cannot list " + devices + ": " + e.getMessage() + ")");
        }
        if (names.isEmpty()) {
            return Availability.no("no RDMA device (" + devices + " is empty)");
        }
        return new Availability(true, String.join(", ", names) + " available");
    }

    /** Loads libdisni through {@code loader} and runs DiSNI's own checks; null if all is well, else the reason. */
    private static String checkLibrary(VerbsLoader loader) {
        Supplier<?> check;
        try {
            check = loader.newInstance("io.ferry.fabric.rdma.verbs.DisniCheck", Supplier.class, new Class<?>[0]);
        } catch (ReflectiveOperationException | LinkageError e) {
            return "cannot load DiSNI's classes: " + e;
        }
        try {
            Object problem = check.get();
            return problem == null ? null : problem.toString();
        } catch (UnsatisfiedLinkError e) {
            return describeLinkError(e);
        } catch (LinkageError | RuntimeException e) {
            return "libdisni is unusable: " + e;
        }
    }

    /** dlopen's message names the dependency it could not find; say which package provides it. */
    static String describeLinkError(UnsatisfiedLinkError e) {
        String message = String.valueOf(e.getMessage());
        if (message.contains("libibverbs") || message.contains("librdmacm") || message.contains("libnl")) {
            return "libibverbs/librdmacm not installed: " + message;
        }
        return "cannot load libdisni: " + message;
    }
}
