package io.ferry.server.flight;

import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.ferry.server.cluster.TwoWorkerCluster;
import io.ferry.sql.ResultComparison;
import io.ferry.sql.ZoneMapData;

/**
 * Arrow Flight SQL on a cluster's coordinator with two workers holding the data: every query of the zone-map corpus
 * (filters, aggregates, sorts) answers through Flight as DuckDB does, the results Ferry's engine makes whole going
 * out as Arrow batches straight from the cluster's result batches.
 */
class FlightOnClusterTest {
    private static TwoWorkerCluster cluster;
    private static BufferAllocator allocator;
    private static FlightSqlClient sql;

    @BeforeAll
    static void start() throws Exception {
        cluster = TwoWorkerCluster.start();
        ZoneMapData.load(cluster.ferry(), cluster.duck());
        int port = cluster.coordinator().serveFlight(0).port();
        allocator = new RootAllocator();
        sql = new FlightSqlClient(FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", port))
                .build());
    }

    @AfterAll
    static void stop() throws Exception {
        if (sql != null) {
            sql.close();
            allocator.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void everyQueryAnswersAsDuckDbDoes() throws Exception {
        for (String query : ZoneMapData.QUERIES) {
            ResultComparison.assertSameRows(query, ResultComparison.rows(cluster.duck(), query),
                    ArrowRows.of(sql, sql.execute(query)), false);
        }
    }
}
