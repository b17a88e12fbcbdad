package io.ferry.fabric;

import org.apache.arrow.memory.ArrowBuf;

/**
 * Off-heap memory registered with a fabric, so peers can read and write it one-sidedly. The caller keeps
 * owning the Arrow buffer: it must outlive the registration, and closing the region only deregisters it.
 */
public interface Region extends AutoCloseable {
    RegionDescriptor descriptor();

    ArrowBuf buffer();

    /** Deregisters the region; later remote operations on it fail. */
    @Override
    void close();
}
