package io.ferry.server.cluster;

import java.util.HashSet;
import java.util.Set;
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
 * its name as a new process, every table with blocks on its earlier process is read back from the coordinator's data
 * directory and placed anew ({@link Table#reload}), one table at a time on a thread of its own, so those tables
 * answer again without anyone reloading them. Until then they fail with 08006 naming the node, as before.
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
        Set<Member> lost = new HashSet<>();
        for (Member m : cluster.members()) {
            if (m != member && m.state() == Member.State.DOWN && m.name().equals(member.name())
                    && !m.hello().incarnation().equals(member.hello().incarnation())) {
                lost.add(m);
            }
        }
        if (!lost.isEmpty()) {
            work.execute(() -> recover(member, lost));
        }
    }

    private void recover(Member back, Set<Member> lost) {
        for (Table t : catalog.tables()) {
            if (!hasBlocksOn(t, lost)) {
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

    private boolean hasBlocksOn(Table t, Set<Member> lost) {
        try (TableData rows = t.snapshot()) {
            for (Block b : rows.blocks()) {
                if (lost.contains(storage.region(b).holder())) {
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
