package io.ferry.fabric;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.ferry.fabric.rdma.RdmaSupport;

/**
 * Whether the rdma tests can run here. On a machine without an RDMA device they are skipped; where RDMA is
 * required ({@code -Dferry.rdma.required=true}, as in the soft-RoCE VM run from CI) its absence fails them.
 */
final class RdmaTestSupport {
    /** The address of the RDMA device's network interface (the soft-RoCE VM's is 192.168.77.1). */
    static final String HOST = System.getProperty("ferry.rdma.host", "192.168.77.1");

    private RdmaTestSupport() {
    }

    static void requireRdma() {
        RdmaSupport.Availability rdma = RdmaSupport.probe();
        if (!rdma.available() && Boolean.getBoolean("ferry.rdma.required")) {
            fail("RDMA is required here but unavailable: " + rdma.reason());
        }
        assumeTrue(rdma.available(), () -> "no RDMA here: " + rdma.reason());
    }
}
