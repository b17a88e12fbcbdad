package io.ferry.fabric;

import org.apache.arrow.memory.ArrowBuf;

/**
 * What every provider's region holds: the fabric it is registered with, its descriptor and the Arrow buffer behind
 * it, and the check that turns a {@link Region} handed to a peer back into one of that fabric's own.
 */
public abstract class FabricRegion<F extends Fabric> implements Region {
    protected final F fabric;
    private final RegionDescriptor descriptor;
    private final ArrowBuf buffer;

    protected FabricRegion(F fabric, RegionDescriptor descriptor, ArrowBuf buffer) {
        this.fabric = fabric;
        this.descriptor = descriptor;
        this.buffer = buffer;
    }

    @Override
    public final RegionDescriptor descriptor() {
        return descriptor;
    }

    @Override
    public final ArrowBuf buffer() {
        return buffer;
    }

    /**
     * {@code region} as a region of type {@code type} registered with {@code fabric}, with {@code [offset, offset +
     * length)} inside it: the local side of a READ or WRITE.
     */
    public static <R extends FabricRegion<?>> R local(Region region, Class<R> type, Fabric fabric, long offset,
            long length) {
        if (type.isInstance(region) && ((FabricRegion<?>) region).fabric == fabric) {
            region.descriptor().checkRange(offset, length);
            return type.cast(region);
        }
        throw new IllegalArgumentException("region " + region.descriptor().key() + " of "
                + region.descriptor().node() + " is not registered with the fabric at " + fabric.address());
    }
}
