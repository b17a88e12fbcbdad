package io.ferry.server.cluster;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ferry.core.durable.DataDirectory;
import io.ferry.core.storage.Block;
import io.ferry.core.storage.Catalog;
import io.ferry.core.storage.Table;
import io.ferry.core.storage.TableData;

/**
 * A memory server or worker that restarted while the coordinator ran lost the blocks it held: when it rejoins under
 * its name as a new process, blocks with a copy left elsewhere are copied again ({@link ClusterStorage#catchUp}), and
 * every table with a block of which no copy is left is read back from the coordinator's data directory and placed
 * anew ({@link Table#reload}), one table at a time on a thread of its own, so those tables answer again without anyone
 * reloading them. Until then they fail with 08006 naming the node, as before.
 */
final class LostBlockRecovery implements Cluster.Listener, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LostBlockRecovery.class);

    private final Cluster cluster;
    private final ClusterStorage storage;
    private final Catalog catalog;
    private final DataDirectory data;
    private final ExecutorService work = Executors.newSingleThreadExecutor(DataNode.daemon("ferry-recovery"));

    LostBlockRecovery(Cluster cluster, ClusterStorage storage, Catalog catalog, DataDirectory data) {
        this.cluster = cluster;
        this.storage = storage;
        this.catalog = catalog;
        this.data = data;
    }

    @Override
    public void onUp(Member member) {
        if (!member.role().holdsBlocks()) {
            return;
        }
        boolean replacesOne = cluster.members().stream().anyMatch(m -> m != member && m.name().equals(member.name())
                && cluster.replaced(m));
        if (replacesOne) {
            work.execute(() -> recover(member));
        }
    }

    /** Copies what has a copy left ({@link ClusterStorage#catchUp}), then reads back every table that lost blocks. */
    private void recover(Member back) {
        storage.catchUp();
        for (Table t : catalog.tables()) {
            if (!lostBlocks(t)) {
                continue;
            }
            long t0 = System.nanoTime();
            try {
                t.reload(data.reader());
                LOG.info("table '{}' had blocks on the earlier process of {}, which restarted: its rows were read back "
                        + "from {} and placed anew in {} ms", t.name(), back.describe(), data.root(),
                        (System.nanoTime() - t0) / 1_000_000);
            } catch (RuntimeException e) {
                LOG.warn("table '{}' had blocks on the earlier process of {}, which restarted, and cannot be read back "
                        + "from {}: {}", t.name(), back.describe(), data.root(), e.getMessage());
            }
        }
    }

    private boolean lostBlocks(Table t) {
        try (TableData rows = t.snapshot()) {
            for (Block b : rows.blocks()) {
                if (storage.lost(b)) {
                    return true;
                }
            }
        }
        return false;
    }

    @Override
    public void close() {
        work.shutdownNow();
        try {
            work.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
