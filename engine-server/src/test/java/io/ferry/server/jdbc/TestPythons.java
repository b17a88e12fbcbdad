package io.ferry.server.jdbc;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Assumptions;

/** The Pythons tests drive clients with: made by a setup script under src/test/python, found by a variable. */
public final class TestPythons {
    private TestPythons() {
    }

    /**
     * The Python in {@code variable}, else in the venv {@code ~/.cache/ferry/<venv>}, if it can import {@code module};
     * otherwise the calling test is skipped, or fails where {@code required} is set to 1 (CI, after running
     * {@code setup}).
     */
    public static String withModule(String variable, String venv, String module, String required, String setup)
            throws IOException, InterruptedException {
        String given = System.getenv(variable);
        Path cached = Path.of(System.getProperty("user.home"), ".cache", "ferry", venv, "bin", "python");
        String python = given != null ? given : Files.isExecutable(cached) ? cached.toString() : null;
        if (python != null && new ProcessBuilder(python, "-c", "import " + module).start().waitFor() == 0) {
            return python;
        }
        String why = "no Python with " + module + " (" + variable + "=" + given + "); make one with "
                + "engine-server/src/test/python/" + setup;
        if ("1".equals(System.getenv(required))) {
            fail(why);
        }
        Assumptions.abort(why);
        return null;
    }
}
