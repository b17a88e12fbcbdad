package io.ferry.server.data;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import io.ferry.core.storage.BlockStore;
import io.ferry.core.storage.Catalog;

/**
 * A catalog on its own allocator for one test, registered as an extension
 * ({@code @RegisterExtension final TestCatalog storage = new TestCatalog();}); after the test it drops every table
 * and fails the test if any Arrow memory leaked.
 */
final class TestCatalog implements AfterEachCallback {
    private final RootAllocator allocator = new RootAllocator();
    private final BlockStore store = new BlockStore(allocator, 1 << 20, 64L << 20);
    final Catalog catalog = new Catalog(store);

    @Override
    public void afterEach(ExtensionContext context) {
        catalog.clear();
        store.close();
        assertEquals(0, allocator.getAllocatedMemory(), "Arrow memory leaked");
        allocator.close();
    }
}
