package io.ferry.fabric.rdma.verbs;

import java.time.Duration;

import org.apache.arrow.memory.ArrowBuf;

import com.ibm.disni.verbs.impl.NativeDispatcher;

import io.ferry.fabric.Fabric;
import io.ferry.fabric.NodeAddress;
import io.ferry.fabric.Peer;
import io.ferry.fabric.Region;

/**
 * Stands in for phase 2's {@code VerbsFabric}: a {@link Fabric} in the verbs package that refers to DiSNI types,
 * created through {@link io.ferry.fabric.rdma.VerbsLoader#newInstance}. Tests ask it which loaders it sees.
 */
public final class StubVerbsFabric implements Fabric {
    private final NodeAddress address;

    public StubVerbsFabric(String host, int port) {
        this.address = new NodeAddress(host, port);
    }

    /** The loader that defined DiSNI's classes as this class sees them. */
    public ClassLoader disniLoader() {
        return NativeDispatcher.class.getClassLoader();
    }

    /** io.ferry.fabric.Fabric as this class sees it. */
    public Class<?> fabricType() {
        return Fabric.class;
    }

    @Override
    public String provider() {
        return "rdma";
    }

    @Override
    public NodeAddress address() {
        return address;
    }

    @Override
    public int registeredRegions() {
        return 0;
    }

    @Override
    public Region register(ArrowBuf buffer, long offset, int length) {
        throw new UnsupportedOperationException("stub");
    }

    @Override
    public Peer connect(NodeAddress node, Duration timeout) {
        throw new UnsupportedOperationException("stub");
    }

    @Override
    public void close() {
    }
}
