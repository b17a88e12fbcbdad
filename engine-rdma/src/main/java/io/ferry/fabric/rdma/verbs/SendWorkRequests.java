package io.ferry.fabric.rdma.verbs;

/**
 * libdisni's translation of DiSNI's send work requests into {@code struct ibv_send_wr}, callable without a queue
 * pair. DiSNI 2.1 writes 72-byte records (the head of today's 128-byte struct), so {@code _postSend} copies them into
 * full structs before posting (see {@code src/main/native/disni_verbs.c}); this entry point lets tests check that
 * copy against DiSNI's own serialiser on machines without an RDMA device. Not used on the data path.
 */
public final class SendWorkRequests {
    static {
        // Same loader, same path as DiSNI's NativeDispatcher: a no-op if DiSNI loaded the library already.
        System.loadLibrary("disni");
    }

    private SendWorkRequests() {
    }

    /** {@code sizeof(struct ibv_send_wr)} in the library: the stride of {@link #translate}'s output. */
    public static native int structSize();

    /**
     * Translates the DiSNI list starting at address {@code list} into structs at address {@code out}, which has room
     * for {@code capacity} of them, linked to each other. Returns the number of work requests, -1 if the list is
     * longer than libdisni accepts (a cycle), -2 if {@code out} is too small, -22 (-EINVAL) for a zero address.
     */
    public static native int translate(long list, long out, int capacity);
}
