package io.ferry.fabric.rdma.verbs;

import java.io.IOException;

import org.apache.arrow.memory.ArrowBuf;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.ibm.disni.verbs.IbvMr;

import io.ferry.fabric.FabricRegion;
import io.ferry.fabric.RegionDescriptor;

/**
 * Arrow memory registered with the RDMA device: its descriptor's key is the memory region's rkey. Once
 * deregistered, the device refuses peers' accesses (they complete with a remote access error), so the owner may
 * free the buffer as soon as {@link #close()} returns.
 */
final class VerbsRegion extends FabricRegion<VerbsFabric> {
    private static final Logger LOG = LoggerFactory.getLogger(VerbsRegion.class);

    private final IbvMr mr;
    private boolean closed;

    VerbsRegion(VerbsFabric fabric, RegionDescriptor descriptor, ArrowBuf buffer, IbvMr mr) {
        super(fabric, descriptor, buffer);
        this.mr = mr;
    }

    int lkey() {
        return mr.getLkey();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        fabric.deregistered(this);
        try {
            mr.deregMr().execute().free();
        } catch (IOException e) {
            LOG.warn("deregistering region {} of {}: {}", descriptor().key(), descriptor().node(), e.toString());
        }
    }
}
