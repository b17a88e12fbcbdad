package io.ferry.server.data;

import java.util.ArrayList;
import java.util.List;

/** A progress listener for tests: remembers every call as a line of text. */
public final class RecordingProgress implements ProgressListener {
    public final List<String> calls = new ArrayList<>();

    @Override
    public void start(String task, long total, Unit unit) {
        calls.add("start " + task + " " + total + " " + unit);
    }

    @Override
    public void update(long done) {
        calls.add("update " + done);
    }

    @Override
    public void finish() {
        calls.add("finish");
    }
}
