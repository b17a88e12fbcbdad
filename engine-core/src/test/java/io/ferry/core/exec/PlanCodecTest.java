package io.ferry.core.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.expr.Call;
import io.ferry.core.expr.Expr;
import io.ferry.core.expr.InputRef;
import io.ferry.core.expr.Literal;
import io.ferry.core.expr.Op;
import io.ferry.core.gen.RowGenerator;
import io.ferry.core.gen.Series;
import io.ferry.core.gen.SkewWorkload;
import io.ferry.core.storage.Catalog;
import io.ferry.core.storage.Table;
import io.ferry.core.storage.TableAppender;
import io.ferry.core.storage.TableRef;
import io.ferry.core.types.Column;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TableSchema;
import io.ferry.core.types.TypeKind;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;

class PlanCodecTest {
    private static final FerryType DEC = FerryType.decimal(12, 2);
    /** One column of every type; {@link #everyTypeIsCovered} keeps it complete as types are added. */
    private static final TableSchema WIDE = TableSchema.of(
            new Column("flag", FerryType.BOOLEAN, true),
            new Column("i", FerryType.INTEGER, false),
            new Column("big", FerryType.BIGINT, false),
            new Column("d", FerryType.DOUBLE, true),
            new Column("price", DEC, false),
            new Column("day", FerryType.DATE, true),
            new Column("ts", FerryType.TIMESTAMP, true),
            new Column("zz", FerryType.varchar(20), true),
            new Column("s", FerryType.VARCHAR, true));

    private static final int ROWS = 50_000;
    private ExecFixture fixture;
    private Catalog catalog;
    private QueryExecutor executor;
    private Table r;

    @BeforeEach
    void setUp() {
        fixture = new ExecFixture(8 * 1024);
        catalog = fixture.catalog;
        executor = fixture.executor;
        r = catalog.create("r", TableSchema.of(new Column("a", FerryType.BIGINT, false),
                new Column("b", FerryType.BIGINT, true), new Column("c", FerryType.VARCHAR, false)), false);
        try (TableAppender app = r.appender()) {
            for (int from = 0; from < ROWS; from += 4096) {
                int n = Math.min(4096, ROWS - from);
                long[] a = new long[n];
                long[] b = new long[n];
                boolean[] nulls = new boolean[n];
                String[] c = new String[n];
                for (int i = 0; i < n; i++) {
                    a[i] = from + i + 1;
                    b[i] = (from + i) % 41;
                    nulls[i] = (from + i) % 11 == 0;
                    c[i] = "v" + (from + i) % 7;
                }
                app.append(Batch.of(new LongVector(a, null), new LongVector(b, nulls), BytesVector.of(c)));
            }
            app.commit();
        }
    }

    @AfterEach
    void tearDown() {
        fixture.close();
    }

    // ---- plans to encode ----

    private static InputRef ref(int i, FerryType t) {
        return new InputRef(i, t);
    }

    private static PlanNode.Scan wideScan(SampleSpec sample) {
        return new PlanNode.Scan(new TableRef("wide", WIDE), new int[] {0, 1, 2, 3, 4, 5, 6, 7, 8}, sample);
    }

    /** Literals of every physical kind and NULL, plus one Call per operator (shape, not meaning, is under test). */
    private static List<Expr> everyExpression() {
        List<Expr> exprs = new ArrayList<>();
        exprs.add(Literal.nullOf(FerryType.BIGINT));
        exprs.add(Literal.nullOf(FerryType.VARCHAR));
        exprs.add(new Literal(1L, FerryType.BOOLEAN));
        exprs.add(new Literal(-7L, FerryType.INTEGER));
        exprs.add(new Literal(Long.MIN_VALUE, FerryType.BIGINT));
        exprs.add(new Literal(12345L, DEC));
        exprs.add(new Literal(19_000L, FerryType.DATE));
        exprs.add(new Literal(1_700_000_000_000L, FerryType.TIMESTAMP));
        exprs.add(new Literal(Double.NaN, FerryType.DOUBLE));
        exprs.add(new Literal(-0.0, FerryType.DOUBLE));
        exprs.add(new Literal("", FerryType.VARCHAR));
        exprs.add(new Literal("Grüße, 世界 🚢", FerryType.varchar(20)));
        // a regex call as the translator writes it: pattern and flags travel as literals, compiled on each worker
        exprs.add(new Call(Op.REGEXP_REPLACE, List.of(ref(7, FerryType.VARCHAR),
                new Literal("(ü|🦆)+", FerryType.VARCHAR), new Literal("<\\1>", FerryType.VARCHAR),
                new Literal("gi", FerryType.VARCHAR)), FerryType.VARCHAR));
        for (Op op : Op.values()) {
            exprs.add(new Call(op, List.of(ref(2, FerryType.BIGINT), new Call(Op.PLUS, List.of(ref(1,
                    FerryType.INTEGER), new Literal(1L, FerryType.INTEGER)), FerryType.INTEGER)), FerryType.BIGINT));
        }
        return exprs;
    }

    private static PlanNode.Values values() {
        List<FerryType> types = List.of(FerryType.BIGINT, FerryType.DOUBLE, FerryType.VARCHAR, FerryType.DATE);
        boolean[] longNulls = {false, true, false, false, false, false, false, false, true, false};
        return new PlanNode.Values(types, Batch.of(
                new LongVector(new long[] {1, 0, -3, Long.MAX_VALUE, Long.MIN_VALUE, 6, 7, 8, 0, 10}, longNulls),
                new DoubleVector(new double[] {0.5, Double.NaN, -0.0, 1e300, 0, 0, 7, 8, 9, Double.NEGATIVE_INFINITY},
                        new boolean[] {false, false, false, false, true, true, false, false, false, false}, 10),
                BytesVector.of("a", null, "", "Grüße", "世界", null, "x".repeat(300), "", "🚢", "z"),
                new LongVector(new long[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, null)));
    }

    /** Every node kind, expression kind, join kind, aggregate kind, sample method and type in one tree. */
    private static PlanNode everything() {
        PlanNode.Scan sampled = wideScan(new SampleSpec(SampleSpec.Method.BERNOULLI, 12.5, 42)).withZones(ZONES);
        PlanNode.Filter filter = new PlanNode.Filter(sampled, new Call(Op.AND, List.of(
                new Call(Op.GT, List.of(ref(2, FerryType.BIGINT), new Literal(10L, FerryType.BIGINT)),
                        FerryType.BOOLEAN),
                new Call(Op.LIKE, List.of(ref(7, FerryType.varchar(20)), new Literal("a%", FerryType.VARCHAR)),
                        FerryType.BOOLEAN)), FerryType.BOOLEAN));
        PlanNode.Project project = new PlanNode.Project(filter, everyExpression());
        List<AggCall> calls = new ArrayList<>();
        for (AggCall.AggKind kind : AggCall.AggKind.values()) {
            // GROUPING reads a group key
            calls.add(new AggCall(kind, kind == AggCall.AggKind.GROUPING ? 11 : 2,
                    kind == AggCall.AggKind.AVG ? FerryType.DOUBLE : FerryType.BIGINT));
        }
        calls.add(new AggCall(AggCall.AggKind.COUNT, -1, FerryType.BIGINT));
        calls.add(new AggCall(AggCall.AggKind.PERCENTILE_DISC, 2, FerryType.BIGINT, 0.28, true));
        calls.add(new AggCall(AggCall.AggKind.STRING_AGG, 7, FerryType.VARCHAR, 0, false, 7, 2, false,
                List.of(new SortKey(2, true, false), new SortKey(7, false, true))));
        calls.add(new AggCall(AggCall.AggKind.COUNT, 2, FerryType.BIGINT, 0, false, 7, -1, true, List.of(),
                List.of(0, 11)));
        // ROLLUP(0, 11) and the empty set again; keys the planner expects nearly unique
        PlanNode.Aggregate agg = new PlanNode.Aggregate(project, new int[] {0, 11}, new long[] {0b11, 0b01, 0, 0},
                calls, true);
        PlanNode split = new PlanNode.MergeAggregate(agg, new PlanNode.Gather(new PlanNode.PartialAggregate(agg)));

        PlanNode right = new PlanNode.Aggregate(wideScan(SampleSpec.fresh(SampleSpec.Method.SYSTEM, 30)),
                new int[] {2}, List.of(new AggCall(AggCall.AggKind.SUM, 4, DEC)));
        PlanNode joined = split;
        for (JoinKind kind : JoinKind.values()) {
            Expr residual = kind == JoinKind.LEFT ? null : new Call(Op.NE, List.of(ref(0, FerryType.BIGINT),
                    ref(joined.types().size(), FerryType.BIGINT)), FerryType.BOOLEAN);
            joined = new PlanNode.Join(joined, right, kind, new int[] {0}, new int[] {0}, residual);
        }
        PlanNode sorted = new PlanNode.Sort(joined, List.of(new SortKey(0, true, false), new SortKey(1, false, true)),
                5, -1);
        PlanNode limited = new PlanNode.Sort(sorted, List.of(), 0, 100);
        List<WindowCall> windowCalls = new ArrayList<>();
        for (WindowCall.Kind kind : WindowCall.Kind.values()) {
            boolean fraction = kind == WindowCall.Kind.PERCENT_RANK || kind == WindowCall.Kind.CUME_DIST;
            windowCalls.add(new WindowCall(kind, kind.ranking() ? -1 : 0, fraction ? FerryType.DOUBLE
                    : FerryType.BIGINT, kind.shifts() || kind == WindowCall.Kind.NTH_VALUE ? 2 : 0,
                    kind.shifts() ? 1 : -1, kind.picksValues()));
        }
        // a LEAD whose offset is each row's own
        windowCalls.add(new WindowCall(WindowCall.Kind.LEAD, 0, FerryType.BIGINT, 0, 1, false, 0));
        PlanNode windowed = new PlanNode.Window(limited, new int[] {1}, List.of(new SortKey(0, true, false)),
                new WindowFrame(true, new WindowFrame.Bound(WindowFrame.BoundKind.PRECEDING, 3),
                        new WindowFrame.Bound(WindowFrame.BoundKind.FOLLOWING, 2)), windowCalls);
        // a RANGE frame with offsets in months back and days ahead, excluding ties, and one over DOUBLEs
        PlanNode monthly = new PlanNode.Window(windowed, new int[] {}, List.of(new SortKey(1, false, true)),
                new WindowFrame(false, new WindowFrame.Bound(WindowFrame.BoundKind.PRECEDING, 3),
                        new WindowFrame.Bound(WindowFrame.BoundKind.FOLLOWING, 2), WindowFrame.RangeUnit.DATE_MONTHS,
                        WindowFrame.RangeUnit.KEY, WindowFrame.Exclude.TIES),
                List.of(new WindowCall(WindowCall.Kind.COUNT, -1, FerryType.BIGINT)));
        PlanNode real = new PlanNode.Window(monthly, new int[] {}, List.of(new SortKey(0, true, false)),
                new WindowFrame(false, WindowFrame.Bound.UNBOUNDED_PRECEDING_BOUND,
                        new WindowFrame.Bound(WindowFrame.BoundKind.FOLLOWING, 0, 2.5)),
                List.of(new WindowCall(WindowCall.Kind.COUNT, -1, FerryType.BIGINT)));
        PlanNode ranked = new PlanNode.Window(real, new int[] {}, List.of(), WindowFrame.RUNNING,
                List.of(new WindowCall(WindowCall.Kind.COUNT, -1, FerryType.BIGINT)));
        // keys compared with = and with IS NOT DISTINCT FROM side by side
        PlanNode last = new PlanNode.Join(ranked, new PlanNode.Join(values(), wideScan(null), JoinKind.SEMI,
                new int[] {0, 2}, new int[] {2, 8}, new boolean[] {false, true}, null), JoinKind.INNER, new int[] {0},
                new int[] {0}, null);
        PlanNode unioned = new PlanNode.Join(last, unionOfReplicated(), JoinKind.SEMI, new int[] {0}, new int[] {2},
                null);
        // both kinds of generated rows as build sides, as a table function joined to a table ships them
        PlanNode series = new PlanNode.Generate(new Series(Long.MIN_VALUE, Long.MIN_VALUE + 99_999, 7));
        PlanNode skew = new PlanNode.Generate(new SkewWorkload(SkewWorkload.Spec.parseRows(
                "rows=1000,inner=10,distribution=uniform,z=2.5,partitions=3,seed=-4")).rows("a"));
        return new PlanNode.Join(new PlanNode.Join(unioned, series, JoinKind.SEMI, new int[] {0}, new int[] {0},
                null), skew, JoinKind.ANTI, new int[] {0}, new int[] {2}, null);
    }

    /** A union of two inputs, one of them each row of a scan as often as its BIGINT column says. */
    private static PlanNode.Union unionOfReplicated() {
        return new PlanNode.Union(List.of(new PlanNode.Replicate(wideScan(null), 2), wideScan(null)),
                wideScan(null).types());
    }

    /** A zone filter with an unbounded interval, several points and a NULL-accepting column. */
    private static final ZoneFilter ZONES = new ZoneFilter(List.of(
            new ZoneFilter.ColumnValues(2, new long[] {Long.MIN_VALUE, -5, 3, 3, 10, Long.MAX_VALUE}, false),
            new ZoneFilter.ColumnValues(4, new long[] {}, true)));

    // ---- round trips ----

    @Test
    void everyNodeExpressionAndTypeRoundTrips() {
        PlanNode plan = everything();
        byte[] bytes = PlanCodec.encode(plan);
        PlanNode decoded = PlanCodec.decode(bytes);
        // Records holding int[] compare by identity, so equality of the re-encoding stands in for equality.
        assertArrayEquals(bytes, PlanCodec.encode(decoded));
        assertEquals(plan.types(), decoded.types());
        List<PlanNode.Scan> scans = PlanCodec.scans(decoded);
        // The aggregate's scan twice (in the merge and in the partial), the joins' right scan four times, the last
        // join's, then the union's two.
        assertEquals(9, scans.size());
        for (PlanNode.Scan s : scans) {
            assertEquals(new TableRef("wide", WIDE), s.table());
        }
        assertEquals(new SampleSpec(SampleSpec.Method.BERNOULLI, 12.5, 42), scans.get(1).sample());
        assertEquals(ZONES, scans.get(1).zones());
        assertEquals(ZoneFilter.NONE, scans.get(6).zones());
        assertEquals(SampleSpec.fresh(SampleSpec.Method.SYSTEM, 30), scans.get(5).sample());
        assertFalse(scans.get(2).sample().repeatable());
        assertNull(scans.get(6).sample());
    }

    @Test
    void generatorsRoundTripAndOnesTheirOwnChecksRefuseAreCorrupt() {
        RowGenerator skew = new SkewWorkload(SkewWorkload.Spec.parse("rows=5000,inner=40,z=1.5,partitions=6,"
                + "seed=9")).rows("b");
        for (RowGenerator g : List.of(new Series(3, -8, -2), skew)) {
            assertEquals(g, ((PlanNode.Generate) PlanCodec.decode(PlanCodec.encode(new PlanNode.Generate(g))))
                    .generator());
        }
        byte[] series = PlanCodec.encode(new PlanNode.Generate(new Series(1, 10, 1)));
        ByteBuffer.wrap(series).putLong(series.length - 8, 0); // the step
        assertViolation(series, "the series is invalid: generate_series: the step must not be 0");
    }

    @Test
    void joinKeysKeepWhetherNullsMatch() {
        PlanNode.Join join = new PlanNode.Join(values(), values(), JoinKind.LEFT, new int[] {2, 0, 3},
                new int[] {2, 0, 3}, new boolean[] {true, false, true}, null);
        PlanNode.Join decoded = (PlanNode.Join) PlanCodec.decode(PlanCodec.encode(join));
        assertArrayEquals(new boolean[] {true, false, true}, decoded.nullsMatch());
        assertArrayEquals(new int[] {2, 0, 3}, decoded.leftKeys());
        // the flags are the three bytes before the residual's presence byte, the plan's last
        byte[] bytes = PlanCodec.encode(join);
        bytes[bytes.length - 2] = 2;
        assertViolation(bytes, "NULL-matching flag of a join key");
    }

    @Test
    void aZoneFilterWithBoundsOutOfOrderIsRejected() {
        PlanNode.Scan scan = new PlanNode.Scan(new TableRef("t", WIDE), new int[] {0}, null, new ZoneFilter(List.of(
                new ZoneFilter.ColumnValues(1, new long[] {1, 2, 7, 9}, false))));
        byte[] bytes = PlanCodec.encode(scan);
        // The last bound is the plan's last 8 bytes: 9 becomes 6, below its interval's start.
        ByteBuffer.wrap(bytes).putLong(bytes.length - 8, 6);
        assertViolation(bytes, "zone map of column 1 is invalid");
    }

    @Test
    void everyTypeIsCovered() {
        EnumSet<TypeKind> kinds = EnumSet.noneOf(TypeKind.class);
        for (Column c : WIDE.columns()) {
            kinds.add(c.type().kind());
        }
        assertEquals(EnumSet.allOf(TypeKind.class), kinds);
    }

    @Test
    void valuesKeepNullsStringsAndDoubleBits() {
        PlanNode.Values original = values();
        PlanNode.Values decoded = (PlanNode.Values) PlanCodec.decode(PlanCodec.encode(original));
        assertEquals(original.types(), decoded.types());
        Batch a = original.rows();
        Batch b = decoded.rows();
        assertEquals(a.rowCount(), b.rowCount());
        LongVector longs = (LongVector) b.column(0);
        DoubleVector doubles = (DoubleVector) b.column(1);
        BytesVector strings = (BytesVector) b.column(2);
        for (int i = 0; i < a.rowCount(); i++) {
            assertEquals(a.column(0).isNull(i), longs.isNull(i));
            assertEquals(((LongVector) a.column(0)).get(i), longs.get(i));
            assertEquals(a.column(1).isNull(i), doubles.isNull(i));
            assertEquals(Double.doubleToRawLongBits(((DoubleVector) a.column(1)).get(i)),
                    Double.doubleToRawLongBits(doubles.get(i)));
            assertEquals(a.column(2).isNull(i), strings.isNull(i));
            assertEquals(((BytesVector) a.column(2)).getString(i), strings.getString(i));
        }
        assertNull(b.column(3).nulls(), "a column without NULLs travels without a mask");
    }

    @Test
    void scansAreNumberedInPreOrderOnBothSides() {
        PlanNode.Scan x = new PlanNode.Scan(new TableRef("x", WIDE), new int[] {1}, null);
        PlanNode.Scan y = new PlanNode.Scan(new TableRef("y", WIDE), new int[] {2, 0}, null);
        PlanNode.Scan z = new PlanNode.Scan(new TableRef("z", WIDE), new int[] {3}, null);
        PlanNode.Scan w = new PlanNode.Scan(new TableRef("w", WIDE), new int[] {2}, null);
        PlanNode plan = new PlanNode.Join(
                new PlanNode.Join(new PlanNode.Filter(x, new Literal(1L, FerryType.BOOLEAN)), new PlanNode.Gather(y),
                        JoinKind.INNER, new int[] {0}, new int[] {1}, null),
                new PlanNode.Sort(new PlanNode.Join(z, w, JoinKind.ANTI, new int[] {0}, new int[] {0}, null),
                        List.of(), 0, 10),
                JoinKind.LEFT, new int[] {0}, new int[] {0}, null);
        assertEquals(List.of(x, y, z, w), PlanCodec.scans(plan));
        List<PlanNode.Scan> decoded = PlanCodec.scans(PlanCodec.decode(PlanCodec.encode(plan)));
        assertEquals(List.of("x", "y", "z", "w"), decoded.stream().map(s -> s.table().name()).toList());
        for (int i = 0; i < decoded.size(); i++) {
            assertInstanceOf(TableRef.class, decoded.get(i).table());
            assertArrayEquals(PlanCodec.scans(plan).get(i).columns(), decoded.get(i).columns());
        }
    }

    // ---- hostile input ----

    @Test
    void unionInputsOfOtherWidthsAndReplicationOfOtherTypesAreRejected() {
        PlanNode.Scan narrow = new PlanNode.Scan(new TableRef("wide", WIDE), new int[] {2, 1}, null);
        byte[] union = PlanCodec.encode(new PlanNode.Union(List.of(narrow, narrow), narrow.types()));
        // the union's types say BIGINT, INTEGER; the first input now reads columns 2 and 2 and 1: three wide
        PlanNode.Scan wider = new PlanNode.Scan(new TableRef("wide", WIDE), new int[] {2, 2, 1}, null);
        byte[] three = PlanCodec.encode(new PlanNode.Union(List.of(wider, wider), wider.types()));
        assertViolation(splice(three, union), "union input 0 has 2 columns, the union 3");
        byte[] counted = PlanCodec.encode(new PlanNode.Replicate(narrow, 0));
        ByteBuffer.wrap(counted).putInt(counted.length - 4, 1); // the INTEGER column
        assertViolation(counted, "replication is invalid");
        assertThrows(IllegalArgumentException.class, () -> new PlanNode.Union(List.of(narrow, wider),
                narrow.types()));
    }

    /** {@code withTypes}' union header (magic, version, code, types) before {@code withInputs}' inputs. */
    private static byte[] splice(byte[] withTypes, byte[] withInputs) {
        int typesEnd = typesEnd(withTypes);
        int inputsStart = typesEnd(withInputs);
        byte[] out = new byte[typesEnd + withInputs.length - inputsStart];
        System.arraycopy(withTypes, 0, out, 0, typesEnd);
        System.arraycopy(withInputs, inputsStart, out, typesEnd, withInputs.length - inputsStart);
        return out;
    }

    /** Where a union's types end: after magic, version, code, the type count and each type's name and numbers. */
    private static int typesEnd(byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        b.position(4 + 2 + 1);
        int n = b.getInt();
        for (int i = 0; i < n; i++) {
            int nameLength = b.getInt();
            b.position(b.position() + nameLength + 8);
        }
        return b.position();
    }

    private static void assertViolation(byte[] bytes, String messagePart) {
        FerryException e = assertThrows(FerryException.class, () -> PlanCodec.decode(bytes));
        assertEquals(SqlStates.PROTOCOL_VIOLATION, e.sqlState());
        assertTrue(e.getMessage().contains(messagePart), e.getMessage());
    }

    @Test
    void everyTruncatedPrefixFails() {
        byte[] bytes = PlanCodec.encode(everything());
        for (int len = 0; len < bytes.length; len++) {
            byte[] prefix = Arrays.copyOf(bytes, len);
            FerryException e = assertThrows(FerryException.class, () -> PlanCodec.decode(prefix), "prefix " + len);
            assertEquals(SqlStates.PROTOCOL_VIOLATION, e.sqlState());
        }
        assertViolation(Arrays.copyOf(bytes, bytes.length + 1), "1 bytes follow the plan");
    }

    @Test
    void badHeaderAndUnknownCodesAreRejected() {
        byte[] bytes = PlanCodec.encode(everything());
        byte[] magic = bytes.clone();
        magic[0] ^= 1;
        assertViolation(magic, "magic");
        byte[] version = bytes.clone();
        ByteBuffer.wrap(version).putShort(4, (short) (PlanCodec.VERSION + 1));
        assertViolation(version, "format version is " + (PlanCodec.VERSION + 1));
        byte[] node = bytes.clone();
        node[6] = 99; // the root's code follows the 4-byte magic and 2-byte version
        assertViolation(node, "unknown plan node code 99");
        assertViolation(replace(bytes, "INNER", "OUTER"), "unknown JoinKind 'OUTER'");
        assertViolation(replace(bytes, "BERNOULLI", "BERNOULLX"), "unknown Method");
        assertViolation(replace(bytes, "COALESCE", "COALESCX"), "unknown Op");
        assertViolation(replace(bytes, "zz", "\u00ff\u00ff"), "not valid UTF-8");
    }

    /** {@code bytes} with every occurrence of {@code from} (Latin-1) replaced by {@code to}, same length. */
    private static byte[] replace(byte[] bytes, String from, String to) {
        byte[] f = from.getBytes(StandardCharsets.ISO_8859_1);
        byte[] t = to.getBytes(StandardCharsets.ISO_8859_1);
        byte[] out = bytes.clone();
        int hits = 0;
        for (int i = 0; i + f.length <= out.length; i++) {
            if (Arrays.equals(out, i, i + f.length, f, 0, f.length)) {
                System.arraycopy(t, 0, out, i, t.length);
                hits++;
            }
        }
        assertTrue(hits > 0, from + " not in the encoding");
        return out;
    }

    @Test
    void hugeCountsFailWithoutAllocating() {
        byte[] bytes = PlanCodec.encode(values());
        for (int count = Integer.MAX_VALUE; count != 0; count >>>= 4) {
            byte[] corrupt = bytes.clone();
            ByteBuffer.wrap(corrupt).putInt(7, count); // the type count, right after the root's code
            FerryException e = assertThrows(FerryException.class, () -> PlanCodec.decode(corrupt));
            assertEquals(SqlStates.PROTOCOL_VIOLATION, e.sqlState());
        }
        assertViolation(ByteBuffer.allocate(11).putInt(PlanCodec.MAGIC).putShort(PlanCodec.VERSION).put((byte) 10)
                .putInt(-1).array(), "type count at byte 7 is negative");
    }

    @Test
    void randomByteFlipsOnlyEverRaiseFerryException() {
        byte[] bytes = PlanCodec.encode(everything());
        Random random = new Random(20_261_121);
        int decodedAnyway = 0;
        for (int round = 0; round < 4000; round++) {
            byte[] corrupt = bytes.clone();
            int flips = 1 + random.nextInt(3);
            for (int f = 0; f < flips; f++) {
                corrupt[random.nextInt(corrupt.length)] = (byte) random.nextInt(256);
            }
            try {
                PlanNode plan = PlanCodec.decode(corrupt);
                // What decodes must be a plan the rest of the engine can handle: typed and encodable again.
                plan.types();
                PlanCodec.encode(plan);
                decodedAnyway++;
            } catch (FerryException e) {
                assertTrue(e.sqlState().equals(SqlStates.PROTOCOL_VIOLATION), e.getMessage());
            } catch (RuntimeException | Error e) {
                fail("round " + round + ": " + e, e);
            }
        }
        assertTrue(decodedAnyway < 4000);
    }

    /** A chain of {@code depth} Gathers over VALUES, written by hand: the encoder itself refuses deep plans. */
    private static byte[] gathers(int depth) {
        byte[] leaf = PlanCodec.encode(values());
        byte[] one = PlanCodec.encode(new PlanNode.Gather(values()));
        int header = 0;
        while (leaf[header] == one[header]) {
            header++;
        }
        ByteBuffer out = ByteBuffer.allocate(leaf.length + depth);
        out.put(leaf, 0, header);
        for (int i = 0; i < depth; i++) {
            out.put(one[header]);
        }
        out.put(leaf, header, leaf.length - header);
        return out.array();
    }

    @Test
    void nestingIsCapped() {
        PlanNode deepest = PlanCodec.decode(gathers(PlanCodec.MAX_DEPTH - 1));
        assertInstanceOf(PlanNode.Gather.class, deepest);
        assertViolation(gathers(PlanCodec.MAX_DEPTH), "more than 1000");
        assertViolation(gathers(1_000_000), "more than 1000");

        Expr deepExpr = ref(0, FerryType.BIGINT);
        for (int i = 0; i < 5000; i++) {
            deepExpr = new Call(Op.NEGATE, List.of(deepExpr), FerryType.BIGINT);
        }
        PlanNode tooDeep = new PlanNode.Project(values(), List.of(deepExpr));
        FerryException e = assertThrows(FerryException.class, () -> PlanCodec.encode(tooDeep));
        assertEquals(SqlStates.STATEMENT_TOO_COMPLEX, e.sqlState());
    }

    /** Each level asking its input for types would make this exponential; decoding must stay linear. */
    @Test
    void nestedPartialAggregatesDecodeInLinearTime() {
        PlanNode plan = values();
        for (int i = 0; i < 300; i++) {
            plan = new PlanNode.PartialAggregate(new PlanNode.Aggregate(plan, new int[] {0}, List.of(
                    new AggCall(AggCall.AggKind.AVG, 0, FerryType.DOUBLE))));
        }
        byte[] bytes = PlanCodec.encode(plan);
        PlanNode decoded = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> PlanCodec.decode(bytes));
        assertArrayEquals(bytes, PlanCodec.encode(decoded));
    }

    @Test
    void referencesOutsideTheInputAreRejected() {
        PlanNode.Scan scan = new PlanNode.Scan(new TableRef("t", WIDE), new int[] {WIDE.size()}, null);
        assertViolation(PlanCodec.encode(scan), "scan column 9");
        PlanNode filter = new PlanNode.Filter(values(), new Call(Op.IS_NULL, List.of(ref(4, FerryType.BIGINT)),
                FerryType.BOOLEAN));
        assertViolation(PlanCodec.encode(filter), "column reference 4");
        PlanNode avgStar = new PlanNode.Aggregate(values(), new int[0],
                List.of(new AggCall(AggCall.AggKind.AVG, -1, FerryType.DOUBLE)));
        assertViolation(PlanCodec.encode(avgStar), "AVG argument -1");
        PlanNode orderedBeyond = new PlanNode.Aggregate(values(), new int[0], List.of(new AggCall(
                AggCall.AggKind.STRING_AGG, 0, FerryType.VARCHAR, 0, false, -1, -1, false,
                List.of(new SortKey(40, false, false)))));
        assertViolation(PlanCodec.encode(orderedBeyond), "STRING_AGG order column 40");
        // a grouping set naming a third key of two, and GROUPING of a column that is no key, each as the wire has it
        byte[] rollup = PlanCodec.encode(new PlanNode.Aggregate(values(), new int[] {0, 1}, new long[] {0b11, 0b10},
                List.of(new AggCall(AggCall.AggKind.GROUPING, 1, FerryType.BIGINT))));
        byte[] beyond = rollup.clone();
        byte[] sets = java.nio.ByteBuffer.allocate(20).putInt(2).putLong(0b11).putLong(0b10).array();
        java.nio.ByteBuffer.wrap(beyond).putLong(indexOf(rollup, sets) + 12, 0b100);
        assertViolation(beyond, "grouping set 100 names keys beyond the 2 group keys");
        byte[] noKey = PlanCodec.encode(new PlanNode.Aggregate(values(), new int[] {0, 1}, new long[] {0b11, 0b10},
                List.of(new AggCall(AggCall.AggKind.GROUPING, 0, FerryType.BIGINT))));
        byte[] name = "GROUPING".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        java.nio.ByteBuffer.wrap(noKey).putInt(indexOf(noKey, name) + name.length, 2); // its argument
        assertViolation(noKey, "GROUPING of column 2, not a group key");
    }

    /** Where {@code part} first occurs in {@code bytes}. */
    private static int indexOf(byte[] bytes, byte[] part) {
        for (int i = 0; i + part.length <= bytes.length; i++) {
            if (java.util.Arrays.equals(bytes, i, i + part.length, part, 0, part.length)) {
                return i;
            }
        }
        throw new AssertionError("not found");
    }

    // ---- a decoded fragment runs like the original ----

    /** Binds each arriving {@link TableRef} to this node's table of that name, as a worker would. */
    private ScanBinder byName(AtomicInteger bound) {
        return (scan, sample) -> {
            bound.incrementAndGet();
            assertInstanceOf(TableRef.class, scan.table());
            Table table = catalog.require(scan.table().name());
            return LocalScanBinder.INSTANCE.bind(new PlanNode.Scan(table, scan.columns(), scan.sample()), sample);
        };
    }

    private PlanNode.Aggregate groupBy() {
        PlanNode.Scan scan = new PlanNode.Scan(r, new int[] {0, 1, 2}, new SampleSpec(SampleSpec.Method.BERNOULLI,
                60, 9));
        PlanNode.Filter filter = new PlanNode.Filter(scan, new Call(Op.NE, List.of(ref(2, FerryType.VARCHAR),
                new Literal("v3", FerryType.VARCHAR)), FerryType.BOOLEAN));
        PlanNode.Project project = new PlanNode.Project(filter, List.of(ref(1, FerryType.BIGINT), new Call(Op.TIMES,
                List.of(ref(0, FerryType.BIGINT), new Literal(2L, FerryType.BIGINT)), FerryType.BIGINT)));
        return new PlanNode.Aggregate(project, new int[] {0}, List.of(
                new AggCall(AggCall.AggKind.COUNT, -1, FerryType.BIGINT),
                new AggCall(AggCall.AggKind.SUM, 1, FerryType.BIGINT),
                new AggCall(AggCall.AggKind.AVG, 1, FerryType.DOUBLE),
                new AggCall(AggCall.AggKind.MAX, 1, FerryType.BIGINT)));
    }

    @Test
    void aDecodedAggregateRunsLikeTheOriginal() {
        PlanNode.Aggregate agg = groupBy();
        Map<Long, String> original = ExecFixture.byKey(executor.execute(agg, QueryContext.unlimited()));
        AtomicInteger bound = new AtomicInteger();
        PlanNode decoded = PlanCodec.decode(PlanCodec.encode(agg));
        Map<Long, String> remote = ExecFixture.byKey(executor.execute(decoded, QueryContext.unlimited().withBinder(byName(bound))));
        assertEquals(1, bound.get());
        assertEquals(42, original.size(), "41 values of b and NULL");
        assertEquals(original, remote);
    }

    /** The coordinator keeps the merge and ships the partial half; the "worker" decodes and runs it. */
    @Test
    void aShippedPartialAggregateMergesLikeTheWhole() {
        PlanNode.Aggregate agg = groupBy();
        Map<Long, String> whole = ExecFixture.byKey(executor.execute(agg, QueryContext.unlimited()));
        AtomicInteger bound = new AtomicInteger();
        Gatherer worker = (gather, ctx) -> {
            PlanNode fragment = PlanCodec.decode(PlanCodec.encode(gather.fragment()));
            return executor.execute(fragment, QueryContext.unlimited().withBinder(byName(bound)));
        };
        PlanNode split = new PlanNode.MergeAggregate(agg, new PlanNode.Gather(new PlanNode.PartialAggregate(agg)));
        assertEquals(whole, ExecFixture.byKey(executor.execute(split, QueryContext.unlimited().withGatherer(worker))));
        assertEquals(1, bound.get());
    }
}
