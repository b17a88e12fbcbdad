package io.ferry.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

import io.ferry.fabric.tcp.TcpFabric;

/**
 * The tcp fabric listening on every address and announcing another (a node in a container: --host 0.0.0.0
 * --advertise NAME): the whole contract through the announced address, and the announced address in descriptors.
 */
class TcpFabricAdvertisedTest extends FabricContract {
    @Override
    protected Fabric newNode() {
        return new TcpFabric("0.0.0.0", 0, 1, "127.0.0.1");
    }

    @Test
    void itAnnouncesTheAdvertisedHostWithThePortItListensOn() {
        assertEquals("127.0.0.1", owner.address().host());
        assertNotEquals(0, owner.address().port());
    }
}
