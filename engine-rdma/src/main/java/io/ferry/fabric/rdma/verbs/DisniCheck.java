package io.ferry.fabric.rdma.verbs;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import com.ibm.disni.verbs.IbvWC;
import com.ibm.disni.verbs.impl.NatIbvRecvWR;
import com.ibm.disni.verbs.impl.NatIbvSendWR;
import com.ibm.disni.verbs.impl.NatIbvSge;
import com.ibm.disni.verbs.impl.NativeDispatcher;
import com.ibm.disni.verbs.impl.SockAddrIn;

/**
 * Loads libdisni the way DiSNI does and verifies it, from inside {@link io.ferry.fabric.rdma.VerbsLoader} (this
 * class must only be loaded there). {@link #get()} returns null when the library is usable, else the reason.
 *
 * <p>DiSNI's {@code NativeDispatcher} constructor refuses a wrong version but, for a layout that differs, only logs
 * and overwrites its Java constant with the native value, silently changing what it writes into work requests. So
 * the check records the constants first and compares them with the natives itself: a library built for another
 * DiSNI or another verbs ABI is reported, not used.
 */
public final class DisniCheck implements Supplier<String> {
    @Override
    public String get() {
        // Read before anything creates a NativeDispatcher, which may overwrite them.
        int sockAddr = SockAddrIn.CSIZE;
        int sendWr = NatIbvSendWR.CSIZE;
        int remoteAddr = NatIbvSendWR.REMOTEADDR_OFFSET;
        int rkey = NatIbvSendWR.RKEY_OFFSET;
        int recvWr = NatIbvRecvWR.CSIZE;
        int sge = NatIbvSge.CSIZE;
        int wc = IbvWC.CSIZE;
        NativeDispatcher natives;
        try {
            natives = dispatcher(); // loads the library as DiSNI does and runs DiSNI's version check
        } catch (IOException e) {
            return "libdisni rejected by DiSNI: " + e.getMessage();
        }
        List<String> wrong = new ArrayList<>();
        compare(wrong, "sockaddr size", sockAddr, natives._getSockAddrInSize());
        compare(wrong, "ibv_send_wr size", sendWr, natives._getIbvSendWRSize());
        compare(wrong, "remote_addr offset", remoteAddr, natives._getRemoteAddressOffset());
        compare(wrong, "rkey offset", rkey, natives._getRKeyOffset());
        compare(wrong, "ibv_recv_wr size", recvWr, natives._getIbvRecvWRSize());
        compare(wrong, "ibv_sge size", sge, natives._getIbvSgeSize());
        compare(wrong, "ibv_wc size", wc, natives._getIbvWCSize());
        return wrong.isEmpty() ? null : "libdisni does not match DiSNI's layout: " + String.join(", ", wrong);
    }

    private static void compare(List<String> wrong, String what, int java, int c) {
        if (java != c) {
            wrong.add(what + " " + c + " in C, " + java + " in DiSNI");
        }
    }

    /**
     * A dispatcher of our own, for the size natives (DiSNI's provider keeps its one private). Its constructor is
     * package-private; creating it initialises the class, whose static initialiser loads the library, and runs the
     * version and layout comparison. A library that fails to load surfaces as the {@link UnsatisfiedLinkError} of
     * that static initialiser.
     */
    private static NativeDispatcher dispatcher() throws IOException {
        try {
            Constructor<NativeDispatcher> c = NativeDispatcher.class.getDeclaredConstructor();
            c.setAccessible(true);
            return c.newInstance();
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IllegalStateException("DiSNI's NativeDispatcher failed", e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot create DiSNI's NativeDispatcher", e);
        }
    }
}
