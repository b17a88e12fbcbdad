package io.ferry.bench.experiment;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * A network link between the coordinator (in the host's namespace) and a node in a network namespace of its own,
 * over a veth pair whose both ends are shaped with the token-bucket filter to {@code megabits} per second. This
 * kernel has no netem, so no latency is added (../shared/notes/network-shaping.md): the link is a bandwidth limit
 * over a loopback-like path. Needs root and iproute2; everything is torn down on {@link #close}.
 */
final class ShapedLink implements AutoCloseable {
    static final String HOST_ADDRESS = "10.77.0.1";
    static final String NODE_ADDRESS = "10.77.0.2";

    private final String namespace;
    private final String hostEnd;
    private final String nodeEnd;
    private final int megabits;

    private ShapedLink(String id, int megabits) {
        this.namespace = "ferry-exp-" + id;
        this.hostEnd = "fx" + id + "a";
        this.nodeEnd = "fx" + id + "b";
        this.megabits = megabits;
    }

    /** A link of {@code megabits} Mbit/s; 0 leaves it unshaped (veth speed). */
    static ShapedLink create(int megabits) {
        ShapedLink link = new ShapedLink(Long.toString(ProcessHandle.current().pid() % 100_000), megabits);
        try {
            link.run("ip", "netns", "add", link.namespace);
            link.run("ip", "link", "add", link.hostEnd, "type", "veth", "peer", "name", link.nodeEnd);
            link.run("ip", "link", "set", link.nodeEnd, "netns", link.namespace);
            link.run("ip", "addr", "add", HOST_ADDRESS + "/30", "dev", link.hostEnd);
            link.run("ip", "link", "set", link.hostEnd, "up");
            link.inside("ip", "addr", "add", NODE_ADDRESS + "/30", "dev", link.nodeEnd);
            link.inside("ip", "link", "set", link.nodeEnd, "up");
            link.inside("ip", "link", "set", "lo", "up");
            if (megabits > 0) {
                link.run(link.tbf(link.hostEnd));
                link.inside(link.tbf(link.nodeEnd).toArray(String[]::new));
            }
            return link;
        } catch (RuntimeException e) {
            link.close();
            throw e;
        }
    }

    /** Token bucket: the burst must hold at least one timer tick's worth of bytes at this rate. */
    private List<String> tbf(String device) {
        long burst = Math.max(64 << 10, megabits * 1_000_000L / 8 / 250);
        return List.of("tc", "qdisc", "replace", "dev", device, "root", "tbf", "rate", megabits + "mbit", "burst",
                Long.toString(burst), "latency", "50ms");
    }

    /** The command prefix that runs a program inside the node's namespace. */
    List<String> enter() {
        return List.of("ip", "netns", "exec", namespace);
    }

    private void inside(String... command) {
        List<String> c = new ArrayList<>(enter());
        c.addAll(List.of(command));
        run(c);
    }

    private void run(String... command) {
        run(List.of(command));
    }

    private void run(List<String> command) {
        String out;
        int code;
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("'" + String.join(" ", command) + "' did not finish in 20 s");
            }
            out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            code = p.exitValue();
        } catch (IOException e) {
            throw new IllegalStateException("shaping a link needs iproute2 (ip, tc) on the PATH: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while setting up the link", e);
        }
        if (code != 0) {
            throw new IllegalStateException(String.format(Locale.ROOT, "'%s' failed (exit %d): %s%s",
                    String.join(" ", command), code, out, code == 2 || out.contains("Operation not permitted")
                            ? "; shaping a link needs root (network namespaces, veth, tc)" : ""));
        }
    }

    /** Deletes the namespace, which deletes the veth pair with it. */
    @Override
    public void close() {
        try {
            run("ip", "netns", "del", namespace);
        } catch (RuntimeException e) {
            // not created, or already gone
        }
        try {
            run("ip", "link", "del", hostEnd);
        } catch (RuntimeException e) {
            // deleted with the namespace
        }
    }
}
