package io.ferry.fabric.rdma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * libdisni against DiSNI 2.1's Java side, through {@link VerbsLoader}: the library loads, DiSNI's constructor
 * accepts it, the layout numbers agree, and every native DiSNI declares is bound and behaves on invalid handles.
 */
class NativeDispatcherTest {
    private static final String IMPL = "com.ibm.disni.verbs.impl.";

    /** DiSNI 2.1's constants (javap -c of the classes named), which our C code asserts at compile time too. */
    private static final Map<String, Integer> DISNI_LAYOUT = Map.of(
            "SockAddrIn.CSIZE", 28,
            "NatIbvSendWR.CSIZE", 72,
            "NatIbvSendWR.REMOTEADDR_OFFSET", 40,
            "NatIbvSendWR.RKEY_OFFSET", 48,
            "NatIbvRecvWR.CSIZE", 32,
            "NatIbvSge.CSIZE", 16,
            "IbvWC.CSIZE", 48);

    /** Which native answers for which constant. */
    private static final Map<String, String> NATIVE_FOR = Map.of(
            "SockAddrIn.CSIZE", "_getSockAddrInSize",
            "NatIbvSendWR.CSIZE", "_getIbvSendWRSize",
            "NatIbvSendWR.REMOTEADDR_OFFSET", "_getRemoteAddressOffset",
            "NatIbvSendWR.RKEY_OFFSET", "_getRKeyOffset",
            "NatIbvRecvWR.CSIZE", "_getIbvRecvWRSize",
            "NatIbvSge.CSIZE", "_getIbvSgeSize",
            "IbvWC.CSIZE", "_getIbvWCSize");

    /** Natives DiSNI declares without "throws" that legitimately return >= 0 for zero arguments. */
    private static final Set<String> NON_NEGATIVE = Set.of("_ackCmEvent", "_getVersion", "_getSockAddrInSize",
            "_getIbvRecvWRSize", "_getIbvSendWRSize", "_getIbvSgeSize", "_getIbvWCSize", "_getRemoteAddressOffset",
            "_getRKeyOffset");

    private static VerbsLoader loader;
    private static Class<?> dispatcherClass;
    private static Object dispatcher;
    private static Map<String, Integer> javaLayoutBefore;

    @BeforeAll
    static void createDispatcher() throws Exception {
        LibdisniBuild.require();
        loader = LibdisniBuild.newLoader();
        javaLayoutBefore = javaLayout(); // before the constructor, which overwrites constants that disagree
        dispatcherClass = Class.forName(IMPL + "NativeDispatcher", false, loader);
        var constructor = dispatcherClass.getDeclaredConstructor();
        constructor.setAccessible(true);
        dispatcher = constructor.newInstance(); // loads the library, throws on a version mismatch
    }

    private static Map<String, Integer> javaLayout() throws ReflectiveOperationException {
        Map<String, Integer> layout = new TreeMap<>();
        for (String constant : DISNI_LAYOUT.keySet()) {
            int dot = constant.indexOf('.');
            String owner = constant.startsWith("IbvWC") ? "com.ibm.disni.verbs." : IMPL;
            Class<?> c = Class.forName(owner + constant.substring(0, dot), true, loader);
            layout.put(constant, c.getField(constant.substring(dot + 1)).getInt(null));
        }
        return layout;
    }

    private static Object call(String name) throws ReflectiveOperationException {
        return dispatcherClass.getMethod(name).invoke(dispatcher);
    }

    /** DiSNI's System.loadLibrary("disni") went through VerbsLoader.findLibrary: the JVM mapped our copy. */
    @Test
    void theLibraryIsMappedFromTheExtractedCopy() throws IOException {
        assertSame(loader, dispatcherClass.getClassLoader());
        String library = loader.extractLibrary().toString();
        assertTrue(Files.readAllLines(Path.of("/proc/self/maps")).stream().anyMatch(l -> l.endsWith(library)),
                library + " is not mapped into this process");
    }

    @Test
    void versionAndLayoutMatchDisni() throws ReflectiveOperationException {
        assertEquals(32, call("_getVersion"));
        assertEquals(DISNI_LAYOUT, javaLayoutBefore, "DiSNI 2.1's own constants");
        for (var e : DISNI_LAYOUT.entrySet()) {
            assertEquals(e.getValue(), call(NATIVE_FOR.get(e.getKey())), e.getKey() + " from " + NATIVE_FOR.get(e.getKey()));
        }
        assertEquals(javaLayoutBefore, javaLayout(), "the constructor found no mismatch, so changed no constant");
    }

    /**
     * Calls every native with zero for each argument: an unbound native throws UnsatisfiedLinkError, so this fails
     * for any name missing from the library. Zero is a null handle everywhere, which each native must reject
     * cleanly: an IOException with a message where DiSNI declares one, a negative result where it does not.
     */
    @Test
    void everyNativeIsBoundAndRejectsNullHandles() throws ReflectiveOperationException {
        List<Method> natives = Arrays.stream(dispatcherClass.getDeclaredMethods())
                .filter(m -> Modifier.isNative(m.getModifiers())).toList();
        assertEquals(48, natives.size(), "DiSNI 2.1 declares 48 natives");
        List<String> problems = new ArrayList<>();
        for (Method m : natives) {
            Object[] zeros = Arrays.stream(m.getParameterTypes()).map(NativeDispatcherTest::zero).toArray();
            boolean throwsIo = Arrays.asList(m.getExceptionTypes()).contains(IOException.class);
            try {
                Object result = m.invoke(dispatcher, zeros);
                if (m.getName().equals("_createEventChannel")) {
                    // Takes no handle: succeeds on a machine with RDMA, so clean up.
                    call1("_destroyEventChannel", (Long) result);
                } else if (throwsIo) {
                    problems.add(m.getName() + " returned " + result + " for null handles instead of throwing");
                } else if (!NON_NEGATIVE.contains(m.getName()) && ((Number) result).longValue() >= 0) {
                    problems.add(m.getName() + " returned " + result + " for null handles");
                }
            } catch (InvocationTargetException e) {
                Throwable cause = e.getCause();
                if (cause instanceof UnsatisfiedLinkError) {
                    problems.add(m.getName() + " is not in the library: " + cause.getMessage());
                } else if (!(throwsIo && cause instanceof IOException && !cause.getMessage().isBlank())) {
                    problems.add(m.getName() + " threw " + cause);
                }
            }
        }
        if (!problems.isEmpty()) {
            fail(String.join("\n", problems));
        }
    }

    /**
     * DiSNI writes 72-byte send records, today's struct ibv_send_wr is 128 bytes: _postSend copies each record into a
     * full struct. Checked here against DiSNI's own serialiser, since no queue pair exists on the build hosts.
     */
    @Test
    void sendRecordsBecomeFullWorkRequests() throws ReflectiveOperationException {
        loader.newInstance("io.ferry.fabric.rdma.verbs.SendListTranslationCheck", Runnable.class, new Class<?>[0])
                .run();
    }

    @Test
    void nativeErrorsCarryErrnoText() throws ReflectiveOperationException {
        Method regMr = dispatcherClass.getMethod("_regMr", long.class, long.class, int.class, int.class, long.class,
                long.class, long.class);
        var e = assertInstanceOf(IOException.class, assertThrowsInvocation(regMr, 0L, 0L, 0, 0, 0L, 0L, 0L));
        assertEquals("ibv_reg_mr: no protection domain: Invalid argument (errno 22)", e.getMessage());
        Method getCmEvent = dispatcherClass.getMethod("_getCmEvent", long.class, long.class, long.class, int.class);
        assertEquals(-2, getCmEvent.invoke(dispatcher, 0L, 0L, 0L, 10), "no channel: failed, not timed out");
        assertFalse(e.getMessage().contains("\n"));
    }

    private static Throwable assertThrowsInvocation(Method m, Object... args) throws IllegalAccessException {
        try {
            m.invoke(dispatcher, args);
        } catch (InvocationTargetException e) {
            return e.getCause();
        }
        return fail(m.getName() + " did not throw");
    }

    private static void call1(String name, long arg) throws ReflectiveOperationException {
        dispatcherClass.getMethod(name, long.class).invoke(dispatcher, arg);
    }

    private static Object zero(Class<?> type) {
        if (type == long.class) {
            return 0L;
        } else if (type == int.class) {
            return 0;
        } else if (type == short.class) {
            return (short) 0;
        } else if (type == byte.class) {
            return (byte) 0;
        }
        throw new AssertionError("unexpected parameter type " + type);
    }
}
