package io.ferry.sql.jdbc;

import static java.util.Objects.requireNonNull;
import static org.apache.calcite.util.Static.RESOURCE;

import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableFilter;
import org.apache.calcite.adapter.enumerable.EnumerableLimit;
import org.apache.calcite.adapter.enumerable.EnumerableProject;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.interpreter.BindableConvention;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.plan.Contexts;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCostFactory;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.CalcitePrepareImpl;
import org.apache.calcite.prepare.CalciteSqlValidator;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.prepare.Prepare.PreparedResult;
import org.apache.calcite.prepare.Prepare.PreparedResultImpl;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.plan.Strong;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.runtime.Bindable;
import org.apache.calcite.runtime.Hook;
import org.apache.calcite.runtime.Typed;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlJdbcFunctionCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlMerge;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.validate.AggregatingSelectScope;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.sql.validate.SqlValidatorTable;
import org.apache.calcite.sql2rel.SqlRexConvertlet;
import org.apache.calcite.sql2rel.SqlRexContext;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.CancelFlag;
import org.apache.calcite.util.Holder;
import org.apache.calcite.util.ImmutableBitSet;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.expr.DatePart;
import io.ferry.core.types.FerryType;
import io.ferry.sql.FerryEngine;
import io.ferry.sql.QueryLog;
import io.ferry.sql.access.Principal;
import io.ferry.sql.access.TableAccess;
import io.ferry.sql.ddl.SqlShow;
import io.ferry.sql.fun.DateFunctions;
import io.ferry.sql.fun.FerryOperatorTable;
import io.ferry.sql.fun.StringFunctions;
import io.ferry.sql.fun.QuantileAggFunction;
import io.ferry.sql.fun.Remainders;
import io.ferry.sql.rel.RowEngineOperators;
import io.ferry.sql.rel.FerryToEnumerableConverter;
import io.ferry.sql.rewrite.BooleanOrderings;
import io.ferry.sql.rewrite.DistinctWindowOrder;
import io.ferry.sql.rewrite.RepeatedGroupingKeys;
import io.ferry.sql.schema.FerrySchema;
import io.ferry.sql.schema.InformationSchema;
import io.ferry.sql.schema.SystemSchema;

/**
 * Calcite's statement preparation with Ferry's planning phases ({@link PlanningProgram}), functions and plan cache.
 */
public final class FerryPrepare extends CalcitePrepareImpl {
    static {
        // Prepare consults this hook before falling back to Calcite's standard program
        Hook.PROGRAM.add((Consumer<Holder<Program>>) holder -> {
            if (holder.get() == null) {
                holder.set(PlanningProgram.create());
            }
        });
    }

    /** Queries reuse the plan of an earlier identical statement while the catalog is unchanged ({@link PlanCache}). */
    @Override
    public <T> CalciteSignature<T> prepareSql(Context context, Query<T> query, Type elementType, long maxRowCount) {
        FerryEngine engine = query.sql == null ? null : engineOf(context.getMutableRootSchema());
        if (engine == null) {
            return super.prepareSql(context, query, elementType, maxRowCount);
        }
        String planFor = ExplainAnalyze.planFor(query.sql);
        if (planFor != null) {
            return prepareSql(context, CalcitePrepare.Query.of(planFor), elementType, maxRowCount);
        }
        long start = System.nanoTime();
        String analyzed = ExplainAnalyze.query(query.sql);
        if (analyzed != null) {
            return explainAnalyze(context, query.sql, CalcitePrepare.Query.of(analyzed), elementType, engine, start);
        }
        // EXPLAIN's distributed lines are made while planning and say what the session's settings chose
        String session = FerrySchema.of(context.getRootSchema().plus()).session().values().toString();
        PlanCache.Key key = PlanCache.key(context, query.sql, elementType, maxRowCount, engine.catalog().version(),
                session);
        PlanCache.Planned<T> planned = engine.plans().get(key);
        boolean cached = planned != null;
        if (!cached) {
            TableAccess[] access = new TableAccess[1];
            CalciteSignature<T> fresh = StatementAccess.collect(
                    () -> planLogged(context, query.sql, query, elementType, maxRowCount, engine, start), access);
            planned = new PlanCache.Planned<>(fresh, access[0], ROW_ENGINE.get());
            if (fresh.statementType == Meta.StatementType.SELECT) {
                engine.plans().put(key, planned);
            }
        }
        CalciteSignature<T> plan = planned.plan();
        // checked now, so that a statement fails when prepared, and again whenever it runs (a REVOKE in between)
        engine.access().check(principal(context), planned.access());
        double planning = millisSince(start);
        if (plan.statementType == Meta.StatementType.SELECT || plan.statementType.canUpdate()) {
            return new LoggedSignature<>(plan, engine.queries(), planning, cached, planned.rowEngine(),
                    engine.access(), planned.access());
        }
        // DDL and SET ran while they were prepared
        engine.queries().start(query.sql, principal(context), planning, cached, null).finished();
        return plan;
    }

    /**
     * Plans {@code query} as Calcite would, with {@code statement} in sys.queries while it is planned, so that a
     * statement that plans for long can be seen (and its cancel); a statement that fails here stays there, failed.
     */
    private <T> CalciteSignature<T> planLogged(Context context, String statement, Query<T> query, Type elementType,
            long maxRowCount, FerryEngine engine, long start) {
        QueryLog.Entry planning = engine.queries().planning(statement, principal(context));
        ROW_ENGINE.remove();
        CalciteSignature<T> plan;
        try {
            plan = super.prepareSql(context, query, elementType, maxRowCount);
        } catch (RuntimeException | Error e) {
            RuntimeException stopped = PlanningCancel.stopped() ? PlanningCancel.cancelled(e) : null;
            planning.failed(stopped != null ? stopped : e, millisSince(start));
            if (stopped != null) {
                throw stopped;
            }
            throw e;
        }
        planning.planned();
        return plan;
    }

    /**
     * {@code EXPLAIN ANALYZE} ({@link ExplainAnalyze}): its query planned fresh, outside the plan cache, keeping the
     * plan Calcite implements for EXPLAIN's text; DDL and SET are refused before Calcite would run them. The statement
     * is one entry of sys.queries, under its own text, with the query's planning time.
     */
    private <T> CalciteSignature<T> explainAnalyze(Context context, String statement, Query<T> query,
            Type elementType, FerryEngine engine, long start) {
        Holder<RelRoot> root = Holder.empty();
        TableAccess[] access = new TableAccess[1];
        CalciteSignature<T> plan;
        try (Hook.Closeable parsed = Hook.PARSE_TREE.addThread(
                    (Consumer<Object[]>) tree -> ExplainAnalyze.check((SqlNode) tree[1]));
                Hook.Closeable implemented = Hook.PLAN_BEFORE_IMPLEMENTATION.addThread((Consumer<RelRoot>) root::set)) {
            plan = StatementAccess.collect(() -> planLogged(context, statement, query, elementType, -1, engine, start),
                    access);
        }
        engine.access().check(principal(context), access[0]);
        double planning = millisSince(start);
        CalciteSignature<T> analyze = ExplainAnalyze.signature(statement, plan, root.get(), planning,
                context.getTypeFactory());
        return new LoggedSignature<>(analyze, engine.queries(), planning, false, ROW_ENGINE.get(), engine.access(),
                access[0]);
    }

    private static double millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e6;
    }

    /** Who runs the statement: the connection's user. */
    private static Principal principal(Context context) {
        return FerrySchema.of(context.getRootSchema().plus()).principal();
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
        RelOptCluster cluster = createCluster(planner, new RexBuilder(javaTypes));
        return new CalcitePreparingStmt(this, context, catalogReader, javaTypes, context.getRootSchema(), prefer,
                cluster, result, createConvertletTable()) {
            /**
             * As Calcite's own, converting IN subqueries as {@link FerrySqlToRelConverter} says, and keeping a join's
             * condition as written. Calcite's conversion moves the expressions of a join condition ({@code
             * CHAR_LENGTH(a1.g) = a2.id}) into a column below the join and projects it away above; a correlated
             * subquery in the SELECT list then read the later relation's columns one place to the right (fuzzer,
             * seed 49 query 2895: a DATE read as a BOOLEAN, and "Decorrelation produced a relation with a different
             * type" for {@code SELECT a2.nn, (SELECT … WHERE b.g = a1.g) FROM sa a1 JOIN sa a2 ON CHAR_LENGTH(a1.g)
             * = a2.id}). The planner's JoinPushExpressionsRule moves them later, after the subqueries are joins. A
             * HAVING clause's filter binds all of its subqueries' variables ({@link HavingCorrelations}).
             */
            @Override
            protected SqlToRelConverter getSqlToRelConverter(SqlValidator validator, Prepare.CatalogReader reader,
                    SqlToRelConverter.Config config) {
                return new FerrySqlToRelConverter(this, validator, reader, cluster, convertletTable,
                        config.withTopDownGeneralDecorrelationEnabled(
                                context.config().topDownGeneralDecorrelationEnabled())
                                .withRelBuilderFactory(RelBuilder.proto(Contexts.of(HavingCorrelations.INSTANCE)))
                                .addRelBuilderConfigTransform(c -> c.withPushJoinCondition(false)));
            }

            @Override
            protected SqlValidator createSqlValidator(Prepare.CatalogReader reader,
                    UnaryOperator<SqlValidator.Config> configTransform) {
                // As Calcite's own, with Ferry's operators after the standard ones. Not the catalog reader's: Ferry's
                // schemas hold tables only, and asking them for every function name of a statement took 3% of the
                // time TPC-DS statements took to plan.
                CalciteConnectionConfig config = context.config();
                SqlOperatorTable operators = SqlOperatorTables.chain(
                        StringFunctions.withoutReplaced(config.fun(SqlOperatorTable.class,
                                SqlStdOperatorTable.instance())),
                        FerryOperatorTable.instance());
                return new FerryValidator(operators, (CalciteCatalogReader) reader, javaTypes,
                        configTransform.apply(SqlValidator.Config.DEFAULT
                                .withLenientOperatorLookup(config.lenientOperatorLookup())
                                .withConformance(config.conformance())
                                .withDefaultNullCollation(config.defaultNullCollation())
                                .withIdentifierExpansion(true)));
            }

            /**
             * Calcite trims unused columns right after conversion, and its simplifier there takes an IN subquery for
             * a comparison of its left operands alone: with a NOT NULL left side it reads
             * {@code (x IN (S)) IS NOT TRUE} as {@code NOT (x IN (S))}, which is NULL, not TRUE, when S holds NULLs.
             * Plans with an IN subquery are trimmed after subquery removal instead (PlanningProgram's TRIM), and
             * so are plans whose trimming fails here (PlanningProgram.trimmed says how).
             */
            @Override
            protected RelRoot trimUnusedFields(RelRoot root) {
                return hasInSubQuery(root.rel) ? root : PlanningProgram.trimmed(root, super::trimUnusedFields);
            }

            /**
             * A plan Ferry runs wholly, its rows read as they are by JDBC ({@link
             * FerryToEnumerableConverter#bindable}), as Calcite's own implementation prepares it, less the code.
             */
            private PreparedResult implemented(RelRoot root, Bindable<?> rows) {
                Hook.PLAN_BEFORE_IMPLEMENTATION.run(root);
                return new PreparedResultImpl(root.rel.getRowType(), requireNonNull(parameterRowType),
                        requireNonNull(fieldOrigins), root.collation.getFieldCollations().isEmpty() ? List.of()
                                : List.of(root.collation), root.rel, null, false) {
                    @Override
                    public String getCode() {
                        throw new UnsupportedOperationException();
                    }

                    @Override
                    public Bindable getBindable(Meta.CursorFactory cursorFactory) {
                        return rows;
                    }

                    @Override
                    public Type getElementType() {
                        return ((Typed) rows).getElementType();
                    }
                };
            }

            /** As Calcite's own, with the rows of a query's result streamed to its reader ({@link #streamed}). */
            @Override
            protected PreparedResult implement(RelRoot root) {
                ROW_ENGINE.set(RowEngineOperators.in(root.rel));
                if (root.kind.belongsTo(SqlKind.DML)) {
                    return super.implement(root);
                }
                if (root.isRefTrivial() && root.rel instanceof FerryToEnumerableConverter boundary) {
                    FerryToEnumerableConverter result = boundary.streamedResult();
                    Bindable<?> rows = prefer == EnumerableRel.Prefer.ARRAY ? result.bindable(javaTypes) : null;
                    return rows != null ? implemented(root, rows) : super.implement(root.withRel(result));
                }
                return super.implement(root.withRel(streamed(root.rel)));
            }
        };
    }

    /**
     * The row-engine operators ({@link RowEngineOperators}) of the plan this thread implemented last: set while a
     * statement is planned, read once {@link #planLogged} returns.
     */
    private static final ThreadLocal<String> ROW_ENGINE = new ThreadLocal<>();

    /**
     * {@code rel} with the Ferry query whose rows are its result streamed ({@link FerryToEnumerableConverter#streamed}):
     * the boundary at its top, or under row-engine operators that read their input once, in order, and pass rows on
     * as they read them (a projection, a filter, a LIMIT). Under anything else (a sort, an aggregate, a window, a
     * join of the row engine) the rows are made at once and kept, as that operator may read them again.
     */
    private static RelNode streamed(RelNode rel) {
        if (rel instanceof FerryToEnumerableConverter boundary) {
            return boundary.streamed();
        }
        if (rel instanceof EnumerableCalc || rel instanceof EnumerableProject || rel instanceof EnumerableFilter
                || rel instanceof EnumerableLimit) {
            RelNode input = streamed(rel.getInput(0));
            return input == rel.getInput(0) ? rel : rel.copy(rel.getTraitSet(), List.of(input));
        }
        return rel;
    }

    private static boolean hasInSubQuery(RelNode rel) {
        boolean[] found = {false};
        RexShuttle finder = new RexShuttle() {
            @Override
            public RexNode visitSubQuery(RexSubQuery subQuery) {
                found[0] |= subQuery.getKind() == SqlKind.IN || hasInSubQuery(subQuery.rel);
                return subQuery;
            }
        };
        rel.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                other.accept(finder);
                return super.visit(other);
            }
        });
        return found[0];
    }

    @Override
    protected RelOptPlanner createPlanner(CalcitePrepare.Context prepareContext, org.apache.calcite.plan.Context externalContext,
            RelOptCostFactory costFactory) {
        // Volcano polls the statement's cancel flag before each rule it fires
        org.apache.calcite.plan.Context cancellable = Contexts.chain(
                Contexts.of(new CancelFlag(PlanningCancel.current())),
                externalContext != null ? externalContext : Contexts.of(prepareContext.config()));
        RelOptPlanner planner = super.createPlanner(prepareContext, cancellable, costFactory);
        PlanningProgram.configure(planner);
        return planner;
    }

    /**
     * A BOOLEAN as text is {@code 'true'} or {@code 'false'}, as in PostgreSQL and DuckDB; Calcite's casts, its
     * constant folding and Ferry's kernels all wrote {@code 'TRUE'}. The cast becomes a CASE, which every engine path
     * runs alike.
     */
    /** A DATE or TIMESTAMP operand converted, as a TIMESTAMP(3). */
    private static RexNode timestamp(SqlRexContext cx, SqlNode operand) {
        RexNode converted = cx.convertExpression(operand);
        RelDataType type = cx.getTypeFactory().createTypeWithNullability(
                cx.getTypeFactory().createSqlType(SqlTypeName.TIMESTAMP, 3), converted.getType().isNullable());
        return cx.getRexBuilder().makeCast(type, converted);
    }

    private static RexNode booleanText(RexBuilder rex, RexNode value, RelDataType to) {
        RexNode text = rex.makeCall(SqlStdOperatorTable.CASE,
                rex.makeCall(SqlStdOperatorTable.IS_TRUE, value), rex.makeLiteral("true"),
                rex.makeCall(SqlStdOperatorTable.IS_FALSE, value), rex.makeLiteral("false"),
                rex.makeNullLiteral(rex.getTypeFactory().createSqlType(SqlTypeName.VARCHAR)));
        return rex.makeCast(to, text);
    }

    /** Calcite's conversion to relational algebra, stopping when the statement is cancelled ({@link PlanningCancel}). */
    @Override
    protected SqlRexConvertletTable createConvertletTable() {
        SqlRexConvertletTable calcite = super.createConvertletTable();
        return call -> {
            PlanningCancel.check();
            if (call.getOperator() == DateFunctions.TIMESTAMP_MINUS) {
                return (cx, c) -> cx.getRexBuilder().makeCall(cx.getValidator().getValidatedNodeType(c),
                        DateFunctions.TIMESTAMP_DIFFERENCE, List.of(timestamp(cx, c.operand(0)),
                        timestamp(cx, c.operand(1))));
            }
            SqlRexConvertlet convertlet = calcite.get(call);
            if (convertlet != null && call.getKind() == SqlKind.MOD) {
                return (cx, c) -> Remainders.converted(cx.getRexBuilder(), convertlet.convertCall(cx, c));
            }
            if (convertlet != null && call.getKind() == SqlKind.AVG && call.operandCount() == 1) {
                return (cx, c) -> {
                    RelDataType arg = cx.getValidator().getValidatedNodeType(c.operand(0));
                    return arg.getSqlTypeName() == SqlTypeName.DECIMAL && arg.getScale() > 0
                            ? decimalAverage(cx, c, arg.getScale()) : convertlet.convertCall(cx, c);
                };
            }
            if (convertlet != null && call.getKind() == SqlKind.CAST) {
                return (cx, c) -> {
                    RexNode converted = convertlet.convertCall(cx, c);
                    RelDataType to = converted.getType();
                    if (!SqlTypeName.CHAR_TYPES.contains(to.getSqlTypeName())) {
                        return converted;
                    }
                    if (converted instanceof RexCall cast && cast.getKind() == SqlKind.CAST
                            && cast.getOperands().get(0).getType().getSqlTypeName() == SqlTypeName.BOOLEAN) {
                        return booleanText(cx.getRexBuilder(), cast.getOperands().get(0), to);
                    }
                    // a literal TRUE or FALSE is cast as it is converted
                    return c.operand(0) instanceof SqlLiteral literal && literal.getTypeName() == SqlTypeName.BOOLEAN
                            ? booleanText(cx.getRexBuilder(), cx.convertExpression(literal), to) : converted;
                };
            }
            if (convertlet == null || !SqlKind.COMPARISON.contains(call.getKind()) && call.getKind() != SqlKind.BETWEEN) {
                return convertlet;
            }
            return (cx, c) -> {
                RexNode converted = convertlet.convertCall(cx, c);
                if (converted.getType().isNullable() && Strong.isNull(converted, ImmutableBitSet.of())) {
                    // a comparison with NULL is NULL: folded before BooleanOrderings hides the NULL operand in a
                    // CASE, where the conversion's own folding (FerrySqlToRelConverter) no longer sees it, and
                    // MAX(b) >= CAST(NULL AS BOOLEAN) in a HAVING failed "Comparison with NULL in
                    // pulledUpPredicates" under a SELECT DISTINCT (fuzzer, seed 95 query 1348)
                    return cx.getRexBuilder().makeNullLiteral(converted.getType());
                }
                return BooleanOrderings.applies(converted)
                        ? converted.accept(new BooleanOrderings(cx.getRexBuilder())) : converted;
            };
        };
    }

    /**
     * AVG of a DECIMAL of scale s where it is expanded into SUM over COUNT (in a window): as {@code CAST(SUM(x) *
     * 10^s AS DOUBLE) / CAST(COUNT(x) * 10^s AS DOUBLE)}, the unscaled sum over the count in one division, as Ferry's
     * aggregate and DuckDB's windowed AVG divide. Calcite's expansion cast the sum to DOUBLE first and divided that,
     * two roundings: three 12.345s averaged 12.344999999999999 beside 12.345 (fuzzer, seed 83 query 853).
     */
    private static RexNode decimalAverage(SqlRexContext cx, SqlCall call, int scale) {
        RexBuilder rex = cx.getRexBuilder();
        SqlNode arg = call.operand(0);
        RexNode sum = cx.convertExpression(SqlStdOperatorTable.SUM.createCall(SqlParserPos.ZERO, arg));
        RexNode count = cx.convertExpression(SqlStdOperatorTable.COUNT.createCall(SqlParserPos.ZERO, arg));
        RexNode unit = rex.makeExactLiteral(BigDecimal.TEN.pow(scale));
        RelDataType dbl = rex.getTypeFactory().createTypeWithNullability(
                rex.getTypeFactory().createSqlType(SqlTypeName.DOUBLE), true);
        RexNode quotient = rex.makeCall(SqlStdOperatorTable.DIVIDE,
                rex.makeCast(dbl, rex.makeCall(SqlStdOperatorTable.MULTIPLY, sum, unit)),
                rex.makeCast(dbl, rex.makeCall(SqlStdOperatorTable.MULTIPLY, count, unit)));
        return rex.ensureType(cx.getValidator().getValidatedNodeType(call), quotient, true);
    }

    /** Planning 256 nested CASE levels takes about half a second, 500 levels 3.5 s, 1000 levels 32 s. */
    static final int MAX_CASE_DEPTH = 256;

    /** How deep CASE expressions nest in {@code node}. */
    static int caseDepth(SqlNode node) {
        if (!(node instanceof SqlCall call)) {
            return node instanceof SqlNodeList list ? list.stream().mapToInt(FerryPrepare::caseDepth).max().orElse(0)
                    : 0;
        }
        int inner = 0;
        for (SqlNode operand : call.getOperandList()) {
            if (operand != null) {
                inner = Math.max(inner, caseDepth(operand));
            }
        }
        return inner + (call instanceof SqlCase ? 1 : 0);
    }

    /**
     * JDBC escapes ({@code {fn ucase(s)}}) name their function in any case, but Calcite looks them up in upper case
     * only, and Ferry's parser folds unquoted names to lower case: the name is upper-cased before validation. Calls
     * Ferry defines otherwise than Calcite (PostgreSQL's functions, PERCENTILE_CONT's type) are replaced here too.
     */
    private static final SqlBasicVisitor<Void> JDBC_ESCAPES = new SqlBasicVisitor<>() {
        @Override
        public Void visit(SqlCall call) {
            if (call.getOperator() instanceof SqlJdbcFunctionCall f && call instanceof SqlBasicCall basic) {
                String name = f.getName().substring("{fn ".length(), f.getName().length() - 1);
                SqlJdbcFunctionCall upper = new SqlJdbcFunctionCall(name.toUpperCase(java.util.Locale.ROOT));
                upper.createCall(call.getParserPosition(), call.getOperandList().toArray(new SqlNode[0]));
                basic.setOperator(upper);
            }
            if (call instanceof SqlBasicCall basic && call.getOperator() instanceof SqlFunction f) {
                postgresFunction(basic, f.getName().toUpperCase(java.util.Locale.ROOT));
            }
            // the parser binds PERCENTILE_CONT and % to Calcite's operators itself, past the operator table
            if (call instanceof SqlBasicCall basic && call.getOperator() == SqlStdOperatorTable.PERCENTILE_CONT) {
                basic.setOperator(QuantileAggFunction.PERCENTILE_CONT);
            }
            if (call instanceof SqlBasicCall basic && call.getOperator() == SqlStdOperatorTable.PERCENT_REMAINDER) {
                basic.setOperator(Remainders.PERCENT);
            }
            if (call instanceof SqlBasicCall basic) {
                for (int i = 0; i < basic.operandCount(); i++) {
                    basic.setOperand(i, widenLiteral(basic.operand(i)));
                }
            }
            return super.visit(call);
        }

        @Override
        public Void visit(SqlNodeList list) {
            for (int i = 0; i < list.size(); i++) {
                list.set(i, widenLiteral(list.get(i)));
            }
            return super.visit(list);
        }
    };

    /**
     * A numeric literal with a fraction that no DECIMAL holds (more than 38 digits, or more than 18 after the point,
     * such as {@code 0.0026848210680345784}) is a DOUBLE, as DuckDB reads one beyond its DECIMAL's 38 digits, rather
     * than an error. An integer stays exact: a BIGINT where it fits one (FerryValidator.validateLiteral), else a
     * DECIMAL of up to 38 digits (DuckDB's HUGEINT, PostgreSQL's numeric), and past that it is out of range (a DOUBLE
     * would silently round it).
     */
    private static SqlNode widenLiteral(SqlNode node) {
        if (node instanceof SqlNumericLiteral n && n.isExact()) {
            BigDecimal value = n.getValueAs(BigDecimal.class);
            boolean integer = value.scale() <= 0;
            if (!integer && (value.scale() > FerryType.MAX_DECIMAL_SCALE
                    || Math.max(value.precision(), value.scale()) > FerryType.MAX_DECIMAL_PRECISION)) {
                return SqlLiteral.createApproxNumeric(value.toString(), n.getParserPosition());
            }
        }
        return node;
    }

    /**
     * PostgreSQL's {@code NOW()} is CURRENT_TIMESTAMP. DuckDB's {@code DATE_PART('unit', x)}, {@code DATE_TRUNC('unit',
     * x)} (a TIMESTAMP, for a DATE too; weeks start on Monday) and {@code DATEDIFF('unit', start, end)} (also spelled
     * DATE_DIFF) and MySQL's {@code DATEDIFF(end, start)} become {@link DateFunctions} over TIMESTAMP(3) arguments,
     * and so does {@code EXTRACT(DOW FROM x)}, which counts from Sunday = 0 in DuckDB and PostgreSQL (Calcite's counts
     * from 1). A unit written as a literal is checked here, so a misspelt one fails before planning (22023).
     */
    private static void postgresFunction(SqlBasicCall call, String name) {
        SqlParserPos pos = call.getParserPosition();
        int arity = call.operandCount();
        if (name.equals("MOD") && arity == 2) {
            call.setOperator(Remainders.MOD);
        } else if (name.equals("NOW") && arity == 0) {
            call.setOperator(SqlStdOperatorTable.CURRENT_TIMESTAMP);
        } else if (name.equals("DATE_TRUNC") && arity == 2 && !(call.operand(1) instanceof SqlIntervalQualifier)) {
            dateFunction(call, DateFunctions.DATE_TRUNC, true);
        } else if (name.equals("DATE_PART") && arity == 2 && !(call.operand(0) instanceof SqlIntervalQualifier)) {
            dateFunction(call, DateFunctions.DATE_PART, false);
        } else if (name.equals("DATEDIFF") && arity == 3 && !(call.operand(0) instanceof SqlIntervalQualifier)) {
            dateFunction(call, DateFunctions.DATEDIFF, true);
        } else if (name.equals("DATEDIFF") && arity == 2) {
            call.setOperator(DateFunctions.DATEDIFF_DAYS);
            castToTimestamps(call, 0);
        } else if (name.equals("EXTRACT") && arity == 2 && call.operand(0) instanceof SqlIntervalQualifier unit
                && unit.timeUnitRange == TimeUnitRange.DOW) {
            call.setOperand(0, SqlLiteral.createCharString("dow", pos));
            dateFunction(call, DateFunctions.DATE_PART, false);
        }
    }

    private static void dateFunction(SqlBasicCall call, SqlOperator function, boolean span) {
        if (call.operand(0) instanceof SqlCharStringLiteral unit) {
            DatePart.of(unit.getValueAs(String.class), function.getName(), span);
        }
        call.setOperator(function);
        castToTimestamps(call, 1);
    }

    /** Casts the operands from {@code from} on to TIMESTAMP(3), the type {@link DateFunctions} take. */
    private static void castToTimestamps(SqlBasicCall call, int from) {
        for (int i = from; i < call.operandCount(); i++) {
            SqlParserPos pos = call.operand(i).getParserPosition();
            call.setOperand(i, SqlStdOperatorTable.CAST.createCall(pos, call.operand(i),
                    new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.TIMESTAMP, 3, pos), pos)));
        }
    }

    /** Calcite's validator, with the literal and complexity rules Ferry needs. */
    private static final class FerryValidator extends CalciteSqlValidator {
        FerryValidator(SqlOperatorTable operators, CalciteCatalogReader reader, JavaTypeFactory types,
                SqlValidator.Config config) {
            super(operators, reader, types, config);
        }

        /**
         * An integer literal that fits a BIGINT is a BIGINT ({@code SqlNumericLiteral} types it so), even with 19
         * digits: Calcite checks every exact literal against the largest DECIMAL precision (18 here) and refused
         * {@code 9223372036854775807}.
         */
        @Override
        public void validateLiteral(SqlLiteral literal) {
            if (literal instanceof SqlNumericLiteral n && n.isExact()) {
                BigDecimal value = n.getValueAs(BigDecimal.class);
                if (value.scale() == 0 && value.unscaledValue().bitLength() < 64) {
                    return;
                }
                // DECIMAL types reach 38 digits: a longer exact literal is out of range (one with a fraction was
                // read as a DOUBLE before validation, widenLiteral)
                if (value.precision() > FerryType.MAX_DECIMAL_PRECISION) {
                    throw newValidationError(literal, RESOURCE.numberLiteralOutOfRange(value.toString()));
                }
            }
            super.validateLiteral(literal);
        }

        /**
         * Date arithmetic as PostgreSQL and DuckDB write it, which Calcite refuses (42804) or types otherwise:
         * <ul>
         *   <li>a DATE plus or minus an interval of hours, minutes or seconds is a TIMESTAMP: Calcite types it DATE,
         *       and {@code DATE '2024-01-01' + INTERVAL '2' HOUR} lost its hours. The DATE is cast to TIMESTAMP;</li>
         *   <li>{@code date - date} is the days between them, a BIGINT ({@code DATEDIFF(end, start)});</li>
         *   <li>{@code timestamp - timestamp} (or a DATE on one side) is the interval between them, a day-time
         *       interval ({@link DateFunctions#TIMESTAMP_MINUS});</li>
         *   <li>{@code date + n}, {@code n + date} and {@code date - n} for an integer n are n days later or
         *       earlier: n becomes {@code n * INTERVAL '1' DAY}.</li>
         * </ul>
         * And {@code CAST(b AS INTEGER)} (or any numeric type) of a BOOLEAN is 1 or 0, NULL for NULL, as in
         * PostgreSQL and DuckDB, where Calcite refuses the cast. {@code EXTRACT(EPOCH FROM i)} of a day-time interval
         * keeps the fraction of its seconds ({@link DateFunctions#INTERVAL_EPOCH}).
         */
        @Override
        public RelDataType deriveType(SqlValidatorScope scope, SqlNode expr) {
            if (expr instanceof SqlBasicCall call && call.operandCount() == 2
                    && (call.getKind() == SqlKind.PLUS
                    || call.getKind() == SqlKind.MINUS)) {
                dateArithmetic(scope, call);
            } else if (expr instanceof SqlBasicCall cast && cast.getKind() == SqlKind.CAST
                    && cast.operandCount() == 2 && cast.operand(1) instanceof SqlDataTypeSpec target) {
                booleanToNumber(scope, cast, target);
            } else if (expr instanceof SqlBasicCall extract && extract.getKind() == SqlKind.EXTRACT
                    && extract.operandCount() == 2 && extract.operand(0) instanceof SqlIntervalQualifier unit
                    && unit.timeUnitRange == TimeUnitRange.EPOCH && deriveType(scope, extract.operand(1))
                    .getSqlTypeName().getFamily() == SqlTypeFamily.INTERVAL_DAY_TIME) {
                extract.setOperator(DateFunctions.INTERVAL_EPOCH);
                extract.setOperand(0, SqlLiteral.createCharString("epoch", unit.getParserPosition()));
            }
            nullableWindowValues(scope, expr);
            wholeShiftOffset(scope, expr);
            return super.deriveType(scope, expr);
        }

        private void dateArithmetic(SqlValidatorScope scope, SqlBasicCall call) {
            boolean minus = call.getKind() == SqlKind.MINUS;
            RelDataType[] types = {deriveType(scope, call.operand(0)), deriveType(scope, call.operand(1))};
            if (minus && types[0].getSqlTypeName() == SqlTypeName.DATE
                    && types[1].getSqlTypeName() == SqlTypeName.DATE) {
                call.setOperator(DateFunctions.DATEDIFF_DAYS);
                castToTimestamps(call, 0);
                return;
            }
            if (minus && isDatetime(types[0]) && isDatetime(types[1])
                    && (types[0].getSqlTypeName() == SqlTypeName.TIMESTAMP
                    || types[1].getSqlTypeName() == SqlTypeName.TIMESTAMP)) {
                call.setOperator(DateFunctions.TIMESTAMP_MINUS);
                return;
            }
            for (int i = 0; i < 2; i++) {
                if (i == 1 && minus) {
                    break; // interval - date is no sum
                }
                SqlTypeName date = types[i].getSqlTypeName();
                RelDataType other = types[1 - i];
                SqlNode operand = call.operand(i);
                SqlParserPos pos = operand.getParserPosition();
                if (date == SqlTypeName.DATE && subDayInterval(other)) {
                    call.setOperand(i, SqlStdOperatorTable.CAST.createCall(pos, operand,
                            new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.TIMESTAMP, pos), pos)));
                } else if (date == SqlTypeName.DATE && SqlTypeName.INT_TYPES.contains(other.getSqlTypeName())) {
                    SqlNode days = call.operand(1 - i);
                    SqlParserPos at = days.getParserPosition();
                    call.setOperand(1 - i, SqlStdOperatorTable.MULTIPLY.createCall(at, days,
                            SqlLiteral.createInterval(1, "1", new SqlIntervalQualifier(TimeUnit.DAY, null, at), at)));
                }
            }
        }

        private void booleanToNumber(SqlValidatorScope scope, SqlBasicCall cast, SqlDataTypeSpec target) {
            SqlNode value = cast.operand(0);
            if (deriveType(scope, value).getSqlTypeName() != SqlTypeName.BOOLEAN
                    || !SqlTypeUtil.isNumeric(target.deriveType(this))) {
                return;
            }
            SqlParserPos pos = value.getParserPosition();
            cast.setOperand(0, new SqlCase(pos, null,
                    SqlNodeList.of(value, SqlStdOperatorTable.NOT.createCall(pos, value)),
                    SqlNodeList.of(SqlLiteral.createExactNumeric("1", pos), SqlLiteral.createExactNumeric("0", pos)),
                    SqlLiteral.createNull(pos)));
        }

        /**
         * {@code LAG(x, n, d)} and LEAD are NULL where the row n away has a NULL x, but Calcite types them NOT NULL
         * when d is, and its row engine then failed with "Cannot convert null to int". Such a default is written
         * {@code CASE WHEN FALSE THEN NULL ELSE d END}, which is d, typed nullable: the call is typed as x and d are.
         * So is NTH_VALUE's argument: the call is NULL where the frame is shorter (fuzzer seed 20240601, query 185).
         */
        private void nullableWindowValues(SqlValidatorScope scope, SqlNode expr) {
            if (!(expr instanceof SqlBasicCall over) || over.getKind() != SqlKind.OVER
                    || !(over.operand(0) instanceof SqlBasicCall call)) {
                return;
            }
            if (call.getKind() == SqlKind.NTH_VALUE && call.operandCount() == 2) {
                // NULL where the frame has fewer rows, but Calcite types it as its argument: a NOT NULL one gave 0
                nullable(call, 0);
                return;
            }
            SqlBasicCall framed = (call.getKind() == SqlKind.IGNORE_NULLS || call.getKind() == SqlKind.RESPECT_NULLS)
                    && call.operand(0) instanceof SqlBasicCall inner ? inner : call;
            if (FRAMED.contains(framed.getKind()) && framed.operandCount() >= 1 && excludes(scope, over.operand(1))) {
                // a frame with EXCLUDE may be empty, where Calcite counts on one that holds the current row never
                // being so: SUM(1) became SUM0 without its NULL, MIN over a NOT NULL column a NOT NULL 0 (fuzzer
                // seed 1805)
                nullable(framed, 0);
                return;
            }
            if (framed.operandCount() != 3 || (framed.getKind() != SqlKind.LAG && framed.getKind() != SqlKind.LEAD)) {
                return;
            }
            // NULL also where the offset is NULL
            if ((super.deriveType(scope, framed.operand(0)).isNullable()
                    || super.deriveType(scope, framed.operand(1)).isNullable())
                    && !super.deriveType(scope, framed.operand(2)).isNullable()) {
                nullable(framed, 2);
            }
        }

        /**
         * LAG and LEAD count rows: an offset that is not a whole number ({@code LAG(x, 2.5)}, a DOUBLE column) is
         * refused, as DuckDB and PostgreSQL refuse it; Calcite took it, and its row engine then failed with XX000 or
         * truncated a column's values to NULLs.
         */
        private void wholeShiftOffset(SqlValidatorScope scope, SqlNode expr) {
            if (!(expr instanceof SqlBasicCall over) || over.getKind() != SqlKind.OVER
                    || !(over.operand(0) instanceof SqlBasicCall call)) {
                return;
            }
            SqlBasicCall shift = (call.getKind() == SqlKind.IGNORE_NULLS || call.getKind() == SqlKind.RESPECT_NULLS)
                    && call.operand(0) instanceof SqlBasicCall inner ? inner : call;
            if ((shift.getKind() != SqlKind.LAG && shift.getKind() != SqlKind.LEAD) || shift.operandCount() < 2) {
                return;
            }
            SqlTypeName offset = super.deriveType(scope, shift.operand(1)).getSqlTypeName();
            if (offset == SqlTypeName.NULL) {
                // an untyped NULL: a BIGINT one, which Ferry's window reads as each row's (NULL) offset
                SqlParserPos pos = shift.operand(1).getParserPosition();
                shift.setOperand(1, SqlStdOperatorTable.CAST.createCall(pos, shift.operand(1),
                        new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.BIGINT, pos), pos)));
            } else if (!SqlTypeName.INT_TYPES.contains(offset)) {
                throw new FerryException(SqlStates.DATATYPE_MISMATCH, shift.getOperator().getName() + "'s offset "
                        + shift.operand(1) + " is " + offset + ": it counts rows, so it must be a whole number "
                        + "(INTEGER or BIGINT); CAST it, or round it with ROUND or FLOOR first");
            }
        }

        /** Window calls whose value is NULL over an empty frame. */
        private static final Set<SqlKind> FRAMED = EnumSet.of(SqlKind.SUM, SqlKind.AVG, SqlKind.MIN, SqlKind.MAX,
                SqlKind.FIRST_VALUE, SqlKind.LAST_VALUE, SqlKind.STDDEV_POP, SqlKind.STDDEV_SAMP, SqlKind.VAR_POP,
                SqlKind.VAR_SAMP);

        /** Whether the window (written in place or named) has an EXCLUDE clause that leaves rows out. */
        private boolean excludes(SqlValidatorScope scope, SqlNode window) {
            SqlLiteral exclude = resolveWindow(window, scope).getExclude();
            return exclude != null && exclude.getValue() instanceof Enum<?> e && !e.name().equals("EXCLUDE_NO_OTHER");
        }

        /**
         * Operand {@code i} of {@code call} as {@code CASE WHEN FALSE THEN NULL ELSE x END}: x, typed nullable. Once:
         * the validator derives a call's type more than once.
         */
        private static void nullable(SqlBasicCall call, int i) {
            SqlNode x = call.operand(i);
            if (x instanceof SqlCase c && c.getWhenOperands().size() == 1
                    && c.getWhenOperands().get(0) instanceof SqlLiteral when && Boolean.FALSE.equals(when.getValue())) {
                return; // wrapped already
            }
            SqlParserPos pos = x.getParserPosition();
            call.setOperand(i, new SqlCase(pos, null, SqlNodeList.of(SqlLiteral.createBoolean(false, pos)),
                    SqlNodeList.of(SqlLiteral.createNull(pos)), x));
        }

        private static boolean isDatetime(RelDataType type) {
            return type.getSqlTypeName() == SqlTypeName.DATE || type.getSqlTypeName() == SqlTypeName.TIMESTAMP;
        }

        private static boolean subDayInterval(RelDataType type) {
            return switch (type.getSqlTypeName()) {
                case INTERVAL_DAY_HOUR, INTERVAL_DAY_MINUTE, INTERVAL_DAY_SECOND, INTERVAL_HOUR, INTERVAL_HOUR_MINUTE,
                        INTERVAL_HOUR_SECOND, INTERVAL_MINUTE, INTERVAL_MINUTE_SECOND, INTERVAL_SECOND -> true;
                default -> false;
            };
        }

        @Override
        public SqlNode validate(SqlNode topNode) {
            int depth = caseDepth(topNode);
            if (depth > MAX_CASE_DEPTH) {
                throw new FerryException(SqlStates.STATEMENT_TOO_COMPLEX, "statement too complex: CASE expressions "
                        + "nest " + depth + " deep, and Ferry plans at most " + MAX_CASE_DEPTH + " nested CASE levels"
                        + " (Calcite's simplifier takes time cubic in the depth); write nested CASEs as one CASE with "
                        + "more WHEN branches");
            }
            topNode.accept(JDBC_ESCAPES);
            if (topNode instanceof SqlShow show) {
                show.resolve(getCatalogReader());
            }
            refuseSystemTargets(topNode);
            return super.validate(topNode);
        }

        /**
         * A HAVING clause typed, with its implicit casts in place, before Calcite checks that it reads only the GROUP
         * BY's expressions. Calcite makes that check between this call and the typing, so a grouped expression whose
         * operands the typing casts ({@code ts NOT IN (TIMESTAMP '1970-01-01 00:00:00', …)} over a TIMESTAMP(3)
         * column: each literal is cast) no longer matched the same expression in the GROUP BY, which was typed, and
         * a valid statement was refused with 42000 "Expression 'ts' is not being grouped" (fuzzer, seed 59 query
         * 2796). The select list is typed before its check, so it matched.
         */
        @Override
        protected void inferUnknownTypes(RelDataType inferredType, SqlValidatorScope scope, SqlNode node) {
            super.inferUnknownTypes(inferredType, scope, node);
            if (scope instanceof AggregatingSelectScope grouped && grouped.getNode().getHaving() == node) {
                deriveType(scope, node);
            }
        }

        /**
         * Calcite's rewrites of NULLIF and COALESCE into CASE, with each repeated subquery a copy of its own; a
         * HAVING clause's negations of IN lists as {@link #negationsAsFalse}; an ORDER BY of windowed items of a
         * SELECT DISTINCT moved outside it ({@link DistinctWindowOrder}); and a ROLLUP or CUBE with a repeated key
         * written as its GROUPING SETS ({@link RepeatedGroupingKeys}).
         */
        @Override
        protected SqlNode performUnconditionalRewrites(SqlNode node, boolean underFrom) {
            SqlNode rewritten = super.performUnconditionalRewrites(DistinctWindowOrder.rewrite(node), underFrom);
            if (rewritten instanceof SqlSelect select && select.getHaving() != null) {
                select.setHaving(negationsAsFalse(select.getHaving()));
            }
            if (rewritten instanceof SqlSelect select) {
                RepeatedGroupingKeys.expand(select);
            }
            return rewritten != node && rewritten instanceof SqlCall ? RepeatedQueries.separate(rewritten) : rewritten;
        }

        /**
         * {@code condition} with each {@code NOT e} that holds an IN (through AND, OR and NOT) written
         * {@code e = FALSE}, the same in three-valued logic. Calcite's conversion pushes a HAVING clause's NOT into
         * its IN lists before it looks the expressions up among the GROUP BY's: {@code GROUP BY (g NOT IN ('x', 'y'))
         * HAVING NOT (g NOT IN ('x', 'y'))} became {@code g IN ('x', 'y')}, which reads g, a column the aggregate
         * does not have (an IndexOutOfBoundsException in planning).
         */
        private static SqlNode negationsAsFalse(SqlNode condition) {
            if (!(condition instanceof SqlBasicCall call) || !SqlUtil.containsIn(call)) {
                return condition;
            }
            switch (call.getKind()) {
                case AND, OR -> {
                    for (int i = 0; i < call.operandCount(); i++) {
                        call.setOperand(i, negationsAsFalse(call.operand(i)));
                    }
                    return call;
                }
                case NOT -> {
                    SqlParserPos pos = call.getParserPosition();
                    return SqlStdOperatorTable.EQUALS.createCall(pos, negationsAsFalse(call.operand(0)),
                            SqlLiteral.createBoolean(false, pos));
                }
                default -> {
                    return call;
                }
            }
        }

        /** Validating a statement of many SELECTs takes seconds: each stops here once the statement is cancelled. */
        @Override
        protected void validateSelect(SqlSelect select, RelDataType targetRowType) {
            PlanningCancel.check();
            // LIMIT and OFFSET are BIGINTs: a larger count is out of range (22003), as in PostgreSQL
            for (SqlNode count : Arrays.asList(select.getFetch(), select.getOffset())) {
                if (count instanceof SqlNumericLiteral n && n.getValueAs(BigDecimal.class).abs()
                        .compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
                    throw newValidationError(count,
                            RESOURCE.numberLiteralOutOfRange(n.getValueAs(BigDecimal.class).toString()));
                }
            }
            super.validateSelect(select, targetRowType);
        }

        /** INSERT, UPDATE, DELETE and MERGE change only the user's tables; sys and information_schema are read-only. */
        private void refuseSystemTargets(SqlNode topNode) {
            SqlNode target = topNode instanceof SqlInsert insert ? insert.getTargetTable()
                    : topNode instanceof SqlUpdate update ? update.getTargetTable()
                    : topNode instanceof SqlDelete delete ? delete.getTargetTable()
                    : topNode instanceof SqlMerge merge ? merge.getTargetTable() : null;
            if (!(target instanceof SqlIdentifier id)) {
                return;
            }
            SqlValidatorTable table = getCatalogReader().getTable(id.names);
            String schema = table == null ? null : table.getQualifiedName().get(0);
            if (SystemSchema.NAME.equals(schema) || InformationSchema.NAME.equals(schema)) {
                throw new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, "table " + String.join(".",
                        table.getQualifiedName()) + " is read-only: the tables of schema " + schema + " describe "
                        + "Ferry itself and change only with it; INSERT, UPDATE and DELETE work on the tables of "
                        + "schema " + FerrySchema.NAME + " (the default)");
            }
        }

        /** Calcite indexes past the target's columns when an INSERT supplies more values than the table has. */
        @Override
        protected RelDataType getLogicalTargetRowType(RelDataType targetRowType, SqlInsert insert) {
            RelDataType sourceRowType = getValidatedNodeTypeIfKnown(insert.getSource());
            int targets = insert.getTargetColumnList() == null ? targetRowType.getFieldCount()
                    : insert.getTargetColumnList().size();
            if (sourceRowType != null && sourceRowType.getFieldCount() > targets) {
                throw new FerryException(SqlStates.SYNTAX_ERROR, "INSERT has more values (" + sourceRowType
                        .getFieldCount() + ") than target columns (" + targets + "); name the columns to fill, as in"
                        + " INSERT INTO t (a, b) VALUES …, or drop the extra values");
            }
            return super.getLogicalTargetRowType(targetRowType, insert);
        }
    }
}
