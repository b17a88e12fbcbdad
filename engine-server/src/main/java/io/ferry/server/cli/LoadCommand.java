package io.ferry.server.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

import io.ferry.server.data.ProgressListener;
import io.ferry.server.load.LoadClient;
import io.ferry.server.tls.TlsKeys;
import io.ferry.server.load.LoadRequest;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code ferry load}: loads a CSV or Parquet file into a table of a running server, all or nothing. The server reads the file
 * itself (far faster than INSERTs over JDBC, and atomic), so the file must be on the server's machine; the path is
 * made absolute here, against this command's working directory.
 */
@Command(name = "load", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Load a CSV or Parquet file into a table of a running Ferry server, atomically, showing "
                + "progress.",
                "The server reads the file: it must be on the server's machine (in local mode, this one)."})
final class LoadCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Mixin
    private ServerAddress address;

    @Option(names = "--table", paramLabel = "TABLE", description = "The table to load into (not with --generate).")
    private String table;

    @ArgGroup(exclusive = true, multiplicity = "1")
    private Source source;

    /** The file, and which format it is in. */
    static final class Source {
        @Option(names = "--csv", required = true, paramLabel = "FILE", description = "A CSV file (UTF-8, RFC 4180).")
        Path csv;

        @Option(names = "--parquet", required = true, paramLabel = "FILE",
                description = "A Parquet file (flat columns; SNAPPY, ZSTD, GZIP, LZ4_RAW or no compression).")
        Path parquet;

        @Option(names = "--generate", required = true, paramLabel = "WORKLOAD",
                description = "Generate a workload on the server instead: skew:rows=N[,distribution=zipf|uniform]"
                        + "[,z=1.25][,partitions=4][,placement=partition|nam][,seed=1][,prefix=x_] makes the I-Store skew "
                        + "paper's tables a, b, c, d (see docs/cluster.md).")
        String generate;
    }

    @Option(names = "--partition-by", paramLabel = "KEYS",
            description = "Partition the table --create makes by its join keys, e.g. custkey:4,partkey:2 "
                    + "(domain:parts, or column=domain:parts); see docs/cluster.md.")
    private String partitionBy;

    @Option(names = "--placement", paramLabel = "nam|partition",
            description = "Where a cluster puts the partitions: nam (round-robin over all memory servers, the "
                    + "default) or partition (partition p on memory server p mod M).")
    private String placement;

    @Option(names = "--binary-as-string",
            description = "Parquet: read BINARY columns without a STRING annotation (old Hive/Impala files) as "
                    + "VARCHAR.")
    private boolean binaryAsString;

    @Option(names = "--header", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "The first line names the columns (default); --no-header: it is data.")
    private boolean header;

    @Option(names = "--delimiter", paramLabel = "CHAR", defaultValue = ",",
            description = "Field delimiter, one character; \\t or tab for tabs (default: ${DEFAULT-VALUE}).")
    private String delimiter;

    @Option(names = "--null", paramLabel = "TEXT", defaultValue = "",
            description = "Unquoted text that means NULL (default: the empty field).")
    private String nullString;

    @Option(names = "--create",
            description = "Create the table, with the columns of --schema or else inferred from the file. Without "
                    + "it, the table must exist and the rows are added to it.")
    private boolean create;

    @Option(names = "--schema", paramLabel = "COLUMNS",
            description = "Columns of the new table as in CREATE TABLE, e.g. \"a BIGINT NOT NULL, b VARCHAR(20)\" "
                    + "(implies --create).")
    private String schema;

    @Mixin
    private ClientLogin login;

    @Mixin
    private ClientTls tls;

    @Override
    public Integer call() throws InterruptedException {
        if (source.generate != null) {
            if (table != null || create || schema != null || partitionBy != null || placement != null) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--generate makes its own tables: "
                        + "leave out --table, --create, --schema, --partition-by and --placement (the workload's "
                        + "spec has partitions= and placement=)");
            }
            return report(LoadRequest.generating(source.generate));
        }
        if (table == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--table is required: the table to load "
                    + "into");
        }
        Path file = source.csv != null ? source.csv : source.parquet;
        LoadRequest request = LoadRequest.of(table, file.toAbsolutePath().normalize().toString())
                .withFormat(source.csv != null ? "csv" : "parquet")
                .withBinaryAsString(binaryAsString)
                .withPartitioning(partitionBy, placement)
                .withHeader(header)
                .withDelimiter(delimiter())
                .withNullString(nullString)
                .withCreate(create || schema != null)
                .withSchema(schema);
        return report(request);
    }

    private int report(LoadRequest request) throws InterruptedException {
        ClientLogin.Credentials credentials = login.credentials();
        LoadClient.Result result = LoadClient.load(tls.endpoint(address.endpoint()), request,
                credentials == null ? null : credentials.basicHeader(),
                tls.truststore == null ? null : TlsKeys.trusting(tls.truststore), ProgressListener.console(true));
        PrintWriter out = spec.commandLine().getOut();
        out.println(String.format(Locale.ROOT, "loaded %,d rows into %s in %.1f s", result.rows(), result.table(),
                result.millis() / 1000.0));
        out.flush();
        return 0;
    }

    private char delimiter() {
        if (delimiter.equals("\\t") || delimiter.equalsIgnoreCase("tab")) {
            return '\t';
        }
        if (delimiter.length() != 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--delimiter takes one character (or \\t), "
                    + "got '" + delimiter + "'");
        }
        return delimiter.charAt(0);
    }
}
