package io.ferry.core.expr;

import java.util.ArrayList;
import java.util.List;

import io.ferry.core.exec.PlanNode;
import io.ferry.core.exec.ZoneFilter;
import io.ferry.core.storage.Table;
import io.ferry.core.types.CivilCalendar;
import io.ferry.core.types.FerryType;

/**
 * Binds what one execution of a statement fixes: CURRENT_DATE and CURRENT_TIMESTAMP to one instant, and the
 * parameters ({@code ?}) to the values the client set. A plan is built (and cached) once and may run many times, so
 * the translator leaves these calls in the plan and each execution replaces them with literals before the plan runs
 * or ships: every thread and every worker sees the same time, and a prepared statement runs in Ferry's kernels with
 * its values as constants, its filters' values choosing the blocks a zone-map index lets a scan skip.
 */
public final class StatementValues {
    private StatementValues() {
    }

    /** A parameter: {@code ?} number {@code index} (from 0), of type {@code type}, bound by {@link #bind}. */
    public static Call parameter(int index, FerryType type) {
        return new Call(Op.PARAMETER, List.of(new Literal((long) index, FerryType.BIGINT)), type);
    }

    /** Whether {@code plan} reads the clock or a parameter anywhere. */
    public static boolean needsBinding(PlanNode plan) {
        for (Expr e : exprs(plan)) {
            if (needsBinding(e)) {
                return true;
            }
        }
        for (PlanNode input : plan.inputs()) {
            if (needsBinding(input)) {
                return true;
            }
        }
        return false;
    }

    private static boolean needsBinding(Expr e) {
        if (!(e instanceof Call call)) {
            return false;
        }
        if (call.op() == Op.CURRENT_DATE || call.op() == Op.CURRENT_TIMESTAMP || call.op() == Op.PARAMETER) {
            return true;
        }
        for (Expr arg : call.args()) {
            if (needsBinding(arg)) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@code plan} with the clock read as {@code localMillis} (the statement's wall-clock time, without time zone)
     * and each parameter as the literal {@code parameters} gives for it.
     */
    public static PlanNode bind(PlanNode plan, long localMillis, Parameters parameters) {
        return new Binder(localMillis, parameters).bind(plan);
    }

    /** The values of a statement's parameters. */
    @FunctionalInterface
    public interface Parameters {
        /** Parameter {@code index} (from 0) as a literal of {@code type}. */
        Literal value(int index, FerryType type);
    }

    private record Binder(long localMillis, Parameters parameters) {
        PlanNode bind(PlanNode plan) {
            if (plan instanceof PlanNode.Filter f) {
                PlanNode input = bind(f.input());
                Expr condition = bind(f.condition());
                // A prepared statement's filter is known only now: let its values pick the blocks a scan reads,
                // as a literal's do when the plan is made (FerryFilter.toPlan).
                if (needsBinding(f.condition()) && input instanceof PlanNode.Scan scan
                        && scan.table() instanceof Table table && !table.indexes().isEmpty()) {
                    input = scan.withZones(scan.zones().and(ZoneFilter.of(condition, scan.columns(),
                            table::indexed)));
                }
                return new PlanNode.Filter(input, condition);
            }
            if (plan instanceof PlanNode.Project p) {
                return new PlanNode.Project(bind(p.input()), bindAll(p.exprs()));
            }
            if (plan instanceof PlanNode.Join j) {
                return j.over(bind(j.left()), bind(j.right()), j.residual() == null ? null : bind(j.residual()));
            }
            if (plan instanceof PlanNode.Aggregate a) {
                return a.over(bind(a.input()), a.groupKeys(), a.calls());
            }
            if (plan instanceof PlanNode.Sort s) {
                return new PlanNode.Sort(bind(s.input()), s.keys(), s.offset(), s.fetch());
            }
            if (plan instanceof PlanNode.Window w) {
                return w.over(bind(w.input()));
            }
            if (plan instanceof PlanNode.PartialAggregate p) {
                return new PlanNode.PartialAggregate((PlanNode.Aggregate) bind(p.aggregate()));
            }
            if (plan instanceof PlanNode.MergeAggregate m) {
                return new PlanNode.MergeAggregate((PlanNode.Aggregate) bind(m.aggregate()), bind(m.partials()));
            }
            if (plan instanceof PlanNode.Gather g) {
                return new PlanNode.Gather(bind(g.fragment()));
            }
            if (plan instanceof PlanNode.Union u) {
                List<PlanNode> inputs = new ArrayList<>(u.inputs().size());
                for (PlanNode input : u.inputs()) {
                    inputs.add(bind(input));
                }
                return new PlanNode.Union(inputs, u.types());
            }
            if (plan instanceof PlanNode.Replicate r) {
                return new PlanNode.Replicate(bind(r.input()), r.countColumn());
            }
            return plan;
        }

        private List<Expr> bindAll(List<Expr> exprs) {
            List<Expr> out = new ArrayList<>(exprs.size());
            for (Expr e : exprs) {
                out.add(bind(e));
            }
            return out;
        }

        private Expr bind(Expr e) {
            if (!(e instanceof Call call)) {
                return e;
            }
            return switch (call.op()) {
                case CURRENT_TIMESTAMP -> new Literal(localMillis, FerryType.TIMESTAMP);
                case CURRENT_DATE -> new Literal(Math.floorDiv(localMillis, CivilCalendar.MILLIS_PER_DAY),
                        FerryType.DATE);
                case PARAMETER -> parameters.value((int) (long) (Long) ((Literal) call.args().get(0)).value(),
                        call.type());
                default -> new Call(call.op(), bindAll(call.args()), call.type());
            };
        }
    }

    private static List<Expr> exprs(PlanNode plan) {
        if (plan instanceof PlanNode.Filter f) {
            return List.of(f.condition());
        }
        if (plan instanceof PlanNode.Project p) {
            return p.exprs();
        }
        if (plan instanceof PlanNode.Join j && j.residual() != null) {
            return List.of(j.residual());
        }
        return List.of();
    }
}
