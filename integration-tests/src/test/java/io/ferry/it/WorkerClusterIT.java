package io.ferry.it;

import java.util.List;

/** The ship-or-not layout: a coordinator and two workers, each holding half the blocks and running fragments. */
class WorkerClusterIT extends ClusterIT {
    @Override
    List<Node> nodes() {
        return List.of(new Node("w1", "worker", "--threads", "1", "--memory", "512m"),
                new Node("w2", "worker", "--threads", "1", "--memory", "512m"));
    }

    @Override
    String victim() {
        return "w2";
    }

    /** w2 held half of every table: without it, queries on them fail and name it. */
    @Override
    boolean clusterSurvivesVictim() {
        return false;
    }
}
