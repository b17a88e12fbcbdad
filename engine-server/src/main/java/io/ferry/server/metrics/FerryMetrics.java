package io.ferry.server.metrics;

import java.io.IOException;
import java.io.OutputStream;

import org.apache.arrow.memory.BufferAllocator;

import io.ferry.sql.FerryEngine;
import io.ferry.sql.QueryLog;
import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * What a node tells Prometheus (docs/deploy.md, "Metrics"): its statements by outcome and their planning and
 * execution times as histograms, the statements active now, the bytes its queries spilled, its Arrow memory, what
 * crossed its fabric (a coordinator's), and the JVM's own metrics. Each node has a registry of its own.
 */
public final class FerryMetrics {
    /** Seconds: from a millisecond lookup to a ten-minute report. */
    private static final double[] SECONDS = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
        30, 60, 120, 300, 600};

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final PrometheusTextFormatWriter text = PrometheusTextFormatWriter.create();

    /** @param fabric the node's fabric, or null where it has none (local mode) */
    public FerryMetrics(FerryEngine engine, MeteredFabric fabric) {
        Counter statements = Counter.builder().name("ferry_statements_total")
                .help("Statements that ended, by outcome: finished, failed, or cancelled (57014, a timeout too)")
                .labelNames("outcome").register(registry);
        Histogram planning = Histogram.builder().name("ferry_statement_planning_seconds")
                .help("Time to plan each statement that ended (0 for a plan from the plan cache)")
                .classicOnly().classicUpperBounds(SECONDS).register(registry);
        Histogram execution = Histogram.builder().name("ferry_statement_execution_seconds")
                .help("Time from a statement's start until its result was read to the end, for those that finished")
                .classicOnly().classicUpperBounds(SECONDS).register(registry);
        Counter rowEngine = Counter.builder().name("ferry_row_engine_statements_total")
                .help("Statements that ended whose plan ran operators in Calcite's row engine, Ferry's slow path "
                        + "(sys.queries.row_engine names them)")
                .register(registry);
        QueryLog log = engine.queries();
        log.onEnded(e -> {
            if (e.rowEngine() != null) {
                rowEngine.inc();
            }
            boolean finished = "finished".equals(e.state());
            statements.labelValues(finished ? "finished" : "57014".equals(e.sqlState()) ? "cancelled" : "failed")
                    .inc();
            planning.observe(e.planningMillis() / 1e3);
            if (finished) {
                execution.observe(e.executionMillis() / 1e3);
            }
        });
        GaugeWithCallback.builder().name("ferry_statements_active")
                .help("Statements being planned or run now")
                .callback(cb -> cb.call(log.active())).register(registry);
        CounterWithCallback.builder().name("ferry_spilled_bytes")
                .help("Bytes this node's queries wrote to disk when they ran out of memory (compressed)")
                .callback(cb -> cb.call(engine.spilledBytes().sum())).register(registry);
        BufferAllocator arrow = engine.allocator();
        GaugeWithCallback.builder().name("ferry_arrow_allocated_bytes")
                .help("Off-heap Arrow memory the engine holds now: its tables' blocks and its queries' buffers")
                .callback(cb -> cb.call(arrow.getAllocatedMemory())).register(registry);
        GaugeWithCallback.builder().name("ferry_arrow_peak_bytes")
                .help("The most off-heap Arrow memory the engine has held at once")
                .callback(cb -> cb.call(arrow.getPeakMemoryAllocation())).register(registry);
        GaugeWithCallback.builder().name("ferry_stored_bytes")
                .help("Bytes of the table blocks this node's store holds")
                .callback(cb -> cb.call(engine.storedBytes())).register(registry);
        if (fabric != null) {
            CounterWithCallback.builder().name("ferry_fabric_read_bytes")
                    .help("Bytes this node read from other nodes' memory (one-sided reads), by fabric provider")
                    .labelNames("provider")
                    .callback(cb -> cb.call(fabric.bytesRead(), fabric.provider())).register(registry);
            CounterWithCallback.builder().name("ferry_fabric_written_bytes")
                    .help("Bytes this node wrote into other nodes' memory (one-sided writes), by fabric provider")
                    .labelNames("provider")
                    .callback(cb -> cb.call(fabric.bytesWritten(), fabric.provider())).register(registry);
            GaugeWithCallback.builder().name("ferry_fabric_registered_bytes")
                    .help("Bytes of this node's memory registered with its fabric now")
                    .labelNames("provider")
                    .callback(cb -> cb.call(fabric.registeredBytes(), fabric.provider())).register(registry);
        }
        JvmMetrics.builder().register(registry);
    }

    /**
     * A coordinator's replication ({@code --replicas}): how many blocks have fewer copies on nodes that are up than
     * asked for, until the nodes that lost them come back and catch up.
     */
    public FerryMetrics withReplication(int replicas, java.util.function.IntSupplier shortOfCopies) {
        GaugeWithCallback.builder().name("ferry_block_replicas")
                .help("On how many memory servers or workers each table block is kept (--replicas)")
                .callback(cb -> cb.call(replicas)).register(registry);
        GaugeWithCallback.builder().name("ferry_blocks_short_of_copies")
                .help("Table blocks with fewer copies on nodes that are up than --replicas asks; 0 once nodes that "
                        + "came back have caught up")
                .callback(cb -> cb.call(shortOfCopies.getAsInt())).register(registry);
        return this;
    }

    /** The Prometheus text format's content type. */
    public String contentType() {
        return text.getContentType();
    }

    /** Writes every metric in Prometheus' text format. */
    public void write(OutputStream out) throws IOException {
        text.write(out, registry.scrape(), EscapingScheme.UNDERSCORE_ESCAPING);
    }
}
