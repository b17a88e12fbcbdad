package io.ferry.it;

import java.util.List;

/**
 * The network-attached-memory layout: two memory servers hold the blocks and run no query code, two compute servers
 * hold nothing and run fragments over blocks they stream from the memory servers.
 */
class NamClusterIT extends ClusterIT {
    @Override
    List<Node> nodes() {
        return List.of(new Node("m1", "memory", "--memory", "512m"), new Node("m2", "memory", "--memory", "512m"),
                new Node("c1", "compute", "--threads", "1"), new Node("c2", "compute", "--threads", "1"));
    }

    @Override
    String victim() {
        return "c2";
    }

    /** Small blocks: a scan is many reads, so the memory server killed mid-query is killed mid-scan. */
    @Override
    List<String> coordinatorOptions() {
        return List.of("--block-size", "64k");
    }

    /** Killed last: its blocks are lost with it. */
    @Override
    String memoryVictim() {
        return "m1";
    }

    /** A compute server holds no data: once it is down, c1 runs every fragment. */
    @Override
    boolean clusterSurvivesVictim() {
        return true;
    }
}
