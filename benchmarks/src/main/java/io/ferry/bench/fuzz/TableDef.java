package io.ferry.bench.fuzz;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** A generated table and its rows. */
public record TableDef(String name, List<ColumnDef> columns, List<List<Value>> rows) {
    /** Rows per INSERT: a few hundred, as a bulk load would send them. */
    static final int BATCH = 250;

    public TableDef {
        requireNonNull(name, "name is null");
        columns = List.copyOf(columns);
        rows = List.copyOf(rows);
    }

    public String createSql() {
        return "CREATE TABLE " + name + " (" + columns.stream().map(ColumnDef::definition)
                .collect(Collectors.joining(", ")) + ")";
    }

    public TableDef withRows(List<List<Value>> kept) {
        return new TableDef(name, columns, kept);
    }

    /**
     * CREATE TABLE, then INSERTs of up to {@link #BATCH} rows each: first the rows of literals only, then those
     * with parameters, since one parameter sends a whole VALUES down Ferry's slow path (see {@link Value}).
     */
    public List<LoadStatement> load() {
        List<LoadStatement> out = new ArrayList<>();
        out.add(new LoadStatement(createSql(), List.of()));
        List<List<Value>> literal = rows.stream().filter(r -> r.stream().noneMatch(Value::isParameter)).toList();
        List<List<Value>> bound = rows.stream().filter(r -> r.stream().anyMatch(Value::isParameter)).toList();
        insert(literal, out);
        insert(bound, out);
        return out;
    }

    private void insert(List<List<Value>> rows, List<LoadStatement> out) {
        for (int from = 0; from < rows.size(); from += BATCH) {
            StringBuilder sql = new StringBuilder("INSERT INTO ").append(name).append(" VALUES ");
            List<Object> parameters = new ArrayList<>();
            for (int r = from; r < Math.min(rows.size(), from + BATCH); r++) {
                sql.append(r == from ? "(" : ", (");
                List<Value> row = rows.get(r);
                for (int c = 0; c < row.size(); c++) {
                    Value v = row.get(c);
                    sql.append(c == 0 ? "" : ", ").append(v.literal());
                    if (v.isParameter()) {
                        parameters.add(v.parameter());
                    }
                }
                sql.append(')');
            }
            out.add(new LoadStatement(sql.toString(), parameters));
        }
    }

    public ColumnDef column(String columnName) {
        return columns.stream().filter(c -> c.name().equals(columnName)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(name + " has no column " + columnName));
    }
}
