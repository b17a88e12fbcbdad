package io.ferry.server.data;

import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/** A progress bar per task on the terminal (me.tongfei.progressbar redraws it from its own timer thread). */
final class ConsoleProgressListener implements ProgressListener {
    private ProgressBar bar;
    private long done;

    @Override
    public void start(String task, long total, Unit unit) {
        finish();
        ProgressBarBuilder builder = new ProgressBarBuilder()
                .setTaskName(task)
                .setInitialMax(total)
                .setStyle(ProgressBarStyle.ASCII)
                .setUpdateIntervalMillis(250)
                .showSpeed();
        if (unit == Unit.BYTES) {
            builder.setUnit(" MiB", 1L << 20);
        } else {
            builder.setUnit(" rows", 1);
        }
        bar = builder.build();
        done = 0;
    }

    @Override
    public void update(long done) {
        if (bar == null) {
            return;
        }
        this.done = done;
        if (bar.getMax() >= 0 && done > bar.getMax()) {
            bar.maxHint(done);
        }
        bar.stepTo(done);
    }

    @Override
    public void finish() {
        if (bar == null) {
            return;
        }
        // Estimated totals (lineorder's row count, say) end exactly where the work did.
        bar.maxHint(done);
        bar.stepTo(done);
        bar.close();
        bar = null;
    }
}
