package io.ferry.server.cluster;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

import io.ferry.server.cluster.control.ControlChannel;

/**
 * The coordinator's view of one node: what it said when it joined, its last load report, and the link to it as
 * measured. A node that restarts under the same name becomes a new member with a new incarnation.
 */
public final class Member {
    /** Heartbeats (500 ms apart) over which load must persist before the shipping rule counts it. */
    static final int LOAD_WINDOW = 4;

    /**
     * UP: joined and measured; DOWN: its control connection broke or its heartbeats stopped; JOINING again if the
     * same process comes back ({@link #revive}).
     */
    public enum State {
        JOINING, UP, DOWN
    }

    private final int id;
    private final NodeHello hello;
    private volatile ControlChannel channel;
    private final long joinedMillis = System.currentTimeMillis();
    private volatile State state = State.JOINING;
    private volatile String downReason = "";
    private volatile NodeLoad load = NodeLoad.NONE;
    /** The cores each of the last {@link #LOAD_WINDOW} heartbeats saw the node could give, oldest overwritten first. */
    private final double[] cores = new double[LOAD_WINDOW];
    private int heartbeats;
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile long lastHeard = System.nanoTime();
    private volatile double bytesPerSecond;
    private volatile double latencySeconds;

    Member(int id, NodeHello hello, ControlChannel channel) {
        this.id = id;
        this.hello = hello;
        this.channel = channel;
    }

    public int id() {
        return id;
    }

    public String name() {
        return hello.name();
    }

    public Role role() {
        return hello.role();
    }

    public NodeHello hello() {
        return hello;
    }

    public ControlChannel channel() {
        return channel;
    }

    public State state() {
        return state;
    }

    public boolean isUp() {
        return state == State.UP;
    }

    public String downReason() {
        return downReason;
    }

    public NodeLoad load() {
        return load;
    }

    public long joinedMillis() {
        return joinedMillis;
    }

    /** Nanoseconds since the node was last heard from. */
    public long silentNanos() {
        return System.nanoTime() - lastHeard;
    }

    /** Measured bandwidth of the link from this node to the coordinator. */
    public double bytesPerSecond() {
        return bytesPerSecond;
    }

    /** Measured time of one small read from the node. */
    public double latencySeconds() {
        return latencySeconds;
    }

    /** How errors name the node: role, name and fabric address. */
    public String describe() {
        return hello.role().label() + " " + hello.name() + " (" + hello.fabric() + ")";
    }

    /**
     * Cores this node can give its fragments: the median of what the last four heartbeats (2 s) saw
     * ({@link NodeLoad#coresFor}), so a single burst — a client JVM starting beside a test cluster, a compaction —
     * does not flip decisions, while lasting load does.
     */
    public synchronized double availableCores() {
        if (heartbeats == 0) {
            return hello.threads();
        }
        int n = Math.min(heartbeats, LOAD_WINDOW);
        double[] recent = Arrays.copyOf(cores, n);
        Arrays.sort(recent);
        return n % 2 == 1 ? recent[n / 2] : (recent[n / 2 - 1] + recent[n / 2]) / 2;
    }

    /** Fragments this coordinator has sent the node that have not answered yet. */
    public int fragmentsInFlight() {
        return inFlight.get();
    }

    public void fragmentStarted() {
        inFlight.incrementAndGet();
    }

    public void fragmentEnded() {
        inFlight.decrementAndGet();
    }

    void heard(NodeLoad l) {
        synchronized (this) {
            cores[heartbeats++ % LOAD_WINDOW] = l.coresFor(hello.threads());
        }
        load = l;
        lastHeard = System.nanoTime();
    }

    void measured(double bytesPerSecond, double latencySeconds) {
        this.bytesPerSecond = bytesPerSecond;
        this.latencySeconds = latencySeconds;
        if (state == State.JOINING) {
            state = State.UP;
        }
    }

    /**
     * The node is back over {@code channel}, the same process with its memory (a frozen process thawed, a broken
     * connection made again): it is joining again, to be measured, under its id, with its blocks. False if it is
     * not down.
     */
    synchronized boolean revive(ControlChannel channel) {
        if (state != State.DOWN) {
            return false;
        }
        this.channel = channel;
        downReason = "";
        lastHeard = System.nanoTime();
        state = State.JOINING;
        return true;
    }

    /** Marks the node down; true if it was not down before. */
    boolean markDown(String reason) {
        if (state == State.DOWN) {
            return false;
        }
        downReason = reason;
        state = State.DOWN;
        return true;
    }
}
