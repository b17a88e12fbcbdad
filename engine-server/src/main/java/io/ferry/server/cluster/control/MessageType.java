package io.ferry.server.cluster.control;

/** Frame types of the control protocol (DESIGN.md: the coordinator's control plane). */
public final class MessageType {
    /** node → coordinator, call: a node introduces itself ({@code NodeHello}); the reply is its id. */
    public static final int HELLO = 1;
    /** node → coordinator, notice: load report ({@code NodeLoad}). */
    public static final int HEARTBEAT = 2;
    /** coordinator → node, call: allocate and register a region for blocks; the reply is its descriptor. */
    public static final int ALLOCATE = 3;
    /** coordinator → node, call: deregister and free a region. */
    public static final int FREE = 4;
    /** coordinator → node, call: run a plan fragment on blocks (function shipping). */
    public static final int RUN_FRAGMENT = 5;
    /** coordinator → node, call: write a held result into a region the coordinator registered. */
    public static final int WRITE_RESULT = 6;
    /** coordinator → node, notice: stop a query's fragment and drop what it holds. */
    public static final int CANCEL = 7;
    /**
     * coordinator → node, call: run a stage of a shuffle join and split its rows into parts held here as blocks; the
     * reply lists each part's blocks ({@code QueryRegions}).
     */
    public static final int RUN_EXCHANGE = 8;
    /**
     * coordinator → node, call: free every region a query holds here (exchange parts, work queues' words), or the one
     * whose key follows the query's id.
     */
    public static final int FREE_QUERY_REGIONS = 9;
    /**
     * coordinator → memory server, call: register a query's work-queue words ({@code head<<32 | tail} each), held
     * until FREE_QUERY_REGIONS; the reply is the region's descriptor.
     */
    public static final int ALLOCATE_QUEUES = 10;
    /**
     * coordinator → memory server or worker, call: the keys of the block regions the coordinator holds there; the
     * node frees every other block region (left by an earlier coordinator process) and replies with the bytes freed.
     */
    public static final int RETAIN = 11;

    private MessageType() {
    }
}
