package io.ferry.fabric.tcp;

import java.util.concurrent.TimeUnit;

import org.apache.arrow.memory.ArrowBuf;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ferry.fabric.FabricRegion;
import io.ferry.fabric.RegionDescriptor;

/**
 * A region of the tcp fabric. Its memory is touched by the network threads only while pinned: while a reply is
 * sent straight from it (the kernel reads it until the write completes) or while a chunk of incoming data is
 * copied into it. {@link #close()} refuses new pins and waits for the held ones, so once it returns the owner may
 * free the buffer.
 */
final class TcpRegion extends FabricRegion<TcpFabric> {
    private static final Logger LOG = LoggerFactory.getLogger(TcpRegion.class);
    /** How long close waits for sends from the region before dropping the connections that hold them. */
    private static final long DRAIN_NANOS = TimeUnit.SECONDS.toNanos(5);

    private int pins;
    private boolean closed;

    TcpRegion(TcpFabric fabric, RegionDescriptor descriptor, ArrowBuf buffer) {
        super(fabric, descriptor, buffer);
    }

    /** Holds the region's memory for one access; false once the region is deregistered. */
    synchronized boolean pin() {
        if (closed) {
            return false;
        }
        pins++;
        return true;
    }

    synchronized void unpin() {
        if (--pins == 0 && closed) {
            notifyAll();
        }
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        fabric.deregister(this);
        if (!awaitUnpinned()) {
            // A peer that stopped reading holds a send from this region; dropping its connection fails the send.
            LOG.warn("region {} of {}: sends still pending after {} s; closing the connections that hold them",
                    descriptor().key(), descriptor().node(), TimeUnit.NANOSECONDS.toSeconds(DRAIN_NANOS));
            fabric.dropServingConnections();
            if (!awaitUnpinned()) {
                throw new IllegalStateException("region " + descriptor().key() + " is still in use by the network; "
                        + "its memory must not be freed");
            }
        }
    }

    private synchronized boolean awaitUnpinned() {
        long deadline = System.nanoTime() + DRAIN_NANOS;
        boolean interrupted = false;
        try {
            while (pins > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(this, left);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            return true;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
