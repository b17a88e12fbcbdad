package io.ferry.fabric.rdma;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.InvocationTargetException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.CodeSigner;
import java.security.CodeSource;
import java.security.SecureClassLoader;
import java.util.EnumSet;
import java.util.Locale;

/**
 * The class loader through which Ferry uses DiSNI, so that DiSNI finds the {@code libdisni.so} packaged in Ferry's
 * jar.
 *
 * <p>DiSNI's {@code NativeDispatcher} runs {@code System.loadLibrary("disni")} in its static initialiser. The JDK
 * resolves that name by first asking the class loader that defined the calling class ({@link #findLibrary}) and only
 * then searching {@code java.library.path}, which is fixed when the JVM starts. Extracting the library and calling
 * {@code System.load} ourselves would not help: a library belongs to the class loader of the class that loaded it,
 * and the JVM binds {@code NativeDispatcher}'s natives only to libraries of {@code NativeDispatcher}'s own loader.
 * So this loader defines DiSNI's classes itself (child-first), and answers {@code findLibrary("disni")} with the
 * library it extracted from the jar to a private temporary directory.
 *
 * <p>Child-first applies to exactly two package prefixes: {@code com.ibm.disni.} and {@code io.ferry.fabric.rdma.verbs.}
 * (Ferry's code that touches DiSNI types, which must see this loader's copies). Everything else, in particular
 * {@code io.ferry.fabric.Fabric} and the rest of Ferry, Arrow, SLF4J and the JDK, is delegated to the parent, so a
 * {@code VerbsFabric} created here is an ordinary {@code io.ferry.fabric.Fabric} to its callers. Class bytes come
 * from the parent's resources, i.e. from the same jar or directory the parent would load them from, and keep that
 * code source.
 *
 * <p>One JVM may hold several instances (tests do): each extracts its own copy, because the JVM refuses to let two
 * class loaders load the same library file. Production code uses {@link #shared()}.
 */
public final class VerbsLoader extends SecureClassLoader {
    static {
        registerAsParallelCapable();
    }

    /** The name DiSNI passes to {@code System.loadLibrary}. */
    static final String LIBRARY = "disni";

    /** Where the build puts the library inside the jar, followed by {@code <platform>/libdisni.so}. */
    static final String RESOURCE_DIR = "io/ferry/fabric/rdma/native/";

    private static final String[] CHILD_FIRST = {"com.ibm.disni.", "io.ferry.fabric.rdma.verbs."};

    private final String libraryResource;
    private Path extracted; // guarded by this

    VerbsLoader(ClassLoader parent, String libraryResource) {
        super("ferry-verbs", parent);
        this.libraryResource = libraryResource;
    }

    /** The process-wide loader, parented to the loader that loaded Ferry. */
    public static VerbsLoader shared() {
        return Shared.INSTANCE;
    }

    private static final class Shared {
        static final VerbsLoader INSTANCE = new VerbsLoader(VerbsLoader.class.getClassLoader(),
                defaultLibraryResource());
    }

    /** {@code linux-x86_64} and the like: the directory the build writes the library to for this machine. */
    static String platform() {
        String os = System.getProperty("os.name", "unknown").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "unknown").toLowerCase(Locale.ROOT);
        String o = os.startsWith("linux") ? "linux" : os.replace(' ', '-');
        String a = switch (arch) {
            case "amd64", "x86_64" -> "x86_64";
            case "aarch64", "arm64" -> "aarch64";
            default -> arch;
        };
        return o + "-" + a;
    }

    static String defaultLibraryResource() {
        return RESOURCE_DIR + platform() + "/lib" + LIBRARY + ".so";
    }

    /** The resource this loader extracts the library from. */
    String libraryResource() {
        return libraryResource;
    }

    /** Whether the jar (or classes directory) carries a library for this loader to extract. */
    boolean hasLibrary() {
        return getParent().getResource(libraryResource) != null;
    }

    /**
     * Creates {@code className} (which must lie in {@code io.ferry.fabric.rdma.verbs}) through this loader and
     * returns it as {@code type}, a type both sides share because it is loaded by the parent. This is how Ferry
     * reaches DiSNI: e.g. {@code newInstance("io.ferry.fabric.rdma.verbs.VerbsFabric", Fabric.class, ...)}.
     *
     * @throws ReflectiveOperationException if the class cannot be found or created; an exception thrown by the
     *         constructor arrives as the cause of an {@link InvocationTargetException}
     */
    public <T> T newInstance(String className, Class<T> type, Class<?>[] parameterTypes, Object... args)
            throws ReflectiveOperationException {
        if (!className.startsWith("io.ferry.fabric.rdma.verbs.")) {
            throw new IllegalArgumentException(className + " is not in io.ferry.fabric.rdma.verbs");
        }
        Class<?> c = Class.forName(className, true, this);
        return type.cast(c.getConstructor(parameterTypes).newInstance(args));
    }

    private static boolean childFirst(String name) {
        for (String prefix : CHILD_FIRST) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!childFirst(name)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                c = findClass(name);
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        if (!childFirst(name)) {
            throw new ClassNotFoundException(name);
        }
        String path = name.replace('.', '/') + ".class";
        URL url = getParent().getResource(path);
        if (url == null) {
            throw new ClassNotFoundException(name + " is not on the class path");
        }
        byte[] bytes;
        try (InputStream in = url.openStream()) {
            bytes = in.readAllBytes();
        } catch (IOException e) {
            throw new ClassNotFoundException("cannot read " + url, e);
        }
        return defineClass(name, bytes, 0, bytes.length, new CodeSource(codeBase(url, path), (CodeSigner[]) null));
    }

    /** The jar or directory a class resource lives in: its code source, as the parent would have recorded it. */
    private static URL codeBase(URL resource, String path) {
        String s = resource.toString();
        try {
            if (s.startsWith("jar:")) {
                int bang = s.indexOf("!/");
                if (bang > 0) {
                    return new URL(s.substring(4, bang));
                }
            } else if (s.endsWith(path)) {
                return new URL(s.substring(0, s.length() - path.length()));
            }
        } catch (MalformedURLException e) {
            // fall through: the resource URL itself is still a usable, if narrower, code source
        }
        return resource;
    }

    /**
     * Answers DiSNI's {@code System.loadLibrary("disni")} with the library extracted from the jar. For other names
     * it returns null, so the JDK's usual search applies. If there is no library to extract it throws, because the
     * JDK's fallback error ("no disni in java.library.path") would hide the real reason.
     */
    @Override
    protected String findLibrary(String libname) {
        if (!LIBRARY.equals(libname)) {
            return null;
        }
        try {
            return extractLibrary().toString();
        } catch (IOException e) {
            UnsatisfiedLinkError error = new UnsatisfiedLinkError("cannot extract " + libraryResource + ": " + e);
            error.initCause(e);
            throw error;
        }
    }

    /**
     * Copies the library to a fresh directory only this user can enter (0700), once per loader. Both are deleted
     * when the JVM exits; deleting earlier is impossible to time right, since DiSNI loads the library lazily.
     */
    synchronized Path extractLibrary() throws IOException {
        if (extracted != null) {
            return extracted;
        }
        URL source = getParent().getResource(libraryResource);
        if (source == null) {
            throw new UnsatisfiedLinkError("no lib" + LIBRARY + " built for " + platform() + " in this jar ("
                    + libraryResource + " is missing)");
        }
        Path dir = Files.createTempDirectory("ferry-disni-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        dir.toFile().deleteOnExit();
        Path library = dir.resolve("lib" + LIBRARY + ".so");
        library.toFile().deleteOnExit(); // registered after the directory, so deleted before it
        try (InputStream in = source.openStream();
                SeekableByteChannel channel = Files.newByteChannel(library,
                        EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
                OutputStream out = Channels.newOutputStream(channel)) {
            in.transferTo(out);
        }
        extracted = library;
        return library;
    }

    @Override
    public String toString() {
        return "VerbsLoader[" + libraryResource + "]";
    }
}
