package io.ferry.fabric.rdma.verbs;

import java.io.IOException;

/**
 * Posts RDMA atomics through Ferry's libdisni: DiSNI 2.1's {@code IbvSendWR} cannot fill the atomic member of a work
 * request (see {@code AtomicWorkRequests_post} in {@code src/main/native/disni_verbs.c}).
 */
final class AtomicWorkRequests {
    static {
        // Same loader, same path as DiSNI's NativeDispatcher: a no-op once DiSNI has loaded the library.
        System.loadLibrary("disni");
    }

    private AtomicWorkRequests() {
    }

    /**
     * Posts one signalled atomic on the queue pair at native address {@code qp}; the word's old value lands in the 8
     * bytes at {@code local} (memory region {@code lkey}). For compare-and-swap {@code compareAdd} is the expected
     * value and {@code swap} the new one; for fetch-and-add {@code compareAdd} is the delta.
     */
    static native void post(long qp, long wrId, boolean compareAndSwap, long local, int lkey, long remote, int rkey,
            long compareAdd, long swap) throws IOException;
}
