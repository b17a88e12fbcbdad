package io.ferry.bench.experiment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine;

/**
 * The harness end to end, small: real coordinator and worker processes from the server jar, the files it writes, and
 * that what it reports is what the cluster did. Timings are not asserted (this machine is noisy).
 */
class ExperimentHarnessIT {
    @TempDir
    Path out;

    private int run(String... args) {
        String jar = System.getProperty("ferry.server.jar");
        String[] all = Arrays.copyOf(args, args.length + 4);
        System.arraycopy(new String[] {"--out", out.toString(), "--server-jar", jar}, 0, all, args.length, 4);
        return new CommandLine(new ExperimentCommand()).execute(all);
    }

    /** CSV rows keyed by "point/series", each a column-name map. */
    private static Map<String, Map<String, String>> csv(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        String[] header = lines.get(0).split(",", -1);
        Map<String, Map<String, String>> rows = new HashMap<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",", -1);
            assertEquals(header.length, f.length, line);
            Map<String, String> row = new HashMap<>();
            for (int i = 0; i < f.length; i++) {
                row.put(header[i], f[i]);
            }
            rows.put(row.get("point") + "/" + row.get("series"), row);
        }
        return rows;
    }

    private static void isPng(Path file) throws IOException {
        byte[] head = Arrays.copyOf(Files.readAllBytes(file), 8);
        assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}, head, file.toString());
    }

    @Test
    void theCrossoverSweepRunsEveryModeAtEveryPointAndReportsWhatShipped() throws IOException {
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "the harness needs two cores");
        assertEquals(0, run("crossover", "--quick", "--distinct", "1000,200000"));
        Map<String, Map<String, String>> rows = csv(out.resolve("crossover.csv"));
        assertEquals(6, rows.size(), rows.keySet().toString());
        for (String d : List.of("1000", "200000")) {
            Map<String, String> fs = rows.get(d + "/function");
            Map<String, String> ds = rows.get(d + "/data");
            assertEquals("function", fs.get("shipped"));
            assertTrue(Long.parseLong(fs.get("result_bytes")) > 0, fs.toString());
            assertEquals("data", ds.get("shipped"));
            assertEquals("0", ds.get("result_bytes"));
            assertEquals("0", ds.get("node_cpu_ms"), "data shipping leaves the worker idle");
            assertTrue(List.of("function", "data").contains(rows.get(d + "/auto").get("shipped")));
            assertTrue(Double.parseDouble(fs.get("median_ms")) > 0);
        }
        // a 200,000-group result is larger than a 1,000-group one, whatever the compression
        assertTrue(Long.parseLong(rows.get("200000/function").get("result_bytes"))
                > 10 * Long.parseLong(rows.get("1000/function").get("result_bytes")));
        isPng(out.resolve("crossover.png"));
        String md = Files.readString(out.resolve("crossover.md"), StandardCharsets.UTF_8);
        assertTrue(md.contains("| 200,000 |") && md.contains("paper") && md.contains("Auto chose the faster setting"),
                md);
    }

    @Test
    void theSamplingSweepShipsBothMethodsInBothModesAndSystemMovesOnlyTheChosenBlocks() throws IOException {
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "the harness needs two cores");
        // enough rows that a BERNOULLI scan costs the worker measurable CPU (the kernel counts it in 10 ms ticks)
        long n = 2_000_000;
        assertEquals(0, run("sampling", "--quick", "--rows", Long.toString(n), "--loads", "0,1"));
        Map<String, Map<String, String>> rows = csv(out.resolve("sampling.csv"));
        assertEquals(12, rows.size(), rows.keySet().toString());
        String md = Files.readString(out.resolve("sampling.md"), StandardCharsets.UTF_8);
        double workerCpu = 0;
        for (String load : List.of("0.0", "1.0")) {
            for (String method : Experiment.METHODS) {
                Map<String, String> fs = rows.get(load + "/" + method + " function");
                Map<String, String> ds = rows.get(load + "/" + method + " data");
                assertEquals("function", fs.get("shipped"), fs.toString());
                assertTrue(Long.parseLong(fs.get("result_bytes")) > 0, fs.toString());
                assertEquals("data", ds.get("shipped"), ds.toString());
                assertEquals("0", ds.get("result_bytes"), ds.toString());
                // the worker's fragment covers the same blocks the coordinator reads when it ships the data
                assertEquals(fs.get("block_bytes"), ds.get("block_bytes"));
                String auto = rows.get(load + "/" + method + " auto").get("shipped");
                assertTrue(List.of("function", "data").contains(auto), auto);
                String line = md.lines().filter(l -> l.startsWith("| " + load + " cores | " + method + " | "))
                        .findFirst().orElseThrow(() -> new AssertionError("no row for " + load + " " + method + md));
                assertTrue(line.contains("| " + auto), line);
            }
            Map<String, String> bernoulli = rows.get(load + "/BERNOULLI data");
            Map<String, String> system = rows.get(load + "/SYSTEM data");
            // BERNOULLI under data shipping moves every block and samples at the coordinator (ship-or-not §II-B)
            assertEquals(Long.toString(n), bernoulli.get("block_rows"));
            // SYSTEM(10) moves only the blocks it chose: some, and far fewer than all
            long systemBytes = Long.parseLong(system.get("block_bytes"));
            assertTrue(systemBytes > 0 && 2 * systemBytes < Long.parseLong(bernoulli.get("block_bytes")),
                    system + " " + bernoulli);
            workerCpu += Double.parseDouble(rows.get(load + "/BERNOULLI function").get("node_cpu_ms"));
        }
        assertTrue(workerCpu > 0, "function shipping ran the BERNOULLI scan on the worker, which used no CPU");
        isPng(out.resolve("sampling.png"));
        Map<String, String> system = rows.get("0.0/SYSTEM data");
        assertTrue(md.contains(Report.bytes(Long.parseLong(system.get("block_bytes"))) + " of blocks ("
                + String.format(Locale.ROOT, "%,d", Long.parseLong(system.get("block_rows"))) + " rows) under SYSTEM"),
                md);
        assertTrue(md.contains("(paper: 6.5×)") && md.contains("| sampling | 1.0 SYSTEM |")
                && md.contains("Auto chose the faster setting"), md);
    }

    @Test
    void theScanRateComparesEverySampleWithTheFullScanInBothModes() throws IOException {
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "the harness needs two cores");
        assertEquals(0, run("scanrate", "--quick", "--percents", "10"));
        Map<String, Map<String, String>> rows = csv(out.resolve("scanrate.csv"));
        assertEquals(6, rows.size(), rows.keySet().toString());
        String md = Files.readString(out.resolve("scanrate.md"), StandardCharsets.UTF_8);
        for (String scan : List.of("full", "BERNOULLI 10%", "SYSTEM 10%")) {
            Map<String, String> fs = rows.get("scan/" + scan + " function");
            Map<String, String> ds = rows.get("scan/" + scan + " data");
            assertEquals("function", fs.get("shipped"), fs.toString());
            assertEquals("data", ds.get("shipped"), ds.toString());
            assertTrue(md.contains(String.format(Locale.ROOT, "| %s | %s | %,d |", scan,
                    Report.bytes(Long.parseLong(ds.get("block_bytes"))), Long.parseLong(ds.get("block_rows")))), md);
        }
        long all = Long.parseLong(rows.get("scan/full data").get("block_rows"));
        assertEquals(400_000, all);
        assertEquals(all, Long.parseLong(rows.get("scan/BERNOULLI 10% data").get("block_rows")));
        long system = Long.parseLong(rows.get("scan/SYSTEM 10% data").get("block_rows"));
        assertTrue(system > 0 && system < all, "SYSTEM(10) read " + system + " of " + all + " rows");
        assertTrue(md.contains("| full | ") && md.contains(" 1.00× |"), md);
        isPng(out.resolve("scanrate.png"));
        assertFalse(md.contains("Auto chose"), "no auto series, so no auto table: " + md);
    }

    @Test
    void theLz4SweepShapesALinkAndRemovesItAfterwards() throws Exception {
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "the harness needs two cores");
        assumeTrue(isRoot() && onPath("ip") && onPath("tc") && namespacesWork(),
                "shaping a link needs root, iproute2 and network namespaces");
        assertEquals(0, run("lz4", "--quick", "--links", "200"));
        Map<String, Map<String, String>> rows = csv(out.resolve("lz4.csv"));
        Map<String, String> off = rows.get("200 Mbit/s/off");
        Map<String, String> on = rows.get("200 Mbit/s/on");
        assertEquals("false", off.get("compressed"));
        assertEquals("true", on.get("compressed"));
        assertTrue(Long.parseLong(on.get("result_bytes")) < Long.parseLong(off.get("result_bytes")), on + " " + off);
        isPng(out.resolve("lz4.png"));
        Process p = new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true).start();
        String namespaces = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        assertFalse(namespaces.contains("ferry-exp-"), namespaces);
    }

    /** Whether this machine lets us create a network namespace (a container without NET_ADMIN does not). */
    private static boolean namespacesWork() throws Exception {
        String name = "ferry-probe-" + ProcessHandle.current().pid();
        Process add = new ProcessBuilder("ip", "netns", "add", name).redirectErrorStream(true).start();
        boolean ok = add.waitFor() == 0;
        if (ok) {
            new ProcessBuilder("ip", "netns", "del", name).redirectErrorStream(true).start().waitFor();
        }
        return ok;
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return Files.isExecutable(Path.of("/usr/sbin", tool)) || Files.isExecutable(Path.of("/sbin", tool));
    }
}
