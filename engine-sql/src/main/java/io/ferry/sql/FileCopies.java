package io.ferry.sql;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.sql.access.Principal;

/**
 * What runs {@code COPY}: reading a file on the server's machine into a table, and writing a table or a query's
 * result to one. The server supplies it (the files it may touch, the formats it reads and writes); an embedded engine
 * has none and refuses COPY.
 */
public interface FileCopies {
    /** The file formats COPY reads and writes. */
    enum Kind {
        CSV, PARQUET
    }

    /**
     * How a file is read or written. CSV: {@code header}, {@code delimiter}, {@code quote}, {@code nullString};
     * Parquet: {@code compression} (a codec name, null for the default) when writing, {@code binaryAsString} (read
     * BINARY columns without a STRING annotation as VARCHAR) when reading.
     */
    record Format(Kind kind, boolean header, char delimiter, char quote, String nullString, String compression,
            boolean binaryAsString) {
        public static final Format DEFAULT = new Format(Kind.CSV, true, ',', '"', "", null, false);
    }

    /** Reads {@code file} into {@code table} as {@code who}; returns the rows added. All or nothing. */
    long copyFrom(Principal who, String table, String file, Format format);

    /** Writes the result of {@code query} to {@code file} as {@code who}; returns the rows written. */
    long copyTo(Principal who, String query, String file, Format format);

    /** What an embedded engine has. */
    FileCopies NONE = new FileCopies() {
        @Override
        public long copyFrom(Principal who, String table, String file, Format format) {
            throw refused();
        }

        @Override
        public long copyTo(Principal who, String query, String file, Format format) {
            throw refused();
        }

        private FerryException refused() {
            return new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, "COPY reads and writes files on a server; "
                    + "this embedded engine has none: run it through a Ferry server (bin/ferry local)");
        }
    };
}
