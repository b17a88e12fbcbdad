package io.ferry.server.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

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

    /**
     * Runs {@code src/test/python/<script>} with {@code python} and {@code args} (output to files, so a chatty
     * client cannot fill a pipe and stall), fails the test unless it exits 0 within 120 s, and returns the JSON
     * objects it printed, one per line, by their {@code step}.
     */
    public static Map<String, JsonNode> steps(String python, String script, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(python, Path.of("src/test/python", script).toAbsolutePath()
                .toString()));
        command.addAll(List.of(args));
        Path out = Files.createTempFile("python-steps", ".out");
        Path err = Files.createTempFile("python-steps", ".err");
        try {
            Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                fail(script + " did not finish within 120 s");
            }
            String stdout = Files.readString(out, StandardCharsets.UTF_8);
            assertEquals(0, p.exitValue(), script + " failed:\n" + stdout + Files.readString(err,
                    StandardCharsets.UTF_8));
            Map<String, JsonNode> steps = new LinkedHashMap<>();
            ObjectMapper json = new ObjectMapper();
            for (String line : stdout.split("\n")) {
                if (!line.isBlank()) {
                    JsonNode step = json.readTree(line);
                    steps.put(step.get("step").asText(), step);
                }
            }
            return steps;
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
