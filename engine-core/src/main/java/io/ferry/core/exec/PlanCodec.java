package io.ferry.core.exec;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.expr.Call;
import io.ferry.core.expr.Expr;
import io.ferry.core.expr.InputRef;
import io.ferry.core.expr.Literal;
import io.ferry.core.expr.Op;
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
 * Plan fragments as bytes, for function shipping: the coordinator encodes the fragment a node runs, the node decodes
 * it. Enums travel by name, so reordering a Java enum never changes the meaning of a message. A scan carries its
 * table's name and schema and decodes to a {@link TableRef}; which blocks it reads travels beside the plan, per scan
 * in {@link #scans} order. Decoding treats its input as untrusted: every count is checked against the bytes left,
 * nesting is bounded, and any malformed input fails with SQLSTATE 08P01.
 */
public final class PlanCodec {
    private static final int MAGIC = 0x46504C4E; // "FPLN"
    private static final int VERSION = 1;
    /** Far deeper than any plan Calcite makes, and shallow enough for any thread's stack. */
    private static final int MAX_DEPTH = 256;

    private static final int SCAN = 1, FILTER = 2, PROJECT = 3, AGGREGATE = 4, PARTIAL = 5, MERGE = 6, GATHER = 7,
            JOIN = 8, SORT = 9, VALUES = 10;
    private static final int INPUT_REF = 1, LITERAL = 2, CALL = 3;

    private PlanCodec() {
    }

    /** The scans of a plan in pre-order, left inputs first: how sender and receiver number them. */
    public static List<PlanNode.Scan> scans(PlanNode plan) {
        List<PlanNode.Scan> out = new ArrayList<>();
        collect(plan, out);
        return out;
    }

    private static void collect(PlanNode n, List<PlanNode.Scan> out) {
        if (n instanceof PlanNode.Scan s) {
            out.add(s);
        } else if (n instanceof PlanNode.Filter f) {
            collect(f.input(), out);
        } else if (n instanceof PlanNode.Project p) {
            collect(p.input(), out);
        } else if (n instanceof PlanNode.Aggregate a) {
            collect(a.input(), out);
        } else if (n instanceof PlanNode.PartialAggregate p) {
            collect(p.aggregate(), out);
        } else if (n instanceof PlanNode.MergeAggregate m) {
            collect(m.aggregate(), out);
            collect(m.partials(), out);
        } else if (n instanceof PlanNode.Gather g) {
            collect(g.fragment(), out);
        } else if (n instanceof PlanNode.Join j) {
            collect(j.left(), out);
            collect(j.right(), out);
        } else if (n instanceof PlanNode.Sort s) {
            collect(s.input(), out);
        }
    }

    public static byte[] encode(PlanNode plan) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(MAGIC);
            out.writeByte(VERSION);
            node(out, plan);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static void node(DataOutputStream out, PlanNode n) throws IOException {
        if (n instanceof PlanNode.Scan s) {
            out.writeByte(SCAN);
            string(out, s.table().name());
            List<Column> cols = s.table().schema().columns();
            out.writeInt(cols.size());
            for (Column c : cols) {
                string(out, c.name());
                type(out, c.type());
                out.writeBoolean(c.nullable());
            }
            ints(out, s.columns());
            out.writeBoolean(s.sample() != null);
            if (s.sample() != null) {
                string(out, s.sample().method().name());
                out.writeDouble(s.sample().percent());
                out.writeLong(s.sample().seed());
                out.writeBoolean(s.sample().repeatable());
            }
        } else if (n instanceof PlanNode.Filter f) {
            out.writeByte(FILTER);
            node(out, f.input());
            expr(out, f.condition());
        } else if (n instanceof PlanNode.Project p) {
            out.writeByte(PROJECT);
            node(out, p.input());
            out.writeInt(p.exprs().size());
            for (Expr e : p.exprs()) {
                expr(out, e);
            }
        } else if (n instanceof PlanNode.Aggregate a) {
            out.writeByte(AGGREGATE);
            aggregate(out, a);
        } else if (n instanceof PlanNode.PartialAggregate p) {
            out.writeByte(PARTIAL);
            aggregate(out, p.aggregate());
        } else if (n instanceof PlanNode.MergeAggregate m) {
            out.writeByte(MERGE);
            aggregate(out, m.aggregate());
            node(out, m.partials());
        } else if (n instanceof PlanNode.Gather g) {
            out.writeByte(GATHER);
            node(out, g.fragment());
        } else if (n instanceof PlanNode.Join j) {
            out.writeByte(JOIN);
            node(out, j.left());
            node(out, j.right());
            string(out, j.kind().name());
            ints(out, j.leftKeys());
            ints(out, j.rightKeys());
            out.writeBoolean(j.residual() != null);
            if (j.residual() != null) {
                expr(out, j.residual());
            }
        } else if (n instanceof PlanNode.Sort s) {
            out.writeByte(SORT);
            node(out, s.input());
            out.writeInt(s.keys().size());
            for (SortKey k : s.keys()) {
                out.writeInt(k.column());
                out.writeBoolean(k.descending());
                out.writeBoolean(k.nullsFirst());
            }
            out.writeLong(s.offset());
            out.writeLong(s.fetch());
        } else if (n instanceof PlanNode.Values v) {
            out.writeByte(VALUES);
            out.writeInt(v.types().size());
            for (FerryType t : v.types()) {
                type(out, t);
            }
            batch(out, v.rows(), v.types());
        } else {
            throw new IllegalArgumentException("cannot encode " + n.getClass().getSimpleName());
        }
    }

    private static void aggregate(DataOutputStream out, PlanNode.Aggregate a) throws IOException {
        node(out, a.input());
        ints(out, a.groupKeys());
        out.writeInt(a.calls().size());
        for (AggCall c : a.calls()) {
            string(out, c.kind().name());
            out.writeInt(c.arg());
            type(out, c.type());
        }
    }

    private static void expr(DataOutputStream out, Expr e) throws IOException {
        if (e instanceof InputRef r) {
            out.writeByte(INPUT_REF);
            out.writeInt(r.index());
            type(out, r.type());
        } else if (e instanceof Literal l) {
            out.writeByte(LITERAL);
            type(out, l.type());
            out.writeBoolean(l.value() != null);
            if (l.value() instanceof Long v) {
                out.writeLong(v);
            } else if (l.value() instanceof Double v) {
                out.writeDouble(v);
            } else if (l.value() instanceof String v) {
                string(out, v);
            }
        } else if (e instanceof Call c) {
            out.writeByte(CALL);
            string(out, c.op().name());
            type(out, c.type());
            out.writeInt(c.args().size());
            for (Expr a : c.args()) {
                expr(out, a);
            }
        }
    }

    private static void batch(DataOutputStream out, Batch b, List<FerryType> types) throws IOException {
        int n = b.rowCount();
        out.writeInt(n);
        for (int c = 0; c < types.size(); c++) {
            Vector v = b.column(c);
            for (int i = 0; i < n; i++) {
                out.writeBoolean(v.isNull(i));
            }
            if (v instanceof LongVector l) {
                for (int i = 0; i < n; i++) {
                    out.writeLong(l.get(i));
                }
            } else if (v instanceof DoubleVector d) {
                for (int i = 0; i < n; i++) {
                    out.writeDouble(d.get(i));
                }
            } else if (v instanceof BytesVector s) {
                for (int i = 0; i < n; i++) {
                    out.writeInt(s.length(i));
                    out.write(s.data(), s.start(i), s.length(i));
                }
            }
        }
    }

    private static void type(DataOutputStream out, FerryType t) throws IOException {
        string(out, t.kind().name());
        out.writeInt(t.precision());
        out.writeInt(t.scale());
    }

    private static void ints(DataOutputStream out, int[] values) throws IOException {
        out.writeInt(values.length);
        for (int v : values) {
            out.writeInt(v);
        }
    }

    private static void string(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    /** Decodes a fragment; fails with SQLSTATE 08P01 on anything malformed. */
    public static PlanNode decode(byte[] bytes) {
        Reader r = new Reader(ByteBuffer.wrap(bytes));
        try {
            if (r.buf.getInt() != MAGIC) {
                throw malformed("not a Ferry plan fragment (bad magic)");
            }
            int version = r.buf.get() & 0xFF;
            if (version != VERSION) {
                throw malformed("plan format version " + version + ", this node reads " + VERSION
                        + ": run the same Ferry version on every node");
            }
            PlanNode plan = r.node(0);
            if (r.buf.hasRemaining()) {
                throw malformed(r.buf.remaining() + " unexpected bytes after the plan");
            }
            return plan;
        } catch (BufferUnderflowException e) {
            throw malformed("the plan ends early");
        } catch (FerryException e) {
            // A value a constructor refused (a sample percentage out of range, ...): the message is malformed.
            throw SqlStates.PROTOCOL_VIOLATION.equals(e.sqlState()) ? e : malformed(e.getMessage());
        } catch (IllegalArgumentException | IllegalStateException | ClassCastException
                | IndexOutOfBoundsException e) {
            throw malformed(e.getMessage());
        }
    }

    private static FerryException malformed(String why) {
        return new FerryException(SqlStates.PROTOCOL_VIOLATION, "malformed plan fragment: " + why);
    }

    private static final class Reader {
        final ByteBuffer buf;

        Reader(ByteBuffer buf) {
            this.buf = buf;
        }

        int count(int minBytesEach) {
            int n = buf.getInt();
            if (n < 0 || (long) n * minBytesEach > buf.remaining()) {
                throw malformed("a count of " + n + " does not fit the " + buf.remaining() + " bytes left");
            }
            return n;
        }

        String string() {
            byte[] b = new byte[count(1)];
            buf.get(b);
            return new String(b, StandardCharsets.UTF_8);
        }

        <E extends Enum<E>> E name(Class<E> type) {
            String s = string();
            try {
                return Enum.valueOf(type, s);
            } catch (IllegalArgumentException e) {
                throw malformed("unknown " + type.getSimpleName() + " '" + s + "'");
            }
        }

        FerryType type() {
            return new FerryType(name(TypeKind.class), buf.getInt(), buf.getInt());
        }

        int[] ints() {
            int[] v = new int[count(4)];
            for (int i = 0; i < v.length; i++) {
                v[i] = buf.getInt();
            }
            return v;
        }

        PlanNode node(int depth) {
            if (depth > MAX_DEPTH) {
                throw malformed("plan nested deeper than " + MAX_DEPTH);
            }
            int tag = buf.get();
            switch (tag) {
                case SCAN: {
                    String name = string();
                    int n = count(13);
                    List<Column> cols = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        cols.add(new Column(string(), type(), buf.get() != 0));
                    }
                    int[] columns = ints();
                    for (int c : columns) {
                        if (c < 0 || c >= n) {
                            throw malformed("scan of column " + c + " of a " + n + "-column table");
                        }
                    }
                    SampleSpec sample = null;
                    if (buf.get() != 0) {
                        sample = new SampleSpec(name(SampleSpec.Method.class), buf.getDouble(), buf.getLong(),
                                buf.get() != 0);
                    }
                    return new PlanNode.Scan(new TableRef(name, new TableSchema(cols)), columns, sample);
                }
                case FILTER:
                    return new PlanNode.Filter(node(depth + 1), expr(depth + 1));
                case PROJECT: {
                    PlanNode input = node(depth + 1);
                    int n = count(1);
                    List<Expr> exprs = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        exprs.add(expr(depth + 1));
                    }
                    return new PlanNode.Project(input, exprs);
                }
                case AGGREGATE:
                    return aggregate(depth);
                case PARTIAL:
                    return new PlanNode.PartialAggregate(aggregate(depth));
                case MERGE:
                    return new PlanNode.MergeAggregate(aggregate(depth), node(depth + 1));
                case GATHER:
                    return new PlanNode.Gather(node(depth + 1));
                case JOIN: {
                    PlanNode left = node(depth + 1);
                    PlanNode right = node(depth + 1);
                    JoinKind kind = name(JoinKind.class);
                    int[] lk = ints();
                    int[] rk = ints();
                    Expr residual = buf.get() != 0 ? expr(depth + 1) : null;
                    return new PlanNode.Join(left, right, kind, lk, rk, residual);
                }
                case SORT: {
                    PlanNode input = node(depth + 1);
                    int n = count(6);
                    List<SortKey> keys = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        keys.add(new SortKey(buf.getInt(), buf.get() != 0, buf.get() != 0));
                    }
                    return new PlanNode.Sort(input, keys, buf.getLong(), buf.getLong());
                }
                case VALUES: {
                    int n = count(12);
                    List<FerryType> types = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        types.add(type());
                    }
                    return new PlanNode.Values(types, batch(types));
                }
                default:
                    throw malformed("unknown plan node tag " + tag);
            }
        }

        PlanNode.Aggregate aggregate(int depth) {
            PlanNode input = node(depth + 1);
            int[] keys = ints();
            int n = count(12);
            List<AggCall> calls = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                calls.add(new AggCall(name(AggCall.AggKind.class), buf.getInt(), type()));
            }
            return new PlanNode.Aggregate(input, keys, calls);
        }

        Expr expr(int depth) {
            if (depth > MAX_DEPTH) {
                throw malformed("expression nested deeper than " + MAX_DEPTH);
            }
            int tag = buf.get();
            switch (tag) {
                case INPUT_REF:
                    return new InputRef(buf.getInt(), type());
                case LITERAL: {
                    FerryType t = type();
                    if (buf.get() == 0) {
                        return Literal.nullOf(t);
                    }
                    Object v = switch (t.physical()) {
                        case LONG -> buf.getLong();
                        case DOUBLE -> buf.getDouble();
                        case BYTES -> string();
                    };
                    return new Literal(v, t);
                }
                case CALL: {
                    Op op = name(Op.class);
                    FerryType t = type();
                    int n = count(1);
                    List<Expr> args = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        args.add(expr(depth + 1));
                    }
                    return new Call(op, args, t);
                }
                default:
                    throw malformed("unknown expression tag " + tag);
            }
        }

        Batch batch(List<FerryType> types) {
            int rows = count(0);
            Vector[] cols = new Vector[types.size()];
            for (int c = 0; c < cols.length; c++) {
                if (rows > buf.remaining()) {
                    throw malformed("a column of " + rows + " rows does not fit the bytes left");
                }
                boolean[] nulls = new boolean[rows];
                for (int i = 0; i < rows; i++) {
                    nulls[i] = buf.get() != 0;
                }
                Physical p = types.get(c).physical();
                if (p == Physical.BYTES) {
                    BytesVector.Builder b = new BytesVector.Builder(rows);
                    for (int i = 0; i < rows; i++) {
                        byte[] v = new byte[count(1)];
                        buf.get(v);
                        if (nulls[i]) {
                            b.appendNull();
                        } else {
                            b.append(v);
                        }
                    }
                    cols[c] = b.build();
                } else {
                    if ((long) rows * 8 > buf.remaining()) {
                        throw malformed("a column of " + rows + " rows does not fit the bytes left");
                    }
                    if (p == Physical.LONG) {
                        long[] v = new long[rows];
                        for (int i = 0; i < rows; i++) {
                            v[i] = buf.getLong();
                        }
                        cols[c] = new LongVector(v, nulls, rows);
                    } else {
                        double[] v = new double[rows];
                        for (int i = 0; i < rows; i++) {
                            v[i] = buf.getDouble();
                        }
                        cols[c] = new DoubleVector(v, nulls, rows);
                    }
                }
            }
            return new Batch(rows, cols);
        }
    }
}
