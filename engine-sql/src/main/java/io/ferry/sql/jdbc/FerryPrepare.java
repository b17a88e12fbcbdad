package io.ferry.sql.jdbc;

import java.lang.reflect.Type;
import java.util.function.UnaryOperator;

import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRules;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.interpreter.BindableConvention;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.CalciteSqlValidator;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.validate.SqlValidator;

import org.apache.calcite.avatica.Meta;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.plan.RelOptCostFactory;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.prepare.CalcitePrepareImpl;
import java.util.function.Consumer;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.runtime.Hook;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.Programs;
import org.apache.calcite.util.Holder;

import io.ferry.sql.FerryEngine;
import io.ferry.sql.fun.FerryOperatorTable;
import io.ferry.sql.rel.FerryRules;
import io.ferry.sql.schema.FerrySchema;

/**
 * Calcite's statement preparation with Ferry's rules in the planner. Calcite's own rewrite of BERNOULLI samples
 * into a RAND() filter is removed: Ferry samples in the scan, deterministically per block and row.
 */
public final class FerryPrepare extends CalcitePrepareImpl {
    static {
        // Calcite's standard program keeps joins in FROM-clause order (its heuristic join ordering starts at six
        // joins), which turns a star join listed dimension-first into cross products. Ferry orders every
        // multi-way inner join by estimated cardinality first (Calcite's LoptOptimizeJoinRule), after subqueries
        // have become joins. Prepare consults this hook before falling back to the standard program.
        Hook.PROGRAM.add((Consumer<Holder<Program>>) holder -> {
            if (holder.get() == null) {
                holder.set(Programs.sequence(Programs.subQuery(DefaultRelMetadataProvider.INSTANCE), joinOrder(),
                        Programs.standard()));
            }
        });
    }

    private static Program joinOrder() {
        HepProgram gather = new HepProgramBuilder()
                .addRuleInstance(CoreRules.FILTER_INTO_JOIN)
                .addMatchOrder(HepMatchOrder.BOTTOM_UP)
                .addRuleInstance(CoreRules.JOIN_TO_MULTI_JOIN)
                .build();
        HepProgram order = new HepProgramBuilder()
                .addRuleInstance(CoreRules.MULTI_JOIN_OPTIMIZE)
                .build();
        Program ordering = Programs.sequence(Programs.of(gather, false, DefaultRelMetadataProvider.INSTANCE),
                Programs.of(order, false, DefaultRelMetadataProvider.INSTANCE));
        return (planner, rel, traits, materializations, lattices) -> RelOptUtil.countJoins(rel) < 2 ? rel
                : ordering.run(planner, rel, traits, materializations, lattices);
    }

    /** Queries reuse the plan of an earlier identical statement while the catalog is unchanged ({@link PlanCache}). */
    @Override
    public <T> CalciteSignature<T> prepareSql(Context context, Query<T> query, Type elementType, long maxRowCount) {
        FerryEngine engine = query.sql == null ? null : engineOf(context.getMutableRootSchema());
        if (engine == null) {
            return super.prepareSql(context, query, elementType, maxRowCount);
        }
        PlanCache.Key key = PlanCache.key(context, query.sql, elementType, maxRowCount, engine.catalog().version());
        CalciteSignature<T> cached = engine.plans().get(key);
        if (cached != null) {
            return cached;
        }
        CalciteSignature<T> plan = super.prepareSql(context, query, elementType, maxRowCount);
        if (plan.statementType == Meta.StatementType.SELECT) {
            engine.plans().put(key, plan);
        }
        return plan;
    }

    /** The engine behind a connection's root schema, or null if it has none. */
    static FerryEngine engineOf(CalciteSchema root) {
        CalciteSchema ferry = root.getSubSchema(FerrySchema.NAME, false);
        return ferry != null && ferry.schema instanceof FerrySchema s ? s.engine() : null;
    }

    /** Calcite's statement preparation, with Ferry's functions ({@link FerryOperatorTable}) known to the validator. */
    @Override
    protected CalcitePreparingStmt getPreparingStmt(Context context, Type elementType,
            CalciteCatalogReader catalogReader, RelOptPlanner planner) {
        JavaTypeFactory javaTypes = context.getTypeFactory();
        EnumerableRel.Prefer prefer = elementType == Object[].class ? EnumerableRel.Prefer.ARRAY
                : EnumerableRel.Prefer.CUSTOM;
        Convention result = enableBindable ? BindableConvention.INSTANCE : EnumerableConvention.INSTANCE;
        return new CalcitePreparingStmt(this, context, catalogReader, javaTypes, context.getRootSchema(), prefer,
                createCluster(planner, new RexBuilder(javaTypes)), result, createConvertletTable()) {
            @Override
            protected SqlValidator createSqlValidator(Prepare.CatalogReader reader,
                    UnaryOperator<SqlValidator.Config> configTransform) {
                // As Calcite's own, with Ferry's operators chained between the standard ones and the schema's
                CalciteConnectionConfig config = context.config();
                SqlOperatorTable operators = SqlOperatorTables.chain(
                        config.fun(SqlOperatorTable.class, SqlStdOperatorTable.instance()),
                        FerryOperatorTable.instance(), reader);
                return new CalciteSqlValidator(operators, (CalciteCatalogReader) reader, javaTypes,
                        configTransform.apply(SqlValidator.Config.DEFAULT
                                .withLenientOperatorLookup(config.lenientOperatorLookup())
                                .withConformance(config.conformance())
                                .withDefaultNullCollation(config.defaultNullCollation())
                                .withIdentifierExpansion(true)));
            }
        };
    }

    @Override
    protected RelOptPlanner createPlanner(CalcitePrepare.Context prepareContext, org.apache.calcite.plan.Context externalContext,
            RelOptCostFactory costFactory) {
        RelOptPlanner planner = super.createPlanner(prepareContext, externalContext, costFactory);
        FerryRules.register(planner);
        planner.removeRule(CoreRules.SAMPLE_TO_FILTER);
        planner.removeRule(EnumerableRules.ENUMERABLE_TABLE_MODIFICATION_RULE);
        // EnumerableValues trips over DECIMAL literals in nullable DOUBLE columns; Ferry's VALUES converts them.
        planner.removeRule(EnumerableRules.ENUMERABLE_VALUES_RULE);
        return planner;
    }
}
