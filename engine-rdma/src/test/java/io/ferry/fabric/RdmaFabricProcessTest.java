package io.ferry.fabric;

import org.junit.jupiter.api.BeforeAll;

/** RDMA between two JVMs: a serving process whose memory is read one-sidedly, and killed mid-stream. */
class RdmaFabricProcessTest extends FabricProcessContract {
    @BeforeAll
    static void rdma() {
        RdmaTestSupport.requireRdma();
    }

    @Override
    protected Fabrics.Kind kind() {
        return Fabrics.Kind.RDMA;
    }

    @Override
    protected String host() {
        return RdmaTestSupport.HOST;
    }
}
