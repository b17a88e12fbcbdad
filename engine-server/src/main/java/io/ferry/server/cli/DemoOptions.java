package io.ferry.server.cli;

import io.ferry.server.LocalNode;
import picocli.CommandLine.Option;

/** The demo data's size: the options {@code local --demo} and {@code coordinator --demo} share. */
final class DemoOptions {
    @Option(names = "--scale", paramLabel = "SF", defaultValue = "0.1",
            description = "SSB scale factor for --demo (default: ${DEFAULT-VALUE}; 1 is 6 million lineorder rows).")
    double scale;

    @Option(names = "--rows", paramLabel = "N", defaultValue = "1000000",
            description = "Rows of r for --demo (default: ${DEFAULT-VALUE}).")
    long rows;

    @Option(names = "--distinct", paramLabel = "N", defaultValue = "1000",
            description = "Distinct values of r.b for --demo (default: ${DEFAULT-VALUE}).")
    long distinct;

    @Option(names = "--demo-partition-by", paramLabel = "KEYS",
            description = "Partition the SSB tables for their star joins, e.g. custkey:4,partkey:2 (lineorder by "
                    + "both, customer and part by their own key; see docs/cluster.md).")
    String partitionBy;

    LocalNode.Demo demo() {
        return new LocalNode.Demo(rows, distinct, scale, partitionBy);
    }
}
