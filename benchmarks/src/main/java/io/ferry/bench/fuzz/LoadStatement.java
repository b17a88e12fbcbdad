package io.ferry.bench.fuzz;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/** A CREATE TABLE or INSERT run alike on Ferry and DuckDB, with the values it binds as parameters. */
public record LoadStatement(String sql, List<Object> parameters) {
    public LoadStatement {
        requireNonNull(sql, "sql is null");
        parameters = List.copyOf(parameters);
    }

    public void run(Connection c) throws SQLException {
        if (parameters.isEmpty()) {
            try (Statement s = c.createStatement()) {
                s.execute(sql);
            }
            return;
        }
        try (PreparedStatement p = c.prepareStatement(sql)) {
            for (int i = 0; i < parameters.size(); i++) {
                p.setObject(i + 1, parameters.get(i));
            }
            p.executeUpdate();
        }
    }
}
