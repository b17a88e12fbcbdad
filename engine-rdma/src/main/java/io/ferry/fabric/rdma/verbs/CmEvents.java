package io.ferry.fabric.rdma.verbs;

import java.io.IOException;
import java.util.concurrent.locks.LockSupport;

import com.ibm.disni.verbs.RdmaCmEvent;
import com.ibm.disni.verbs.RdmaEventChannel;

/** Waiting for RDMA CM events with a deadline: DiSNI on soft-RoCE has been seen to hang in connect (disni#41). */
final class CmEvents {
    private CmEvents() {
    }

    static RdmaCmEvent.EventType type(RdmaCmEvent e) {
        return RdmaCmEvent.EventType.values()[e.getEvent()];
    }

    /**
     * Waits until {@code deadline} (System.nanoTime) for the next event on {@code channel}, acknowledges it, and
     * returns its type; throws if none came or it is not {@code expected}.
     */
    static void expect(RdmaEventChannel channel, RdmaCmEvent.EventType expected, long deadline, String what)
            throws IOException {
        RdmaCmEvent e = next(channel, deadline);
        if (e == null) {
            throw new IOException(what + ": no " + expected + " event in time");
        }
        RdmaCmEvent.EventType got = type(e);
        int status = e.getStatus();
        e.ackEvent();
        if (got != expected) {
            throw new IOException(what + ": " + got + " (status " + status + ") instead of " + expected);
        }
    }

    /** The next event before {@code deadline}, not yet acknowledged; null if none came. */
    static RdmaCmEvent next(RdmaEventChannel channel, long deadline) throws IOException {
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return null;
            }
            // Short slices, so a closing channel is noticed and the deadline holds to within them.
            int slice = (int) Math.max(1, Math.min(100, left / 1_000_000));
            long start = System.nanoTime();
            RdmaCmEvent e = channel.getCmEvent(slice);
            if (e != null) {
                return e;
            }
            if (System.nanoTime() - start < slice * 500_000L) {
                // DiSNI reports a failed wait as no event: do not spin on a broken channel.
                LockSupport.parkNanos(slice * 1_000_000L);
            }
        }
    }
}
