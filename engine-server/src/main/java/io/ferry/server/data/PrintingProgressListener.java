package io.ferry.server.data;

import java.io.PrintStream;
import java.util.Locale;

/** Progress as whole lines, never carriage returns: safe for logs, pipes and CI output. */
final class PrintingProgressListener implements ProgressListener {
    private final PrintStream out;
    private final long intervalNanos;
    private String task;
    private long total;
    private Unit unit;
    private long done;
    private long startedAt;
    private long lastPrintAt;

    PrintingProgressListener(PrintStream out, long intervalMillis) {
        this.out = out;
        this.intervalNanos = intervalMillis * 1_000_000L;
    }

    @Override
    public void start(String task, long total, Unit unit) {
        finish();
        this.task = task;
        this.total = total;
        this.unit = unit;
        this.done = 0;
        this.startedAt = System.nanoTime();
        this.lastPrintAt = startedAt;
        out.println(task + ": started" + (total >= 0 ? ", " + amount(total) + " expected" : ""));
    }

    @Override
    public void update(long done) {
        if (task == null) {
            return;
        }
        this.done = done;
        long now = System.nanoTime();
        if (now - lastPrintAt >= intervalNanos) {
            lastPrintAt = now;
            String share = total > 0 ? String.format(Locale.ROOT, "%.0f%%, ", 100.0 * Math.min(done, total) / total)
                    : "";
            out.println(task + ": " + share + amount(done));
        }
    }

    @Override
    public void finish() {
        if (task == null) {
            return;
        }
        double seconds = (System.nanoTime() - startedAt) / 1e9;
        out.println(String.format(Locale.ROOT, "%s: done, %s in %.1f s", task, amount(done), seconds));
        task = null;
    }

    private String amount(long n) {
        return unit == Unit.BYTES ? String.format(Locale.ROOT, "%.1f MiB", n / 1048576.0)
                : String.format(Locale.ROOT, "%,d rows", n);
    }
}
