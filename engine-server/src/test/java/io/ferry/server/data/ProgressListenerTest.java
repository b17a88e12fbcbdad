package io.ferry.server.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.core.storage.Catalog;

class ProgressListenerTest {
    @RegisterExtension
    final TestCatalog storage = new TestCatalog();
    private final Catalog catalog = storage.catalog;

    @Test
    void withoutATerminalTheConsoleListenerIsSilentUnlessAsked() {
        assumeTrue(System.console() == null, "needs a JVM without a terminal, as surefire forks it");
        assertSame(ProgressListener.NONE, ProgressListener.console(false));
        assertTrue(ProgressListener.console(true) instanceof PrintingProgressListener);
    }

    @Test
    void printingListenerWritesWholeLinesOnly() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ProgressListener listener = new PrintingProgressListener(new PrintStream(bytes, true,
                StandardCharsets.UTF_8), 0);
        PaperTable.generate(10_000, 10, batch -> { }, listener);
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertFalse(out.contains("\r"), out);
        assertTrue(out.startsWith("generate r: started, 10,000 rows expected\n"), out);
        assertTrue(out.contains("generate r: 41%, 4,096 rows\n"), out);
        assertTrue(out.contains("generate r: done, 10,000 rows in "), out);
    }

    @Test
    void generatorsAndLoadersReportStartUpdatesAndFinish(@TempDir Path dir) throws Exception {
        RecordingProgress paper = new RecordingProgress();
        PaperTable.generate(5_000, 10, batch -> { }, paper);
        assertEquals(List.of("start generate r 5000 ROWS", "update 4096", "update 5000", "finish"), paper.calls);

        RecordingProgress ssb = new RecordingProgress();
        new SsbGenerator(0.01).generate(SsbGenerator.SUPPLIER, batch -> { }, ssb);
        assertEquals(List.of("start supplier 20 ROWS", "update 20", "finish"), ssb.calls);

        Path file = dir.resolve("r.csv");
        PaperTable.writeCsv(file, 100, 10, ProgressListener.NONE);
        RecordingProgress load = new RecordingProgress();
        CsvLoader.load(catalog, "r", file, CsvLoader.Options.DEFAULT, null, load);
        long size = Files.size(file);
        assertEquals(List.of("start load r " + size + " BYTES", "update " + size, "finish"), load.calls);
        assertEquals(100, catalog.require("r").rowCount());
        CsvLoader.load(catalog, "r", new StringReader("a,b\n1,2\n"), "x", CsvLoader.Options.DEFAULT, null);
        assertEquals(101, catalog.require("r").rowCount());
    }
}
