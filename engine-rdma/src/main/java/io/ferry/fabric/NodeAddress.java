package io.ferry.fabric;

/** Where a node's fabric endpoint listens. */
public record NodeAddress(String host, int port) {
    public NodeAddress {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("node host is empty");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("node port " + port + " is outside 0..65535");
        }
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
