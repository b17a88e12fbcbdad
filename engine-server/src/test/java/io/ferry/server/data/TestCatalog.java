package io.ferry.server.data;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.arrow.memory.RootAllocator;

import io.ferry.core.storage.BlockStore;
import io.ferry.core.storage.Catalog;

/** A catalog on its own allocator for one test; closing it fails the test if any Arrow memory leaked. */
final class TestCatalog implements AutoCloseable {
    private final RootAllocator allocator = new RootAllocator();
    private final BlockStore store = new BlockStore(allocator, 1 << 20, 64L << 20);
    final Catalog catalog = new Catalog(store);

    @Override
    public void close() {
        catalog.clear();
        store.close();
        assertEquals(0, allocator.getAllocatedMemory(), "Arrow memory leaked");
        allocator.close();
    }
}
