package io.ferry.server.cli;

import java.io.PrintWriter;
import java.sql.SQLException;

import io.ferry.core.FerryException;
import io.ferry.server.FerryVersion;
import io.ferry.server.StartupException;
import io.ferry.sql.SqlErrors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code ferry <command>}: the one entry point of the server jar ({@code java -jar ferry-server.jar}, or
 * {@code bin/ferry}, which adds the JVM flags Arrow needs).
 */
@Command(name = "ferry", mixinStandardHelpOptions = true, versionProvider = FerryCli.Version.class,
        description = "Ferry: a distributed in-memory SQL engine.",
        subcommands = {LocalCommand.class, CoordinatorCommand.class, DataNodeCommand.Memory.class,
                DataNodeCommand.Compute.class, DataNodeCommand.Worker.class, SqlCommand.class, GenCommand.class, LoadCommand.class, UserCommand.class,
                CertCommand.class, SecretCommand.class, FabricCommand.class,
                CommandLine.HelpCommand.class},
        footer = {"", "Start with: bin/ferry local --demo   then, in another terminal: bin/ferry sql",
                "Reproduce the papers' figures: bin/ferry experiment --help (docs/experiments.md)"})
public final class FerryCli implements Runnable {
    @Spec
    private CommandSpec spec;

    public static void main(String[] args) {
        arrowDefaults();
        System.exit(commandLine().execute(args));
    }

    /** The command line with Ferry's error reporting, for {@link #main} and tests. */
    public static CommandLine commandLine() {
        return new CommandLine(new FerryCli())
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setExecutionExceptionHandler(FerryCli::report);
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a command: local, coordinator, memory, compute, worker, sql, gen, load, user, "
                + "cert, secret or fabric");
    }

    /**
     * What {@code bin/ferry} passes with -D, for {@code java -jar} runs: Arrow's unchecked buffer access (the
     * engine's kernels check their own bounds) and Netty's reflective access to direct buffers. Set before any
     * Arrow or Netty class reads them; explicit -D flags win.
     */
    private static void arrowDefaults() {
        System.getProperties().putIfAbsent("arrow.enable_unsafe_memory_access", "true");
        System.getProperties().putIfAbsent("io.netty.tryReflectionSetAccessible", "true");
    }

    /** One line on stderr — the SQLSTATE and the sentence — instead of a stack trace; exit code 1. */
    private static int report(Exception e, CommandLine cl, CommandLine.ParseResult parsed) {
        PrintWriter err = cl.getErr();
        String text;
        if (e instanceof FerryException f) {
            text = "error [" + f.sqlState() + "]: " + f.getMessage();
        } else if (e instanceof StartupException || e instanceof IllegalArgumentException) {
            text = "error: " + e.getMessage();
        } else if (e instanceof SQLException || e instanceof RuntimeException) {
            SqlErrors.Translated t = SqlErrors.translate(e);
            text = "error [" + t.sqlState() + "]: " + t.message();
        } else {
            text = "error: " + (e.getMessage() == null ? e.toString() : e.getMessage());
        }
        err.println(cl.getColorScheme().errorText(text));
        err.flush();
        return 1;
    }

    /** {@code ferry --version}. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"Ferry " + FerryVersion.VERSION, "Java " + System.getProperty("java.version")
                    + " (" + System.getProperty("java.vm.name") + ")"};
        }
    }
}
