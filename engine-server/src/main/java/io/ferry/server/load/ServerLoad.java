package io.ferry.server.load;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.storage.Catalog;
import io.ferry.core.storage.PartitionScheme;
import io.ferry.core.storage.Placement;
import io.ferry.core.storage.Table;
import io.ferry.server.data.CsvLoader;
import io.ferry.server.data.ProgressListener;
import io.ferry.core.gen.SkewWorkload;
import io.ferry.server.data.SkewLoad;
import io.ferry.server.parquet.ParquetLoader;
import io.ferry.sql.FerryEngine;
import io.ferry.sql.SqlErrors;
import io.ferry.sql.access.Principal;
import io.ferry.sql.access.Privilege;
import io.ferry.sql.access.TableAccess;

/**
 * Runs a {@link LoadRequest} on the server: checks the file against the {@link LoadPolicy}, creates the table when
 * asked, and hands the file to {@link CsvLoader} or {@link ParquetLoader}, whose loads are all or nothing. A table this load created is dropped
 * again when the load fails, so a failed load leaves the catalog as it was.
 */
public final class ServerLoad {
    private final FerryEngine engine;
    private final LoadPolicy policy;

    public ServerLoad(FerryEngine engine, LoadPolicy policy) {
        this.engine = requireNonNull(engine, "engine is null");
        this.policy = requireNonNull(policy, "policy is null");
    }

    /**
     * Loads the file as {@code user} and returns the number of rows added. Loading into a table needs its INSERT
     * privilege, creating one an admin; both are checked before the file is looked at.
     */
    public long run(LoadRequest request, Principal user, ProgressListener progress) throws IOException {
        if (request.generate() != null) {
            return generate(request.generate(), user, progress);
        }
        String table = required(request.table(), "table");
        String schema = request.schema() == null || request.schema().isBlank() ? null : request.schema();
        boolean create = Boolean.TRUE.equals(request.create()) || schema != null;
        if (create) {
            engine.access().requireAdmin(user, "create tables");
        } else {
            engine.access().check(user, new TableAccess(Set.of(new TableAccess.Need(Catalog.normalize(table),
                    Privilege.INSERT))));
        }
        Path file = Path.of(required(request.path(), "path"));
        if (!file.isAbsolute()) {
            throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "the path " + file + " is relative; give the "
                    + "server an absolute path (bin/ferry load makes it absolute for you)");
        }
        Path real = policy.check(file);
        boolean parquet = request.isParquet();
        if (parquet && (request.header() != null && !request.header() || request.delimiter() != null
                && !request.delimiter().equals(",") || request.nullString() != null && !request.nullString().isEmpty()
                || request.quote() != null && !request.quote().equals("\""))) {
            throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "header, delimiter, quote and null are CSV "
                    + "settings, and " + file + " is read as Parquet; leave them out");
        }
        CsvLoader.Options options = CsvLoader.Options.DEFAULT
                .withHeader(request.header() == null || request.header())
                .withDelimiter(character(request.delimiter(), "delimiter", ','))
                .withQuote(character(request.quote(), "quote", '"'))
                .withNullString(request.nullString() == null ? "" : request.nullString());

        boolean exists = engine.catalog().get(table) != null;
        if (create && exists) {
            throw new FerryException(SqlStates.DUPLICATE_TABLE, "table '" + table + "' already exists; load into it "
                    + "without --create, or DROP TABLE it first");
        }
        if (!create && !exists) {
            throw new FerryException(SqlStates.UNDEFINED_TABLE, "table '" + table + "' does not exist; add --create "
                    + "to create it from the file (its columns inferred, or given with --schema)");
        }
        ParquetLoader.Options parquetOptions = new ParquetLoader.Options(Boolean.TRUE.equals(request.binaryAsString()));
        boolean partitioned = request.partitionBy() != null && !request.partitionBy().isBlank();
        if (partitioned && !create) {
            throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "--partition-by partitions a table the load "
                    + "creates; add --create (a table's partitioning is fixed when it is made)");
        }
        if (schema == null && !partitioned) {
            // The loaders create the table themselves when it is missing, and drop it again if the load fails.
            return parquet ? ParquetLoader.load(engine.catalog(), table, real, parquetOptions, progress)
                    : CsvLoader.load(engine.catalog(), table, real, options, null, progress);
        }
        if (schema != null) {
            createTable(table, schema);
        } else {
            engine.catalog().createToFill(table, parquet ? ParquetLoader.inferSchema(real, parquetOptions)
                    : CsvLoader.inferSchema(real, options));
        }
        boolean loaded = false;
        try {
            if (schema != null) {
                engine.catalog().willFill(engine.catalog().require(table));
            }
            if (partitioned) {
                Table made = engine.catalog().require(table);
                engine.catalog().partition(made, PartitionScheme.parse(request.partitionBy(), made.schema()),
                        request.placement() == null ? Placement.NAM : Placement.named(request.placement()));
            }
            long rows = parquet ? ParquetLoader.load(engine.catalog(), table, real, parquetOptions, progress)
                    : CsvLoader.load(engine.catalog(), table, real, options, null, progress);
            loaded = true;
            return rows;
        } finally {
            if (!loaded) {
                engine.catalog().drop(table, true);
            }
        }
    }

    /**
     * Generates a workload's tables on the server (an admin's right, as creating tables is): {@code skew:<spec>} makes
     * the I-Store skew paper's a, b, c and d ({@link SkewWorkload.Spec#parse}). Returns the rows made in all.
     */
    private long generate(String workload, Principal user, ProgressListener progress) {
        engine.access().requireAdmin(user, "generate tables");
        int colon = workload.indexOf(':');
        String name = (colon < 0 ? workload : workload.substring(0, colon)).trim().toLowerCase(java.util.Locale.ROOT);
        if (!name.equals("skew")) {
            throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "Ferry generates the workload 'skew' (the "
                    + "I-Store skew paper's tables a, b, c, d), not '" + name + "'; write e.g. skew:rows=1000000,"
                    + "distribution=zipf");
        }
        SkewWorkload.Spec spec = SkewWorkload.Spec.parse(colon < 0 ? "" : workload.substring(colon + 1));
        for (String t : SkewWorkload.TABLES) {
            if (engine.catalog().get(spec.prefix() + t) != null) {
                throw new FerryException(SqlStates.DUPLICATE_TABLE, "table '" + spec.prefix() + t + "' already exists; "
                        + "the skew workload makes tables a, b, c and d (after its prefix=): DROP TABLE them first, "
                        + "or give another prefix");
            }
        }
        SkewLoad.load(spec, engine.catalog(), progress);
        return spec.rows() + 3 * spec.innerRows();
    }

    /** CREATE TABLE through SQL, so the column definitions mean exactly what they mean in a CREATE TABLE. */
    private void createTable(String table, String schema) {
        String ddl = "CREATE TABLE \"" + table.replace("\"", "\"\"") + "\" (" + schema + ")";
        try (Connection c = engine.connect(); Statement s = c.createStatement()) {
            s.execute(ddl);
        } catch (SQLException e) {
            SqlErrors.Translated t = SqlErrors.translate(e);
            throw new FerryException(t.sqlState(), "the schema \"" + schema + "\" does not define a table: "
                    + t.message(), e);
        }
    }

    private static String required(String value, String name) {
        if (value == null || value.isBlank()) {
            throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "the load request has no " + name);
        }
        return value;
    }

    private static char character(String value, String name, char fallback) {
        if (value == null) {
            return fallback;
        }
        if (value.length() != 1) {
            throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "the " + name + " must be one character, got '"
                    + value + "'");
        }
        return value.charAt(0);
    }
}
