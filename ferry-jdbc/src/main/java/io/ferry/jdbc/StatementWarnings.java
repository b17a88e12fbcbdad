package io.ferry.jdbc;

import java.sql.SQLException;
import java.sql.SQLWarning;

import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.Meta;

/**
 * A statement's warnings: fetched from the server the first time they are asked for after an execution, then kept
 * until the next execution or {@code clearWarnings()}. Statements that are never asked cost no request.
 */
final class StatementWarnings {
    private SQLWarning warnings;
    private boolean known = true;

    /** A new execution starts: earlier warnings no longer apply. */
    synchronized void executing() {
        warnings = null;
        known = false;
    }

    synchronized SQLWarning get(AvaticaConnection connection, Meta.StatementHandle handle) throws SQLException {
        if (!known) {
            warnings = ServerStatement.warnings(connection, handle);
            known = true;
        }
        return warnings;
    }

    synchronized void clear() {
        warnings = null;
        known = true;
    }
}
