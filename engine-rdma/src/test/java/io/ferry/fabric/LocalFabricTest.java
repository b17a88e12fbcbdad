package io.ferry.fabric;

import io.ferry.fabric.local.LocalFabric;

class LocalFabricTest extends FabricContract {
    @Override
    protected Fabric newNode() {
        return new LocalFabric();
    }
}
