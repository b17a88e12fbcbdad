package io.ferry.server.cluster;

import io.ferry.server.cluster.control.ControlChannel;

/**
 * The coordinator's view of one node: what it said when it joined, its last load report, and the link to it as
 * measured. A node that restarts under the same name becomes a new member with a new incarnation.
 */
public final class Member {
    /** Heartbeats (500 ms apart) over which load must persist before the shipping rule counts it. */
    static final int LOAD_WINDOW = 4;

    /** UP: joined and measured; DOWN: its control connection broke or its heartbeats stopped. */
    public enum State {
        JOINING, UP, DOWN
    }

    private final int id;
    private final NodeHello hello;
    private final ControlChannel channel;
    private final long joinedMillis = System.currentTimeMillis();
    private volatile State state = State.JOINING;
    private volatile String downReason = "";
    private volatile NodeLoad load = NodeLoad.NONE;
    /** Other processes' cores in the last {@link #LOAD_WINDOW} heartbeats, oldest overwritten first. */
    private final double[] otherCores = new double[LOAD_WINDOW];
    private int heartbeats;
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
     * Cores this node can give its fragments, given the cores other processes on its cores kept busy throughout the
     * last two seconds (a core they saturate counts as one competing thread: without the kernel's schedstats there is
     * no telling how many wait for it): its threads if enough cores are idle; otherwise the scheduler's fair share, since its threads
     * and the others' compete for the same cores (one thread beside one busy process gets half a core, not none).
     * The minimum over the window, not the last sample, so a short burst (a client JVM starting beside a test cluster,
     * a compaction) does not flip decisions, while lasting load does.
     */
    public synchronized double availableCores() {
        double others = heartbeats == 0 ? 0 : Double.MAX_VALUE;
        for (int i = 0; i < Math.min(heartbeats, LOAD_WINDOW); i++) {
            others = Math.min(others, otherCores[i]);
        }
        return availableCores(hello.threads(), load.machineCores(), others);
    }

    /** {@code threads} runnable threads on {@code cores} cores of which {@code others} are busy with other work. */
    static double availableCores(int threads, int cores, double others) {
        double idle = cores - others;
        double fairShare = cores * threads / (threads + others);
        return Math.max(0.1, Math.min(threads, Math.max(idle, fairShare)));
    }

    void heard(NodeLoad l) {
        synchronized (this) {
            otherCores[heartbeats++ % LOAD_WINDOW] = l.otherCores();
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
