package io.ferry.bench.fuzz;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The random tables both engines load: 2-4 tables t0..t3 with the same column layout (so joins and set operations
 * line up), a column of every Ferry type, NULLs and edge values, and join keys with few distinct values.
 */
public record Dataset(List<TableDef> tables) {
    /** Distinct values of the INTEGER join key k; with t0's ~500 rows a 4-table join stays near 10^4 rows. */
    static final int KEY_DOMAIN = 40;
    static final List<String> GROUP_KEYS = List.of("a", "b", "c", "", "Zürich ✓ 東京", "x y", "O'Brien", "épsilon",
            "🦆", "%_", "Ab", "10");
    static final List<String> STRINGS = List.of("", "a", "abc", "ABC", "Zürich ✓ 東京", "🦆", "x_y%z", "O'Brien",
            "  padded ", "épsilon", "東京", "a%b", "Ab", "zz");
    static final List<LocalDate> EDGE_DATES = List.of(LocalDate.of(1500, 3, 1), LocalDate.of(2999, 12, 31),
            LocalDate.of(1970, 1, 1), LocalDate.of(1969, 12, 31), LocalDate.of(2000, 2, 29));
    private static final int[] BASE_ROWS = {500, 220, 90, 45};

    public Dataset {
        tables = List.copyOf(tables);
    }

    public TableDef table(String name) {
        return tables.stream().filter(t -> t.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no table " + name));
    }

    /** Every CREATE TABLE and INSERT, in order. */
    public List<LoadStatement> load() {
        List<LoadStatement> out = new ArrayList<>();
        tables.forEach(t -> out.addAll(t.load()));
        return out;
    }

    /** Tables and rows from {@code seed}; {@code scale} multiplies the row counts (1: about 850 rows in all). */
    public static Dataset generate(long seed, double scale) {
        Random rnd = new Random(seed);
        int count = 2 + rnd.nextInt(3);
        List<TableDef> tables = new ArrayList<>();
        for (int t = 0; t < count; t++) {
            int precision = 6 + rnd.nextInt(13);
            int scaleDigits = rnd.nextInt(Math.min(4, precision - 4));
            List<ColumnDef> columns = List.of(
                    new ColumnDef("id", SqlType.INTEGER, "INTEGER", ColumnDef.Role.ID),
                    new ColumnDef("k", SqlType.INTEGER, "INTEGER", ColumnDef.Role.KEY),
                    new ColumnDef("g", SqlType.VARCHAR, "VARCHAR", ColumnDef.Role.KEY),
                    new ColumnDef("i", SqlType.INTEGER, "INTEGER", ColumnDef.Role.PLAIN),
                    new ColumnDef("b", SqlType.BIGINT, "BIGINT", ColumnDef.Role.PLAIN),
                    new ColumnDef("d", SqlType.DOUBLE, "DOUBLE", ColumnDef.Role.PLAIN),
                    new ColumnDef("p", SqlType.DECIMAL, "DECIMAL(" + precision + "," + scaleDigits + ")",
                            ColumnDef.Role.PLAIN),
                    new ColumnDef("dt", SqlType.DATE, "DATE", ColumnDef.Role.PLAIN),
                    new ColumnDef("ts", SqlType.TIMESTAMP, "TIMESTAMP", ColumnDef.Role.PLAIN),
                    new ColumnDef("s", SqlType.VARCHAR, "VARCHAR", ColumnDef.Role.PLAIN),
                    new ColumnDef("f", SqlType.BOOLEAN, "BOOLEAN", ColumnDef.Role.PLAIN),
                    new ColumnDef("ei", SqlType.INTEGER, "INTEGER", ColumnDef.Role.EDGE),
                    new ColumnDef("eb", SqlType.BIGINT, "BIGINT", ColumnDef.Role.EDGE),
                    new ColumnDef("ed", SqlType.DOUBLE, "DOUBLE", ColumnDef.Role.EDGE));
            int rows = Math.max(5, (int) Math.round(BASE_ROWS[t] * scale * (0.7 + 0.6 * rnd.nextDouble())));
            List<List<Value>> data = new ArrayList<>();
            for (int r = 0; r < rows; r++) {
                List<Value> row = new ArrayList<>();
                row.add(Value.literal(Integer.toString(r)));
                row.add(nullOr(rnd, 5, Value.literal(Integer.toString(rnd.nextInt(KEY_DOMAIN)))));
                row.add(nullOr(rnd, 5, Value.string(GROUP_KEYS.get(rnd.nextInt(GROUP_KEYS.size())))));
                row.add(nullOr(rnd, 8, Value.literal(Integer.toString(rnd.nextInt(10) == 0 ? 0
                        : rnd.nextInt(201) - 100))));
                row.add(nullOr(rnd, 8, Value.literal(Long.toString(rnd.nextInt(2_000_001) - 1_000_000))));
                row.add(nullOr(rnd, 8, plainDouble(rnd)));
                long bound = (long) Math.pow(10, Math.min(precision, 4 + scaleDigits));
                row.add(nullOr(rnd, 8, Value.literal(BigDecimal.valueOf(rnd.nextLong() % bound, scaleDigits)
                        .toPlainString())));
                row.add(nullOr(rnd, 8, Value.literal("DATE '" + date(rnd) + "'")));
                row.add(nullOr(rnd, 8, Value.literal("TIMESTAMP '" + timestamp(rnd) + "'")));
                row.add(nullOr(rnd, 8, Value.string(rnd.nextInt(3) == 0 ? word(rnd)
                        : STRINGS.get(rnd.nextInt(STRINGS.size())))));
                row.add(nullOr(rnd, 10, Value.literal(rnd.nextBoolean() ? "TRUE" : "FALSE")));
                row.add(nullOr(rnd, 5, Value.literal(Integer.toString(edgeInt(rnd)))));
                row.add(nullOr(rnd, 5, bigint(edgeLong(rnd))));
                row.add(nullOr(rnd, 5, edgeDoubleValue(edgeDouble(rnd))));
                data.add(row);
            }
            tables.add(new TableDef("t" + t, columns, data));
        }
        return new Dataset(tables);
    }

    private static Value nullOr(Random rnd, int percent, Value v) {
        return rnd.nextInt(100) < percent ? Value.NULL : v;
    }

    /** Multiples of 0.25 within 10^4, and both zeros: their sums are exact in any order. */
    private static Value plainDouble(Random rnd) {
        int pick = rnd.nextInt(40);
        if (pick == 0) {
            return Value.parameter(-0.0);
        }
        return Value.literal(doubleLiteral(pick == 1 ? 0.0 : (rnd.nextInt(80_001) - 40_000) / 4.0));
    }

    /** A DOUBLE literal both dialects type as DOUBLE: an exponent makes it approximate ({@code 2.5E0}). */
    static String doubleLiteral(double x) {
        String s = Double.toString(x);
        return s.contains("E") ? s : s + "E0";
    }

    private static Value edgeDoubleValue(double x) {
        return x == 0 && 1 / x < 0 ? Value.parameter(x) : Value.literal(doubleLiteral(x));
    }

    /** A BIGINT of 19 digits is a parameter (see {@link Value}). */
    static Value bigint(long x) {
        return Math.abs((double) x) >= 1e18 ? Value.parameter(x) : Value.literal(Long.toString(x));
    }

    private static int edgeInt(Random rnd) {
        return switch (rnd.nextInt(8)) {
            case 0 -> Integer.MIN_VALUE;
            case 1 -> Integer.MAX_VALUE;
            case 2 -> 0;
            case 3 -> -1;
            case 4 -> Integer.MAX_VALUE - 1;
            default -> rnd.nextInt();
        };
    }

    private static long edgeLong(Random rnd) {
        // the extremes one row in twenty each; other magnitudes spread over 1 to 18 digits
        return switch (rnd.nextInt(20)) {
            case 0 -> Long.MIN_VALUE;
            case 1 -> Long.MAX_VALUE;
            case 2, 3 -> 0;
            case 4, 5 -> Integer.MIN_VALUE;
            case 6, 7 -> (long) Integer.MAX_VALUE + 1;
            default -> rnd.nextLong() % (long) Math.pow(10, 1 + rnd.nextInt(18));
        };
    }

    private static double edgeDouble(Random rnd) {
        return switch (rnd.nextInt(20)) {
            case 0 -> Double.MAX_VALUE;
            case 1 -> -Double.MAX_VALUE;
            case 2 -> Double.MIN_VALUE;
            case 3 -> -0.0;
            case 4, 5 -> 0.0;
            case 6 -> 1e300;
            case 7 -> -1e-300;
            default -> rnd.nextGaussian() * 1e6;
        };
    }

    private static LocalDate date(Random rnd) {
        return rnd.nextInt(10) == 0 ? EDGE_DATES.get(rnd.nextInt(EDGE_DATES.size()))
                : LocalDate.of(1990, 1, 1).plusDays(rnd.nextInt(14_000));
    }

    /**
     * Whole seconds only: Calcite's TIMESTAMP is TIMESTAMP(0), so a fraction is cut off on the way in, while
     * DuckDB keeps microseconds; that is a dialect difference, not a bug worth reporting on every query.
     */
    private static String timestamp(Random rnd) {
        LocalDateTime t = date(rnd).atStartOfDay().plusSeconds(rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(86_400));
        return t.toLocalDate() + " " + t.toLocalTime().withNano(0).toString().replaceFirst("^(\\d\\d:\\d\\d)$", "$1:00");
    }

    private static String word(Random rnd) {
        StringBuilder sb = new StringBuilder();
        for (int i = 1 + rnd.nextInt(6); i > 0; i--) {
            sb.append((char) ((rnd.nextBoolean() ? 'a' : 'A') + rnd.nextInt(4)));
        }
        return sb.toString();
    }
}
