package io.ferry.server.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.sql.Connection;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.calcite.avatica.AvaticaClientRuntimeException;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.server.jdbc.JdbcServer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import sqlline.SqlLine;

/**
 * {@code ferry sql}: sqlline on a running server, through Avatica's remote driver (in this jar; the ferry-jdbc
 * driver is for tools outside it and speaks the same protocol).
 */
@Command(name = "sql", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Open an SQL shell (sqlline) on a running Ferry server, or run statements with -e / -f.")
final class SqlCommand implements Callable<Integer> {
    private static final String SHELL_DRIVER = ShellDriver.class.getName();
    private static final int CHECK_TIMEOUT_MILLIS = 10_000;
    /** Wide enough that sqlline never cuts a row when no terminal tells it a width. */
    private static final int MAX_WIDTH_WITHOUT_TERMINAL = 100_000;

    @Spec
    private CommandSpec spec;

    @Mixin
    private ServerAddress address;

    @Option(names = {"-e", "--execute"}, paramLabel = "SQL",
            description = "Run this statement (or several, separated by ;) and exit.")
    private String execute;

    @Option(names = {"-f", "--file"}, paramLabel = "FILE", description = "Run the statements in FILE and exit.")
    private Path file;

    @Option(names = "--output-format", paramLabel = "FORMAT",
            description = "table, vertical, csv, tsv, json, xmlattr, xmlelements or ansiconsole (default: table on a "
                    + "terminal, csv otherwise).")
    private String outputFormat;

    @Option(names = "--url", paramLabel = "JDBC_URL",
            description = "Connect to this JDBC URL instead, e.g. to give Avatica's client TLS options (default: "
                    + "Avatica's URL for --host and --port). Its driver must be in the server jar, as Avatica's is.")
    private String url;

    @Mixin
    private ClientLogin login;

    @Mixin
    private ClientTls tls;

    @Override
    public Integer call() throws IOException {
        if (execute != null && file != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "give -e or -f, not both");
        }
        if (file != null && !Files.isReadable(file)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "cannot read " + file);
        }
        String host = address.endpoint().getHost();
        String jdbcUrl = ShellDriver.shellUrl(url != null ? url
                : JdbcServer.avaticaUrl(tls.endpoint(address.endpoint())) + tls.avaticaOptions());
        ClientLogin.Credentials credentials = login.credentials();
        if (url == null) {
            checkServer(jdbcUrl, credentials);
        }
        if (execute == null && file == null) {
            return run(sqllineArgs(jdbcUrl, host, null, credentials), true);
        }
        if (file != null) {
            return run(sqllineArgs(jdbcUrl, host, file, credentials), false);
        }
        // -e runs as a script of one statement per line: sqlline then stops at the first failing statement and
        // says so in its exit status, as for -f (its own -e goes on, and reports only the last statement).
        Path script = Files.createTempFile("ferry-sql", ".sql");
        try {
            StringBuilder text = new StringBuilder();
            for (String statement : SqlScript.split(execute)) {
                // The semicolon on a line of its own: a statement may end in a -- comment.
                text.append(statement).append("\n;\n");
            }
            Files.writeString(script, text, StandardCharsets.UTF_8);
            return run(sqllineArgs(jdbcUrl, host, script, credentials), false);
        } finally {
            Files.deleteIfExists(script);
        }
    }

    private List<String> sqllineArgs(String jdbcUrl, String host, Path script, ClientLogin.Credentials credentials) {
        boolean terminal = System.console() != null;
        String user = credentials == null ? "" : credentials.user();
        List<String> args = new ArrayList<>(List.of(
                "-u", jdbcUrl,
                "-n", user, "-p", credentials == null ? "" : new String(credentials.password()),
                "-nn", (user.isEmpty() ? "ferry" : user) + "@" + host + ":" + address.port,
                "--connectInteractionMode=notAskCredentials",
                "--isolation=TRANSACTION_NONE",
                "--showWarnings=false",
                "--csvQuoteCharacter='\"'",
                "--outputformat=" + (outputFormat != null ? outputFormat : terminal ? "table" : "csv")));
        if (jdbcUrl.startsWith(ShellDriver.PREFIX)) {
            args.addAll(List.of("-d", SHELL_DRIVER));
        }
        if (!terminal) {
            args.add("--maxWidth=" + MAX_WIDTH_WITHOUT_TERMINAL);
            // Without a terminal JLine falls back to a dumb one anyway; asking for it skips the warning it logs.
            System.setProperty("org.jline.terminal.dumb", "true");
        }
        if (script != null) {
            // Only the results on stdout, no connection chatter, so the output can be piped.
            args.addAll(List.of("--silent=true", "-f", script.toString()));
        }
        return args;
    }

    private static int run(List<String> args, boolean interactive) throws IOException {
        // sqlline writes its one-line errors to the stream it took from System.err here, at construction.
        SqlLine sqlLine = new SqlLine();
        if (interactive) {
            return sqlLine.begin(args.toArray(String[]::new), null, true) == SqlLine.Status.OK ? 0 : 1;
        }
        // A script runs while sqlline still processes its arguments, and then it also prints each error's stack
        // trace (the client's and the server's) to System.err proper. They say nothing the one-line error does
        // not, so System.err is muted while the script runs.
        PrintStream stderr = System.err;
        System.setErr(new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8));
        try {
            return sqlLine.begin(args.toArray(String[]::new), null, false) == SqlLine.Status.OK ? 0 : 1;
        } finally {
            System.setErr(stderr);
        }
    }

    /** Fails with the reason, in one line, when no server answers: sqlline would print three confused ones. */
    /** The server was reached but gave no HTTP answer: most likely HTTP spoken to HTTPS, or the other way round. */
    private FerryException noAnswer(String detail, Throwable cause) {
        return new FerryException(SqlStates.UNABLE_TO_CONNECT, "the server at " + address.endpoint() + " gave no "
                + (tls.on() ? "HTTPS" : "HTTP") + " answer " + detail + "; " + (tls.on() ? "does it serve plain "
                + "HTTP? leave out --tls and --truststore, or check that --truststore holds its certificate"
                : "if it serves HTTPS (--tls-keystore), add --truststore FILE (or --tls)"), cause);
    }

    private void checkServer(String jdbcUrl, ClientLogin.Credentials credentials) {
        Properties props = new Properties();
        // a server that answers within seconds or not at all: a plain-HTTP request to an HTTPS port gets no HTTP
        // answer, which Avatica's client would wait three minutes for
        props.setProperty("http_connection_timeout", String.valueOf(CHECK_TIMEOUT_MILLIS));
        props.setProperty("http_response_timeout", String.valueOf(CHECK_TIMEOUT_MILLIS));
        if (credentials != null) {
            props.setProperty("user", credentials.user());
            props.setProperty("password", new String(credentials.password()));
        }
        // On its own thread, with a deadline: Avatica's client retries for good when a server closes a connection
        // without an HTTP answer, which an HTTPS port does to a plain-HTTP request.
        FutureTask<Void> check = new FutureTask<>(() -> {
            try (Connection c = new ShellDriver().connect(jdbcUrl, props)) {
                c.getMetaData();
            }
            return null;
        });
        Thread checking = new Thread(check, "ferry-sql-check");
        checking.setDaemon(true);
        checking.start();
        try {
            check.get(CHECK_TIMEOUT_MILLIS + 5_000L, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            check.cancel(true);
            throw noAnswer("within " + (CHECK_TIMEOUT_MILLIS / 1000 + 5) + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FerryException(SqlStates.QUERY_CANCELED, "interrupted while reaching the server", e);
        } catch (ExecutionException wrapped) {
            Throwable e = wrapped.getCause();
            Throwable root = e;
            while (root.getCause() != null) {
                root = root.getCause();
            }
            for (Throwable c = e; c != null; c = c.getCause()) {
                // the server refused the login; Avatica's driver lets its error escape unchecked
                if (c instanceof AvaticaClientRuntimeException r && String.valueOf(r.getSqlState()).startsWith("28")) {
                    throw new FerryException(r.getSqlState(), r.getMessage(), e);
                }
            }
            // reached, but no HTTP answer came back (a reset, a timeout, a failed TLS handshake)
            if (root instanceof java.io.IOException && !(root instanceof java.net.ConnectException)
                    && !(root instanceof java.net.UnknownHostException)) {
                throw noAnswer("(" + root.getMessage() + ")", e);
            }
            if (String.valueOf(root.getMessage()).contains("HTTP/401")) {
                throw new FerryException(SqlStates.INVALID_AUTHORIZATION, "the Ferry server at " + address.endpoint()
                        + " requires a user and password: give --user NAME (the password comes from "
                        + "FERRY_PASSWORD, --password-file, or a prompt)", e);
            }
            throw new FerryException("08001", "cannot reach a Ferry server at " + address.endpoint() + " ("
                    + (root.getMessage() != null ? root.getMessage() : root.toString()) + "); check --host and "
                    + "--port, and that the server runs (bin/ferry local)", e);
        }
    }
}
