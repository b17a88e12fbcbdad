package io.ferry.core.exec;

import java.util.List;

import io.ferry.core.vector.Batch;

/**
 * Where each row's partition and group of peers begin and end, in a batch sorted by (partition keys, order keys):
 * found in one pass comparing each row with the one before it. Rows are peers when they are equal in every order
 * key; -0.0 equals 0.0 and NULL equals NULL here, as in the sort ({@link Sorter}). Without order keys, a whole
 * partition is one group of peers.
 */
final class WindowPartitions {
    private final int[] partitionStart;
    private final int[] partitionEnd;
    private final int[] peerStart;
    private final int[] peerEnd;

    WindowPartitions(Batch sorted, List<SortKey> partitionKeys, List<SortKey> orderKeys) {
        int n = sorted.rowCount();
        partitionStart = new int[n];
        partitionEnd = new int[n];
        peerStart = new int[n];
        peerEnd = new int[n];
        Sorter.RowComparator partition = Sorter.comparator(sorted, partitionKeys);
        Sorter.RowComparator peers = Sorter.comparator(sorted, orderKeys);
        boolean keyed = !partitionKeys.isEmpty();
        boolean ordered = !orderKeys.isEmpty();
        for (int i = 0; i < n; i++) {
            boolean newPartition = i == 0 || (keyed && partition.compare(i - 1, i) != 0);
            boolean newPeers = newPartition || (ordered && peers.compare(i - 1, i) != 0);
            partitionStart[i] = newPartition ? i : partitionStart[i - 1];
            peerStart[i] = newPeers ? i : peerStart[i - 1];
        }
        for (int i = n - 1; i >= 0; i--) {
            boolean lastOfPartition = i == n - 1 || partitionStart[i + 1] != partitionStart[i];
            boolean lastPeer = lastOfPartition || peerStart[i + 1] != peerStart[i];
            partitionEnd[i] = lastOfPartition ? i + 1 : partitionEnd[i + 1];
            peerEnd[i] = lastPeer ? i + 1 : peerEnd[i + 1];
        }
    }

    int rowCount() {
        return partitionStart.length;
    }

    int partitionStart(int i) {
        return partitionStart[i];
    }

    int partitionEnd(int i) {
        return partitionEnd[i];
    }

    int peerStart(int i) {
        return peerStart[i];
    }

    int peerEnd(int i) {
        return peerEnd[i];
    }

    int[] partitionStarts() {
        return partitionStart;
    }

    int[] partitionEnds() {
        return partitionEnd;
    }

    int[] peerStarts() {
        return peerStart;
    }

    int[] peerEnds() {
        return peerEnd;
    }
}
