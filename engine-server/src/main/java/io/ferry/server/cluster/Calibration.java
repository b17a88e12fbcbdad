package io.ferry.server.cluster;

import io.ferry.server.cluster.control.WireReader;
import io.ferry.server.cluster.control.WireWriter;

/**
 * Execution rates a node measured at start-up on one core (DESIGN.md cost model: "scan/aggregate rates per core,
 * calibrated at start-up").
 *
 * @param scanBytesPerSecond   block bytes a core decodes and sums per second
 * @param aggRowsPerSecond     rows a core groups and counts per second (a group-by with many groups)
 * @param mergeRowsPerSecond   partial-aggregate rows a core merges per second
 * @param lz4BytesPerSecond    bytes a core compresses per second with LZ4
 */
public record Calibration(double scanBytesPerSecond, double aggRowsPerSecond, double mergeRowsPerSecond,
        double lz4BytesPerSecond) {
    void encode(WireWriter w) {
        w.writeDouble(scanBytesPerSecond).writeDouble(aggRowsPerSecond).writeDouble(mergeRowsPerSecond)
                .writeDouble(lz4BytesPerSecond);
    }

    static Calibration decode(WireReader r) {
        return new Calibration(r.readDouble(), r.readDouble(), r.readDouble(), r.readDouble());
    }
}
