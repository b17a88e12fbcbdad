package io.ferry.server.load;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;

import io.ferry.core.FerryException;
import io.ferry.core.FileWrites;
import io.ferry.core.SqlStates;
import io.ferry.core.storage.Table;
import io.ferry.server.data.CsvExporter;
import io.ferry.server.data.ProgressListener;
import io.ferry.server.parquet.ParquetExporter;
import io.ferry.sql.FerryEngine;
import io.ferry.sql.FileCopies;
import io.ferry.sql.FileCopies.Kind;
import io.ferry.sql.SqlErrors;
import io.ferry.sql.access.Principal;
import io.ferry.sql.ddl.FerryDdlExecutor;

/**
 * COPY on a server: files read and written only where its {@link LoadPolicy} allows, CSV and Parquet through the same
 * loaders as {@code bin/ferry load} (all or nothing), CSV written by the same writer as {@code bin/ferry gen}. An export replaces its target
 * whole ({@link FileWrites#replace}), so a failed COPY ... TO leaves what was there.
 */
public final class ServerCopies implements FileCopies {
    private final FerryEngine engine;
    private final LoadPolicy policy;
    private final ServerLoad load;

    public ServerCopies(FerryEngine engine, LoadPolicy policy) {
        this.engine = requireNonNull(engine, "engine is null");
        this.policy = requireNonNull(policy, "policy is null");
        this.load = new ServerLoad(engine, policy);
    }

    @Override
    public long copyFrom(Principal who, String table, String file, Format format) {
        LoadRequest request = new LoadRequest(table, absolute(file).toString(), format.header(),
                String.valueOf(format.delimiter()), String.valueOf(format.quote()), format.nullString(), false, null,
                format.kind().name().toLowerCase(java.util.Locale.ROOT), format.binaryAsString(), null, null, null);
        try {
            return load.run(request, who, ProgressListener.NONE);
        } catch (IOException e) {
            throw new FerryException(SqlStates.IO_ERROR, "cannot read " + file + " on the server: " + e.getMessage(),
                    e);
        }
    }

    @Override
    public long copyTo(Principal who, String query, String file, Format format) {
        Path target = policy.checkWritable(absolute(file));
        Table result;
        try (Connection conn = engine.connect(who)) {
            result = FerryDdlExecutor.detachedResult(engine, conn, query, "copy_result");
        } catch (SQLException e) {
            SqlErrors.Translated t = SqlErrors.translate(e);
            throw new FerryException(t.sqlState(), t.message(), e);
        }
        try {
            long[] rows = {0};
            FileWrites.replace(target, out -> {
                if (format.kind() == Kind.PARQUET) {
                    try (ParquetExporter parquet = new ParquetExporter(out, result.schema(), format.compression())) {
                        result.forEachBatch(parquet::write);
                        rows[0] = parquet.rows();
                    }
                    return;
                }
                try (CsvExporter csv = new CsvExporter(out, result.schema(), format.delimiter(), format.header())) {
                    result.forEachBatch(csv::write);
                    rows[0] = csv.rows();
                }
            });
            return rows[0];
        } catch (IOException e) {
            throw new FerryException(SqlStates.IO_ERROR, "cannot write " + file + " on the server: "
                    + e.getMessage(), e);
        } finally {
            engine.catalog().discard(result);
        }
    }

    private static Path absolute(String file) {
        Path path = Path.of(file);
        if (!path.isAbsolute()) {
            throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "COPY takes an absolute path on the server, "
                    + "not '" + file + "': the server resolves no path against a client's directory");
        }
        return path;
    }
}
