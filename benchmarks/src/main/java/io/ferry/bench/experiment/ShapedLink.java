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
    private final String namespace;
    private final String hostEnd;
    private final String nodeEnd;
    private final int megabits;
    private final String hostAddress;
    private final String nodeAddress;

    private ShapedLink(String id, int megabits, int index) {
        this.namespace = "ferry-exp-" + id;
        this.hostEnd = "fx" + id + "a";
        this.nodeEnd = "fx" + id + "b";
        this.megabits = megabits;
        this.hostAddress = "10.77." + index + ".1";
        this.nodeAddress = "10.77." + index + ".2";
    }

    /** A link of {@code megabits} Mbit/s; 0 leaves it unshaped (veth speed). */
    static ShapedLink create(int megabits) {
        return create(megabits, 0);
    }

    /**
     * Link number {@code index} (0 to 255) of several: the node's end is 10.77.index.2, the host's 10.77.index.1,
     * and the node reaches the other links' nodes through the host (with {@link #forwarding}), so traffic between two
     * nodes crosses both their shaped links, as through a switch.
     */
    static ShapedLink create(int megabits, int index) {
        ShapedLink link = new ShapedLink(ProcessHandle.current().pid() % 100_000 + (index == 0 ? "" : "n" + index),
                megabits, index);
        try {
            link.run("ip", "netns", "add", link.namespace);
            link.run("ip", "link", "add", link.hostEnd, "type", "veth", "peer", "name", link.nodeEnd);
            link.run("ip", "link", "set", link.nodeEnd, "netns", link.namespace);
            link.run("ip", "addr", "add", link.hostAddress + "/30", "dev", link.hostEnd);
            link.run("ip", "link", "set", link.hostEnd, "up");
            link.inside("ip", "addr", "add", link.nodeAddress + "/30", "dev", link.nodeEnd);
            link.inside("ip", "link", "set", link.nodeEnd, "up");
            link.inside("ip", "link", "set", "lo", "up");
            link.inside("ip", "route", "add", "10.77.0.0/16", "via", link.hostAddress);
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

    /** The host's address on this link. */
    String hostAddress() {
        return hostAddress;
    }

    /** The node's address on this link. */
    String nodeAddress() {
        return nodeAddress;
    }

    /**
     * Lets the host route between the links' namespaces (IPv4 forwarding on), until closed, when the setting is put
     * back as it was.
     */
    static AutoCloseable forwarding() throws IOException {
        java.nio.file.Path flag = java.nio.file.Path.of("/proc/sys/net/ipv4/ip_forward");
        String before = java.nio.file.Files.readString(flag).trim();
        java.nio.file.Files.writeString(flag, "1");
        return () -> java.nio.file.Files.writeString(flag, before);
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
