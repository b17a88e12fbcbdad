package io.ferry.sql.rel;

import java.lang.reflect.Type;
import java.util.List;

import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.ConventionTraitDef;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.externalize.RelWriterImpl;
import org.apache.calcite.rel.convert.ConverterImpl;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.runtime.ArrayBindable;
import org.apache.calcite.runtime.Bindable;
import org.apache.calcite.runtime.Typed;

import io.ferry.core.exec.ColumnPruner;
import io.ferry.core.exec.PlanNode;
import io.ferry.core.exec.SampleWarnings;
import io.ferry.sql.schema.FerrySchema;

/**
 * The one boundary between Ferry and Calcite's Enumerable engine: everything below runs in Ferry, and whatever
 * Calcite plans above it (operators Ferry lacks) consumes Ferry's rows.
 */
public final class FerryToEnumerableConverter extends ConverterImpl implements EnumerableRel {
    private final boolean streamed;
    /** Whether this boundary's rows are the statement's result as they are, so its batches may be handed over. */
    private final boolean root;

    public FerryToEnumerableConverter(RelOptCluster cluster, RelTraitSet traits, RelNode input) {
        this(cluster, traits, input, false, false);
    }

    private FerryToEnumerableConverter(RelOptCluster cluster, RelTraitSet traits, RelNode input, boolean streamed,
            boolean root) {
        super(cluster, ConventionTraitDef.INSTANCE, traits, input);
        this.streamed = streamed;
        this.root = root;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new FerryToEnumerableConverter(getCluster(), traitSet, sole(inputs), streamed, root);
    }

    /**
     * This boundary with its rows made as they are read and let go of once read ({@link FerryQuery#execute}), for
     * where they are the statement's result, read once by the client: set when the plan is final, just before it
     * is compiled ({@code FerryPrepare}).
     */
    public FerryToEnumerableConverter streamed() {
        return new FerryToEnumerableConverter(getCluster(), getTraitSet(), getInput(), true, false);
    }

    /**
     * As {@link #streamed}, for a boundary whose rows are the statement's whole result, column for column: its
     * batches may go to a {@link io.ferry.sql.ResultBatches} capture instead of becoming rows.
     */
    public FerryToEnumerableConverter streamedResult() {
        return new FerryToEnumerableConverter(getCluster(), getTraitSet(), getInput(), true, true);
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        return super.computeSelfCost(planner, mq).multiplyBy(0.1);
    }

    /**
     * EXPLAIN shows how the plan would run now: for each point where it crosses the network, the shipping mode per
     * node, both costs and the inputs behind them; then any warning on the quality of its samples. Only for EXPLAIN's writer: digests must not depend on live load.
     */
    @Override
    public RelWriter explainTerms(RelWriter pw) {
        RelWriter w = super.explainTerms(pw);
        FerrySchema schema = pw instanceof RelWriterImpl ? schemaOf(getInput()) : null;
        if (schema != null) {
            PlanNode plan = ColumnPruner.prune(FerryRel.planTree(getInput()));
            List<String> lines = schema.engine().runner().explain(plan, schema.session());
            for (int i = 0; i < lines.size(); i++) {
                w.item("shipping" + i, lines.get(i));
            }
            List<String> warnings = SampleWarnings.of(plan);
            for (int i = 0; i < warnings.size(); i++) {
                w.item("warning" + i, warnings.get(i));
            }
        }
        return w;
    }

    private static FerrySchema schemaOf(RelNode node) {
        if (node instanceof FerryTableScan scan) {
            return scan.ferryTable().schema();
        }
        for (RelNode input : node.getInputs()) {
            FerrySchema s = schemaOf(input);
            if (s != null) {
                return s;
            }
        }
        return null;
    }

    @Override
    public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
        PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(),
                pref.prefer(JavaRowFormat.ARRAY));
        Expression stashed = implementor.stash(query(physType), FerryQuery.class);
        BlockBuilder block = new BlockBuilder();
        Expression rows = Expressions.call(stashed, org.apache.calcite.linq4j.tree.Types.lookupMethod(
                FerryQuery.class, "execute", DataContext.class), implementor.getRootExpression());
        block.add(Expressions.return_(null, rows));
        return implementor.result(physType, block.toBlock());
    }

    private FerryQuery query(PhysType physType) {
        PlanNode plan = ColumnPruner.prune(FerryRel.planTree(getInput()));
        return new FerryQuery(plan, getRowType(), physType.getFormat(), streamed, root);
    }

    /**
     * The statement's rows, for a plan whose root is this boundary, as JDBC reads them (one column's values as they
     * are, several columns' as arrays), without the code Calcite generates and compiles from {@link #implement}:
     * that code only calls {@link FerryQuery#execute}, and generating it took 5–7% of a TPC-DS statement's
     * planning. Null for a result of no columns, which Calcite implements.
     */
    public Bindable<?> bindable(JavaTypeFactory typeFactory) {
        PhysType physType = PhysTypeImpl.of(typeFactory, getRowType(), JavaRowFormat.ARRAY);
        return switch (getRowType().getFieldCount()) {
            case 0 -> null;
            case 1 -> new Values(query(physType), physType.getJavaRowType());
            default -> new Rows(query(physType));
        };
    }

    /** A one-column result: each row is its value, of {@code type}. */
    private record Values(FerryQuery query, Type type) implements Bindable<Object>, Typed {
        @Override
        public Enumerable<Object> bind(DataContext context) {
            return query.execute(context);
        }

        @Override
        public Type getElementType() {
            return type;
        }
    }

    /** A result of several columns: each row is an array of its values. */
    private record Rows(FerryQuery query) implements ArrayBindable {
        @Override
        @SuppressWarnings("unchecked")
        public Enumerable<Object[]> bind(DataContext context) {
            return (Enumerable<Object[]>) (Enumerable<?>) query.execute(context);
        }

        @Override
        public Class<Object[]> getElementType() {
            return Object[].class;
        }
    }

}
