package io.ferry.core.exec;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.expr.Call;
import io.ferry.core.expr.Expr;
import io.ferry.core.expr.InputRef;
import io.ferry.core.expr.Literal;
import io.ferry.core.expr.Op;
import io.ferry.core.gen.RowGenerator;
import io.ferry.core.gen.Series;
import io.ferry.core.gen.SkewRows;
import io.ferry.core.gen.SkewWorkload;
import io.ferry.core.storage.Placement;
import io.ferry.core.storage.TableRef;
import io.ferry.core.types.Column;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.Physical;
import io.ferry.core.types.TableSchema;
import io.ferry.core.types.TypeKind;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * The wire form of a plan fragment, which a coordinator sends to a worker.
 *
 * <p>Layout (big-endian): the magic {@code "FPLN"}, a 16-bit version, one node, and nothing after it. A node or an
 * expression is a one-byte code followed by its fields in record order (a Literal's type comes before its value,
 * since the type says how the value is written). Counts and lengths are 32-bit; strings are UTF-8 after their byte
 * length; doubles travel as their raw bits, so NaN and -0.0 survive; an optional field is a presence byte (0 or 1)
 * and then the field. Enums travel by name, so adding or reordering constants keeps old bytes meaningful, and a name
 * this build does not know is rejected rather than misread. A scan carries its table's name and schema only: the
 * receiver gets a {@link TableRef} and its {@link ScanBinder} finds the blocks.
 *
 * <p>Decoding treats the bytes as hostile: every count is checked against the bytes left before anything is sized by
 * it, every column reference against its input's width, every code against the known ones, and nesting against
 * {@link #MAX_DEPTH}; whatever is wrong raises {@link FerryException} with SQLSTATE 08P01, never another exception.
 */
public final class PlanCodec {
    /** Nodes and expressions nested along one path, at most. Deeper input would risk the decoder's stack. */
    public static final int MAX_DEPTH = 1000;

    static final int MAGIC = 0x46504C4E; // "FPLN"
    static final short VERSION = 11;

    // Codes are part of the format: never renumber or reuse one.
    private static final byte SCAN = 1;
    private static final byte FILTER = 2;
    private static final byte PROJECT = 3;
    private static final byte AGGREGATE = 4;
    private static final byte PARTIAL_AGGREGATE = 5;
    private static final byte MERGE_AGGREGATE = 6;
    private static final byte GATHER = 7;
    private static final byte JOIN = 8;
    private static final byte SORT = 9;
    private static final byte VALUES = 10;
    private static final byte WINDOW = 11;
    private static final byte UNION = 12;
    private static final byte REPLICATE = 13;
    private static final byte GENERATE = 14;

    // What a GENERATE node makes, after its code
    private static final byte SERIES = 1;
    private static final byte SKEW_ROWS = 2;

    private static final byte INPUT_REF = 1;
    private static final byte LITERAL = 2;
    private static final byte CALL = 3;

    /** Longer than any constant name; keeps a corrupt name out of error messages. */
    private static final int MAX_ENUM_NAME = 64;

    private PlanCodec() {
    }

    public static byte[] encode(PlanNode plan) {
        requireNonNull(plan, "plan is null");
        Encoder out = new Encoder();
        out.i32(MAGIC);
        out.i16(VERSION);
        out.node(plan, 1);
        return out.toByteArray();
    }

    public static PlanNode decode(byte[] bytes) {
        requireNonNull(bytes, "bytes is null");
        Decoder in = new Decoder(ByteBuffer.wrap(bytes));
        int magic = in.i32();
        if (magic != MAGIC) {
            throw violation("it does not start with the plan magic (got 0x" + Integer.toHexString(magic) + ")");
        }
        int version = in.i16();
        if (version != VERSION) {
            throw violation("its format version is " + version + ", this node reads version " + VERSION
                    + "; run the same Ferry version on every node");
        }
        PlanNode plan = in.node();
        if (in.remaining() != 0) {
            throw violation(in.remaining() + " bytes follow the plan");
        }
        return plan;
    }

    /**
     * The scans of {@code plan} in pre-order, inputs left before right: the order in which {@link #encode} writes
     * them, so a sender and a receiver agree on what "scan #i" is. The order is a property of the tree alone: a
     * {@link PlanNode.MergeAggregate}'s aggregate counts too, although the executor reads it only for its types.
     */
    public static List<PlanNode.Scan> scans(PlanNode plan) {
        List<PlanNode.Scan> out = new ArrayList<>();
        collectScans(plan, out);
        return out;
    }

    private static void collectScans(PlanNode node, List<PlanNode.Scan> out) {
        if (node instanceof PlanNode.Scan scan) {
            out.add(scan);
        }
        for (PlanNode input : node.inputs()) {
            collectScans(input, out);
        }
    }

    private static FerryException violation(String what) {
        return new FerryException(SqlStates.PROTOCOL_VIOLATION, "malformed plan fragment: " + what + ".");
    }

    /** Appends to a growing heap buffer; writing cannot fail, unlike a stream. */
    private static final class Encoder {
        private ByteBuffer buf = ByteBuffer.allocate(256);

        byte[] toByteArray() {
            return Arrays.copyOf(buf.array(), buf.position());
        }

        private void ensure(int n) {
            if (buf.remaining() < n) {
                ByteBuffer bigger = ByteBuffer.allocate(Math.max(buf.capacity() * 2, buf.position() + n));
                buf.flip();
                bigger.put(buf);
                buf = bigger;
            }
        }

        void u8(int v) {
            ensure(1);
            buf.put((byte) v);
        }

        void i16(short v) {
            ensure(2);
            buf.putShort(v);
        }

        void i32(int v) {
            ensure(4);
            buf.putInt(v);
        }

        void i64(long v) {
            ensure(8);
            buf.putLong(v);
        }

        void f64(double v) {
            i64(Double.doubleToRawLongBits(v));
        }

        void bool(boolean v) {
            u8(v ? 1 : 0);
        }

        void bytes(byte[] b, int from, int len) {
            ensure(len);
            buf.put(b, from, len);
        }

        void string(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            i32(b.length);
            bytes(b, 0, b.length);
        }

        void name(Enum<?> e) {
            string(e.name());
        }

        void ints(int[] values) {
            i32(values.length);
            for (int v : values) {
                i32(v);
            }
        }

        /** Refuses what the receiver would refuse, so a too-deep plan fails here with a reason, not as corruption. */
        private static void checkDepth(int depth) {
            if (depth > MAX_DEPTH) {
                throw new FerryException(SqlStates.STATEMENT_TOO_COMPLEX, "the plan nests operators and expressions "
                        + "more than " + MAX_DEPTH + " deep and cannot be sent to other nodes; simplify the query");
            }
        }

        void node(PlanNode node, int depth) {
            checkDepth(depth);
            if (node instanceof PlanNode.Scan s) {
                u8(SCAN);
                string(s.table().name());
                schema(s.table().schema());
                ints(s.columns());
                bool(s.sample() != null);
                if (s.sample() != null) {
                    name(s.sample().method());
                    f64(s.sample().percent());
                    i64(s.sample().seed());
                    bool(s.sample().repeatable());
                }
                i32(s.zones().columns().size());
                for (ZoneFilter.ColumnValues c : s.zones().columns()) {
                    i32(c.column());
                    bool(c.nulls());
                    i32(c.bounds().length);
                    for (long b : c.bounds()) {
                        i64(b);
                    }
                }
            } else if (node instanceof PlanNode.Filter f) {
                u8(FILTER);
                node(f.input(), depth + 1);
                expr(f.condition(), depth + 1);
            } else if (node instanceof PlanNode.Project p) {
                u8(PROJECT);
                node(p.input(), depth + 1);
                exprs(p.exprs(), depth + 1);
            } else if (node instanceof PlanNode.Aggregate a) {
                u8(AGGREGATE);
                aggregate(a, depth);
            } else if (node instanceof PlanNode.PartialAggregate p) {
                u8(PARTIAL_AGGREGATE);
                aggregate(p.aggregate(), depth + 1);
            } else if (node instanceof PlanNode.MergeAggregate m) {
                u8(MERGE_AGGREGATE);
                aggregate(m.aggregate(), depth + 1);
                node(m.partials(), depth + 1);
            } else if (node instanceof PlanNode.Gather g) {
                u8(GATHER);
                node(g.fragment(), depth + 1);
            } else if (node instanceof PlanNode.Join j) {
                u8(JOIN);
                node(j.left(), depth + 1);
                node(j.right(), depth + 1);
                name(j.kind());
                ints(j.leftKeys());
                ints(j.rightKeys());
                // one flag per key, as many as the keys just written
                for (boolean b : j.nullsMatch()) {
                    bool(b);
                }
                bool(j.residual() != null);
                if (j.residual() != null) {
                    expr(j.residual(), depth + 1);
                }
            } else if (node instanceof PlanNode.Sort s) {
                u8(SORT);
                node(s.input(), depth + 1);
                i32(s.keys().size());
                for (SortKey k : s.keys()) {
                    i32(k.column());
                    bool(k.descending());
                    bool(k.nullsFirst());
                }
                i64(s.offset());
                i64(s.fetch());
            } else if (node instanceof PlanNode.Window w) {
                u8(WINDOW);
                node(w.input(), depth + 1);
                ints(w.partitionKeys());
                i32(w.orderKeys().size());
                for (SortKey k : w.orderKeys()) {
                    i32(k.column());
                    bool(k.descending());
                    bool(k.nullsFirst());
                }
                bool(w.frame().rows());
                name(w.frame().unit());
                name(w.frame().upperUnit());
                name(w.frame().exclude());
                for (WindowFrame.Bound b : List.of(w.frame().lower(), w.frame().upper())) {
                    name(b.kind());
                    i64(b.offset());
                    f64(b.realOffset());
                }
                i32(w.calls().size());
                for (WindowCall c : w.calls()) {
                    name(c.kind());
                    i32(c.arg());
                    type(c.type());
                    i64(c.offset());
                    i32(c.defaultArg());
                    bool(c.ignoreNulls());
                    i32(c.offsetArg());
                }
            } else if (node instanceof PlanNode.Values v) {
                u8(VALUES);
                types(v.types());
                batch(v.types(), v.rows());
            } else if (node instanceof PlanNode.Generate g) {
                u8(GENERATE);
                generator(g.generator());
            } else if (node instanceof PlanNode.Union u) {
                u8(UNION);
                types(u.types());
                i32(u.inputs().size());
                for (PlanNode input : u.inputs()) {
                    node(input, depth + 1);
                }
            } else if (node instanceof PlanNode.Replicate r) {
                u8(REPLICATE);
                node(r.input(), depth + 1);
                i32(r.countColumn());
            } else {
                throw new IllegalArgumentException("no wire form for " + node.getClass().getSimpleName());
            }
        }

        private void generator(RowGenerator generator) {
            if (generator instanceof Series s) {
                u8(SERIES);
                i64(s.start());
                i64(s.stop());
                i64(s.step());
            } else {
                SkewRows rows = (SkewRows) generator;
                SkewWorkload.Spec spec = rows.spec();
                u8(SKEW_ROWS);
                string(rows.table());
                i64(spec.rows());
                i64(spec.innerRows());
                name(spec.distribution());
                f64(spec.z());
                i32(spec.partitions());
                i64(spec.seed());
            }
        }

        /** An aggregate's fields without a code: inside a partial or merge node its place says what it is. */
        private void aggregate(PlanNode.Aggregate a, int depth) {
            checkDepth(depth);
            node(a.input(), depth + 1);
            ints(a.groupKeys());
            i32(a.groupSets().length);
            for (long set : a.groupSets()) {
                i64(set);
            }
            i32(a.calls().size());
            for (AggCall c : a.calls()) {
                name(c.kind());
                i32(c.arg());
                type(c.type());
                f64(c.fraction());
                bool(c.descending());
                i32(c.arg2());
                i32(c.filter());
                bool(c.distinct());
                i32(c.order().size());
                for (SortKey k : c.order()) {
                    i32(k.column());
                    bool(k.descending());
                    bool(k.nullsFirst());
                }
                ints(c.moreArgs().stream().mapToInt(Integer::intValue).toArray());
            }
            bool(a.nearlyUnique());
        }

        private void exprs(List<Expr> exprs, int depth) {
            i32(exprs.size());
            for (Expr e : exprs) {
                expr(e, depth);
            }
        }

        private void expr(Expr e, int depth) {
            checkDepth(depth);
            if (e instanceof InputRef r) {
                u8(INPUT_REF);
                i32(r.index());
                type(r.type());
            } else if (e instanceof Literal l) {
                u8(LITERAL);
                type(l.type());
                bool(l.value() != null);
                if (l.value() instanceof Long v) {
                    i64(v);
                } else if (l.value() instanceof Double v) {
                    f64(v);
                } else if (l.value() instanceof String v) {
                    string(v);
                } else if (l.value() instanceof java.math.BigInteger v) {
                    string(v.toString());
                }
            } else {
                Call c = (Call) e; // Expr is sealed: InputRef, Literal, Call
                u8(CALL);
                name(c.op());
                exprs(c.args(), depth + 1);
                type(c.type());
            }
        }

        private void type(FerryType t) {
            name(t.kind());
            i32(t.precision());
            i32(t.scale());
        }

        private void types(List<FerryType> types) {
            i32(types.size());
            for (FerryType t : types) {
                type(t);
            }
        }

        private void schema(TableSchema schema) {
            i32(schema.size());
            for (Column c : schema.columns()) {
                string(c.name());
                type(c.type());
                bool(c.nullable());
            }
        }

        private void batch(List<FerryType> types, Batch rows) {
            if (rows.columnCount() != types.size()) {
                throw new IllegalArgumentException("VALUES has " + types.size() + " types but " + rows.columnCount()
                        + " columns");
            }
            int n = rows.rowCount();
            i32(n);
            for (int c = 0; c < types.size(); c++) {
                Vector v = rows.column(c);
                if (v.physical() != types.get(c).physical() || v.size() != n) {
                    throw new IllegalArgumentException("VALUES column " + c + " is not " + n + " "
                            + types.get(c).physical() + " values");
                }
                vector(v, n);
            }
        }

        private void vector(Vector v, int n) {
            bool(v.nulls() != null);
            if (v.nulls() != null) {
                // A bitmap, row i in bit i % 8 of byte i / 8; spare bits zero so the form is canonical.
                byte[] bits = new byte[(n + 7) / 8];
                for (int i = 0; i < n; i++) {
                    if (v.isNull(i)) {
                        bits[i >> 3] |= (byte) (1 << (i & 7));
                    }
                }
                bytes(bits, 0, bits.length);
            }
            if (v instanceof LongVector l) {
                for (int i = 0; i < n; i++) {
                    i64(l.get(i));
                }
            } else if (v instanceof DoubleVector d) {
                for (int i = 0; i < n; i++) {
                    f64(d.get(i));
                }
            } else {
                // Lengths, then the bytes: offsets need not start at 0 in a sliced vector, lengths always do.
                BytesVector b = (BytesVector) v;
                for (int i = 0; i < n; i++) {
                    i32(b.length(i));
                }
                for (int i = 0; i < n; i++) {
                    bytes(b.data(), b.start(i), b.length(i));
                }
            }
        }
    }

    /** Reads one fragment, checking as it goes; each failure names what was wrong and at which byte. */
    private static final class Decoder {
        private final ByteBuffer in;
        private final Map<PlanNode, Integer> widths = new IdentityHashMap<>();
        private int depth;

        Decoder(ByteBuffer in) {
            this.in = in;
        }

        int remaining() {
            return in.remaining();
        }

        private void need(long n, String what) {
            if (n > in.remaining()) {
                throw violation("it ends inside " + what + " at byte " + in.position() + " (" + n + " bytes needed, "
                        + in.remaining() + " left)");
            }
        }

        int u8(String what) {
            need(1, what);
            return in.get() & 0xFF;
        }

        int i16() {
            need(2, "the header");
            return in.getShort();
        }

        int i32() {
            need(4, "a 32-bit field");
            return in.getInt();
        }

        long i64() {
            need(8, "a 64-bit field");
            return in.getLong();
        }

        double f64() {
            return Double.longBitsToDouble(i64());
        }

        boolean bool(String what) {
            int at = in.position();
            int b = u8(what);
            if (b > 1) {
                throw violation(what + " at byte " + at + " is " + b + ", not 0 or 1");
            }
            return b == 1;
        }

        /**
         * A count of items that take at least {@code minBytes} each. Bounding it by the bytes left is what keeps a
         * corrupt count from sizing an allocation: nothing is allocated for more items than the input could hold.
         */
        int count(String what, int minBytes) {
            int at = in.position();
            int n = i32();
            if (n < 0) {
                throw violation("the " + what + " at byte " + at + " is negative (" + n + ")");
            }
            if ((long) n * minBytes > in.remaining()) {
                throw violation("the " + what + " at byte " + at + " is " + n + ", more than the "
                        + in.remaining() + " bytes left can hold");
            }
            return n;
        }

        String string(String what) {
            return string(what, Integer.MAX_VALUE);
        }

        private String string(String what, int maxBytes) {
            int at = in.position();
            int len = count(what + " length", 1);
            if (len > maxBytes) {
                throw violation("the " + what + " at byte " + at + " is " + len + " bytes long, more than "
                        + maxBytes);
            }
            byte[] b = new byte[len];
            in.get(b);
            try {
                // Strict: malformed UTF-8 is corruption, not something to paper over with replacement characters.
                return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b)).toString();
            } catch (CharacterCodingException e) {
                throw violation("the " + what + " at byte " + at + " is not valid UTF-8");
            }
        }

        <E extends Enum<E>> E name(Class<E> type) {
            int at = in.position();
            String name = string(type.getSimpleName() + " name", MAX_ENUM_NAME);
            try {
                return Enum.valueOf(type, name);
            } catch (IllegalArgumentException e) {
                throw violation("unknown " + type.getSimpleName() + " '" + name + "' at byte " + at);
            }
        }

        /** A column position that must fall within an input {@code width} columns wide. */
        int index(String what, int width) {
            int at = in.position();
            int v = i32();
            if (v < 0 || v >= width) {
                throw violation("the " + what + " " + v + " at byte " + at + " is outside its input's " + width
                        + " columns");
            }
            return v;
        }

        int[] indexes(String what, int width) {
            int[] out = new int[count(what + " count", 4)];
            for (int i = 0; i < out.length; i++) {
                out[i] = index(what, width);
            }
            return out;
        }

        private void enter() {
            if (++depth > MAX_DEPTH) {
                throw violation("it nests more than " + MAX_DEPTH + " nodes and expressions deep");
            }
        }

        /** Runs a value's own constructor checks, reporting a refusal as corrupt input. */
        private static <T> T checked(String what, Supplier<T> make) {
            try {
                return make.get();
            } catch (IllegalArgumentException | FerryException e) {
                throw violation("the " + what + " is invalid: " + e.getMessage());
            }
        }

        PlanNode node() {
            enter();
            int at = in.position();
            int code = u8("a plan node");
            PlanNode node = built(switch (code) {
                case SCAN -> scan();
                case FILTER -> {
                    PlanNode input = node();
                    yield new PlanNode.Filter(input, expr(width(input)));
                }
                case PROJECT -> {
                    PlanNode input = node();
                    yield new PlanNode.Project(input, exprs(width(input)));
                }
                case AGGREGATE -> aggregateBody();
                case PARTIAL_AGGREGATE -> new PlanNode.PartialAggregate(aggregate());
                case MERGE_AGGREGATE -> {
                    PlanNode.Aggregate aggregate = aggregate();
                    yield new PlanNode.MergeAggregate(aggregate, node());
                }
                case GATHER -> new PlanNode.Gather(node());
                case JOIN -> join();
                case SORT -> sort();
                case VALUES -> values();
                case GENERATE -> new PlanNode.Generate(generator());
                case WINDOW -> window();
                case UNION -> union();
                case REPLICATE -> {
                    PlanNode input = node();
                    int column = index("replication count column", width(input));
                    yield checked("replication", () -> new PlanNode.Replicate(input, column));
                }
                default -> throw violation("unknown plan node code " + code + " at byte " + at);
            });
            depth--;
            return node;
        }

        /** How many columns a decoded node produces (its {@code types().size()}), recorded when it was built. */
        private int width(PlanNode node) {
            return widths.get(node);
        }

        /**
         * Works out a new node's width from its parts and its inputs' recorded widths. Asking {@code types()} instead
         * would walk the whole subtree again at every level, and hostile nesting makes that walk as long as it likes.
         */
        private <N extends PlanNode> N built(N node) {
            int width;
            if (node instanceof PlanNode.Scan s) {
                width = s.columns().length;
            } else if (node instanceof PlanNode.Filter f) {
                width = width(f.input());
            } else if (node instanceof PlanNode.Project p) {
                width = p.exprs().size();
            } else if (node instanceof PlanNode.Aggregate a) {
                width = a.groupKeys().length + a.calls().size();
            } else if (node instanceof PlanNode.PartialAggregate p) {
                // Group keys, then each call's states (AVG two, APPROX_ moments five): AggregatePlan.partialTypes.
                width = AggregatePlan.partialWidth(p.aggregate());
            } else if (node instanceof PlanNode.MergeAggregate m) {
                width = width(m.aggregate());
            } else if (node instanceof PlanNode.Gather g) {
                width = width(g.fragment());
            } else if (node instanceof PlanNode.Join j) {
                boolean keepsRight = j.kind() == JoinKind.INNER || j.kind() == JoinKind.LEFT;
                width = width(j.left()) + (keepsRight ? width(j.right()) : 0);
            } else if (node instanceof PlanNode.Sort s) {
                width = width(s.input());
            } else if (node instanceof PlanNode.Window w) {
                width = width(w.input()) + w.calls().size();
            } else if (node instanceof PlanNode.Union u) {
                width = u.types().size();
            } else if (node instanceof PlanNode.Generate g) {
                width = g.types().size();
            } else if (node instanceof PlanNode.Replicate r) {
                width = width(r.input());
            } else {
                width = ((PlanNode.Values) node).types().size();
            }
            widths.put(node, width);
            return node;
        }

        private PlanNode.Scan scan() {
            String name = string("table name");
            TableSchema schema = schema();
            int[] columns = indexes("scan column", schema.size());
            SampleSpec sample = null;
            if (bool("the sample flag")) {
                SampleSpec.Method method = name(SampleSpec.Method.class);
                double percent = f64();
                if (!(percent >= 0 && percent <= 100)) {
                    throw violation("the sample percentage " + percent + " is outside 0 to 100");
                }
                sample = new SampleSpec(method, percent, i64(), bool("the repeatable flag"));
            }
            int zoned = count("zone map column count", 9);
            List<ZoneFilter.ColumnValues> zones = new ArrayList<>(zoned);
            for (int i = 0; i < zoned; i++) {
                int column = index("zone map column", schema.size());
                boolean nulls = bool("the zone map NULL flag");
                long[] bounds = new long[count("zone map bound count", 8)];
                for (int b = 0; b < bounds.length; b++) {
                    bounds[b] = i64();
                }
                zones.add(checked("zone map of column " + column, () -> new ZoneFilter.ColumnValues(column, bounds,
                        nulls)));
            }
            return new PlanNode.Scan(new TableRef(name, schema), columns, sample, zones.isEmpty() ? ZoneFilter.NONE
                    : checked("zone filter", () -> new ZoneFilter(zones)));
        }

        /** An aggregate nested in a partial or merge node: it counts towards the depth like any node. */
        private PlanNode.Aggregate aggregate() {
            enter();
            PlanNode.Aggregate a = built(aggregateBody());
            depth--;
            return a;
        }

        private PlanNode.Aggregate aggregateBody() {
            PlanNode input = node();
            int width = width(input);
            int[] groupKeys = indexes("group key", width);
            long[] groupSets = new long[count("grouping set count", 8)];
            for (int i = 0; i < groupSets.length; i++) {
                groupSets[i] = i64();
            }
            int n = count("aggregate call count", 1);
            List<AggCall> calls = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                AggCall.AggKind kind = name(AggCall.AggKind.class);
                int at = in.position();
                int arg = i32();
                // -1 is COUNT(*) or APPROX_COUNT(*); every other call reads a column.
                if (arg < -1 || arg >= width || (arg == -1 && !kind.argumentOptional())) {
                    throw violation("the " + kind + " argument " + arg + " at byte " + at + " is outside its input's "
                            + width + " columns");
                }
                FerryType type = type();
                double fraction = f64();
                if (!(fraction >= 0 && fraction <= 1)) {
                    throw violation("the " + kind + " fraction " + fraction + " is outside [0, 1]");
                }
                boolean descending = bool("descending");
                int arg2 = column(kind + " second argument", width);
                int filter = column(kind + " filter", width);
                boolean distinct = bool("distinct");
                int keys = count(kind + " order key count", 6);
                List<SortKey> order = new ArrayList<>();
                for (int k = 0; k < keys; k++) {
                    order.add(new SortKey(index(kind + " order column", width), bool("the descending flag"),
                            bool("the nulls-first flag")));
                }
                List<Integer> moreArgs = java.util.Arrays.stream(indexes(kind + " further argument", width)).boxed()
                        .toList();
                calls.add(checked("aggregate call", () -> new AggCall(kind, arg, type, fraction, descending, arg2,
                        filter, distinct, order, moreArgs)));
            }
            boolean nearlyUnique = bool("nearly-unique");
            return checked("aggregate", () -> new PlanNode.Aggregate(input, groupKeys, groupSets, calls,
                    nearlyUnique));
        }

        /** A column of an input {@code width} wide, or -1 for none. */
        private int column(String what, int width) {
            int at = in.position();
            int c = i32();
            if (c < -1 || c >= width) {
                throw violation("the " + what + " " + c + " at byte " + at + " is outside its input's " + width
                        + " columns");
            }
            return c;
        }

        private PlanNode.Join join() {
            PlanNode left = node();
            PlanNode right = node();
            JoinKind kind = name(JoinKind.class);
            int[] leftKeys = indexes("left join key", width(left));
            int[] rightKeys = indexes("right join key", width(right));
            if (leftKeys.length != rightKeys.length) {
                throw violation("the join has " + leftKeys.length + " left keys but " + rightKeys.length
                        + " right keys");
            }
            need(leftKeys.length, "the join keys' NULL-matching flags");
            boolean[] nullsMatch = new boolean[leftKeys.length];
            for (int k = 0; k < nullsMatch.length; k++) {
                nullsMatch[k] = bool("the NULL-matching flag of a join key");
            }
            // The residual sees left's columns then all of right's, whatever the join kind.
            Expr residual = bool("the residual flag") ? expr(width(left) + width(right)) : null;
            return new PlanNode.Join(left, right, kind, leftKeys, rightKeys, nullsMatch, residual);
        }

        private PlanNode.Sort sort() {
            PlanNode input = node();
            int width = width(input);
            int n = count("sort key count", 6);
            List<SortKey> keys = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                keys.add(new SortKey(index("sort column", width), bool("the descending flag"),
                        bool("the nulls-first flag")));
            }
            long offset = i64();
            if (offset < 0) {
                throw violation("the sort offset is " + offset);
            }
            return new PlanNode.Sort(input, keys, offset, i64());
        }

        private PlanNode.Window window() {
            PlanNode input = node();
            int width = width(input);
            int[] partitionKeys = indexes("partition key", width);
            int n = count("order key count", 6);
            List<SortKey> orderKeys = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                orderKeys.add(new SortKey(index("order column", width), bool("the descending flag"),
                        bool("the nulls-first flag")));
            }
            boolean rows = bool("the rows flag");
            WindowFrame.RangeUnit unit = name(WindowFrame.RangeUnit.class);
            WindowFrame.RangeUnit upperUnit = name(WindowFrame.RangeUnit.class);
            WindowFrame.Exclude exclude = name(WindowFrame.Exclude.class);
            WindowFrame.BoundKind lowerKind = name(WindowFrame.BoundKind.class);
            long lowerOffset = i64();
            double lowerReal = f64();
            WindowFrame.BoundKind upperKind = name(WindowFrame.BoundKind.class);
            long upperOffset = i64();
            double upperReal = f64();
            WindowFrame frame = checked("window frame", () -> new WindowFrame(rows,
                    new WindowFrame.Bound(lowerKind, lowerOffset, lowerReal),
                    new WindowFrame.Bound(upperKind, upperOffset, upperReal), unit, upperUnit, exclude));
            int calls = count("window call count", 1);
            List<WindowCall> list = new ArrayList<>();
            for (int i = 0; i < calls; i++) {
                WindowCall.Kind kind = name(WindowCall.Kind.class);
                int arg = column(kind + " argument", width);
                FerryType type = type();
                long offset = i64();
                int defaultArg = column(kind + " default", width);
                boolean ignoreNulls = bool("the ignore-nulls flag");
                int offsetArg = column(kind + " offset", width);
                list.add(checked(kind + " call", () -> new WindowCall(kind, arg, type, offset, defaultArg,
                        ignoreNulls, offsetArg)));
            }
            return new PlanNode.Window(input, partitionKeys, orderKeys, frame, list);
        }

        /** The union's types, then its inputs; each must be as wide as the types before its own types are compared. */
        private PlanNode.Union union() {
            List<FerryType> types = types();
            int n = count("union input count", 1);
            List<PlanNode> inputs = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                PlanNode input = node();
                if (width(input) != types.size()) {
                    throw violation("union input " + i + " has " + width(input) + " columns, the union "
                            + types.size());
                }
                inputs.add(input);
            }
            return checked("union", () -> new PlanNode.Union(inputs, types));
        }

        private RowGenerator generator() {
            int kind = u8("a generator");
            if (kind == SERIES) {
                long start = i64();
                long stop = i64();
                long step = i64();
                return checked("series", () -> new Series(start, stop, step));
            }
            if (kind != SKEW_ROWS) {
                throw violation("unknown generator code " + kind);
            }
            String table = string("skew table", MAX_ENUM_NAME);
            long rows = i64();
            long inner = i64();
            SkewWorkload.Distribution distribution = name(SkewWorkload.Distribution.class);
            double z = f64();
            int partitions = i32();
            long seed = i64();
            return checked("skew workload", () -> new SkewRows(new SkewWorkload.Spec(rows, inner, distribution, z,
                    partitions, Placement.PARTITION, seed, ""), table));
        }

        private PlanNode.Values values() {
            List<FerryType> types = types();
            int at = in.position();
            int rows = i32();
            if (rows < 0) {
                throw violation("the row count at byte " + at + " is " + rows);
            }
            Vector[] columns = new Vector[types.size()];
            for (int c = 0; c < columns.length; c++) {
                columns[c] = vector(types.get(c).physical(), rows);
            }
            return new PlanNode.Values(types, new Batch(rows, columns));
        }

        private Vector vector(Physical physical, int rows) {
            boolean[] nulls = bool("the null-mask flag") ? nulls(rows) : null;
            switch (physical) {
                case LONG -> {
                    need(8L * rows, "a BIGINT column");
                    long[] v = new long[rows];
                    for (int i = 0; i < rows; i++) {
                        v[i] = in.getLong();
                    }
                    return new LongVector(v, nulls, rows);
                }
                case DOUBLE -> {
                    need(8L * rows, "a DOUBLE column");
                    double[] v = new double[rows];
                    for (int i = 0; i < rows; i++) {
                        v[i] = Double.longBitsToDouble(in.getLong());
                    }
                    return new DoubleVector(v, nulls, rows);
                }
                default -> {
                    need(4L * rows, "the lengths of a VARCHAR column");
                    int[] offsets = new int[rows + 1];
                    long end = 0;
                    for (int i = 0; i < rows; i++) {
                        int len = in.getInt();
                        end += len;
                        // Checked per row so a negative length cannot hide behind a later positive one.
                        if (len < 0 || end > in.remaining()) {
                            throw violation("the length of VARCHAR row " + i + " is " + len + ", beyond the bytes left");
                        }
                        offsets[i + 1] = (int) end;
                    }
                    need(end, "the bytes of a VARCHAR column");
                    byte[] data = new byte[(int) end];
                    in.get(data);
                    return new BytesVector(data, offsets, nulls, rows);
                }
            }
        }

        private boolean[] nulls(int rows) {
            need((rows + 7L) / 8, "a null mask");
            boolean[] nulls = new boolean[rows];
            for (int i = 0; i < rows; i += 8) {
                int bits = in.get() & 0xFF;
                int inByte = Math.min(8, rows - i);
                if (bits >>> inByte != 0) {
                    throw violation("a null mask sets bits past its last row");
                }
                for (int b = 0; b < inByte; b++) {
                    nulls[i + b] = (bits & (1 << b)) != 0;
                }
            }
            return nulls;
        }

        private List<Expr> exprs(int width) {
            int n = count("expression count", 1);
            // Grown as elements arrive, not presized: nested lists each presized to the bytes left would multiply.
            List<Expr> out = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                out.add(expr(width));
            }
            return out;
        }

        private Expr expr(int width) {
            enter();
            int at = in.position();
            int code = u8("an expression");
            Expr e = switch (code) {
                case INPUT_REF -> new InputRef(index("column reference", width), type());
                case LITERAL -> literal();
                case CALL -> {
                    Op op = name(Op.class);
                    List<Expr> args = exprs(width);
                    yield new Call(op, args, type());
                }
                default -> throw violation("unknown expression code " + code + " at byte " + at);
            };
            depth--;
            return e;
        }

        private Literal literal() {
            FerryType type = type();
            if (!bool("the literal's presence flag")) {
                return Literal.nullOf(type);
            }
            return switch (type.physical()) {
                case LONG -> new Literal(i64(), type);
                case DOUBLE -> new Literal(f64(), type);
                case BYTES -> type.isWideDecimal() ? wideLiteral(type) : new Literal(string("string literal"), type);
            };
        }

        /** A wide DECIMAL's unscaled value, written as its digits. */
        private Literal wideLiteral(FerryType type) {
            String digits = string("decimal literal");
            return checked("decimal literal", () -> new Literal(new java.math.BigInteger(digits), type));
        }

        private FerryType type() {
            TypeKind kind = name(TypeKind.class);
            int precision = i32();
            int scale = i32();
            return checked("type", () -> new FerryType(kind, precision, scale));
        }

        private List<FerryType> types() {
            int n = count("type count", 1);
            List<FerryType> out = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                out.add(type());
            }
            return out;
        }

        private TableSchema schema() {
            int n = count("column count", 1);
            List<Column> columns = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                String name = string("column name");
                FerryType type = type();
                columns.add(new Column(name, type, bool("the nullable flag")));
            }
            return checked("table schema", () -> new TableSchema(columns));
        }
    }
}
