package io.ferry.fabric;

import org.junit.jupiter.api.BeforeAll;

/** The fabric contract on real RDMA verbs (soft-RoCE in CI's VM, see integration-tests/soft-roce). */
class RdmaFabricTest extends FabricContract {
    @BeforeAll
    static void rdma() {
        RdmaTestSupport.requireRdma();
    }

    @Override
    protected Fabric newNode() {
        return Fabrics.open(Fabrics.Kind.RDMA, RdmaTestSupport.HOST, 0, 1);
    }
}
