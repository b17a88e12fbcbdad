package io.ferry.fabric;

import io.ferry.fabric.tcp.TcpFabric;

class TcpFabricTest extends FabricContract {
    @Override
    protected Fabric newNode() {
        return new TcpFabric("127.0.0.1", 0, 1);
    }
}
