package io.ferry.core.expr;

import java.util.ArrayList;
import java.util.List;

import io.ferry.core.exec.PlanNode;
import io.ferry.core.types.CivilCalendar;
import io.ferry.core.types.FerryType;

/**
 * Binds CURRENT_DATE and CURRENT_TIMESTAMP to one instant per statement execution: a plan is built (and cached) once
 * and may run many times, so the translator leaves the calls in the plan and each execution replaces them with
 * literals before the plan runs or ships, so every thread and every worker sees the same time.
 */
public final class StatementClock {
    private StatementClock() {
    }

    /** Whether {@code plan} reads the clock anywhere. */
    public static boolean readsClock(PlanNode plan) {
        for (Expr e : exprs(plan)) {
            if (readsClock(e)) {
                return true;
            }
        }
        for (PlanNode input : plan.inputs()) {
            if (readsClock(input)) {
                return true;
            }
        }
        return false;
    }

    private static boolean readsClock(Expr e) {
        if (!(e instanceof Call call)) {
            return false;
        }
        if (call.op() == Op.CURRENT_DATE || call.op() == Op.CURRENT_TIMESTAMP) {
            return true;
        }
        for (Expr arg : call.args()) {
            if (readsClock(arg)) {
                return true;
            }
        }
        return false;
    }

    /** {@code plan} with the clock read as {@code localMillis}: the statement's wall-clock time, without time zone. */
    public static PlanNode bind(PlanNode plan, long t) {
        if (plan instanceof PlanNode.Filter f) {
            return new PlanNode.Filter(bind(f.input(), t), bind(f.condition(), t));
        }
        if (plan instanceof PlanNode.Project p) {
            return new PlanNode.Project(bind(p.input(), t), bindAll(p.exprs(), t));
        }
        if (plan instanceof PlanNode.Join j) {
            return j.over(bind(j.left(), t), bind(j.right(), t), j.residual() == null ? null : bind(j.residual(), t));
        }
        if (plan instanceof PlanNode.Aggregate a) {
            return a.over(bind(a.input(), t), a.groupKeys(), a.calls());
        }
        if (plan instanceof PlanNode.Sort s) {
            return new PlanNode.Sort(bind(s.input(), t), s.keys(), s.offset(), s.fetch());
        }
        if (plan instanceof PlanNode.Window w) {
            return w.over(bind(w.input(), t));
        }
        if (plan instanceof PlanNode.PartialAggregate p) {
            return new PlanNode.PartialAggregate((PlanNode.Aggregate) bind(p.aggregate(), t));
        }
        if (plan instanceof PlanNode.MergeAggregate m) {
            return new PlanNode.MergeAggregate((PlanNode.Aggregate) bind(m.aggregate(), t), bind(m.partials(), t));
        }
        if (plan instanceof PlanNode.Gather g) {
            return new PlanNode.Gather(bind(g.fragment(), t));
        }
        if (plan instanceof PlanNode.Union u) {
            List<PlanNode> inputs = new ArrayList<>(u.inputs().size());
            for (PlanNode input : u.inputs()) {
                inputs.add(bind(input, t));
            }
            return new PlanNode.Union(inputs, u.types());
        }
        if (plan instanceof PlanNode.Replicate r) {
            return new PlanNode.Replicate(bind(r.input(), t), r.countColumn());
        }
        return plan;
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

    private static List<Expr> bindAll(List<Expr> exprs, long localMillis) {
        List<Expr> out = new ArrayList<>(exprs.size());
        for (Expr e : exprs) {
            out.add(bind(e, localMillis));
        }
        return out;
    }

    private static Expr bind(Expr e, long localMillis) {
        if (!(e instanceof Call call)) {
            return e;
        }
        if (call.op() == Op.CURRENT_TIMESTAMP) {
            return new Literal(localMillis, FerryType.TIMESTAMP);
        }
        if (call.op() == Op.CURRENT_DATE) {
            return new Literal(Math.floorDiv(localMillis, CivilCalendar.MILLIS_PER_DAY), FerryType.DATE);
        }
        return new Call(call.op(), bindAll(call.args(), localMillis), call.type());
    }
}
