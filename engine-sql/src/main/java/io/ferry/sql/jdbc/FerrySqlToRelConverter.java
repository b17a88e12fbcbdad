package io.ferry.sql.jdbc;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.google.common.collect.ImmutableList;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptPredicateList;
import org.apache.calcite.plan.Strong;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.hint.RelHint;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalValues;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexExecutor;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSimplify;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.util.ImmutableBitSet;
import org.checkerframework.checker.nullness.qual.Nullable;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.sql.rewrite.ConstantRows;

/**
 * Calcite's conversion of SQL to relational algebra, with each {@code x IN (S)} subquery's operands typed nullable
 * where S's column they are compared with is, and calls that are NULL whatever their other operands hold folded to
 * NULL as they are built ({@link #nullCallFolded}).
 *
 * <p>Calcite's simplifier decides whether a boolean can be NULL with {@code RelOptPredicateList.isEffectivelyNotNull},
 * which takes an IN subquery for a comparison of its operands alone: with NOT NULL operands it reads {@code (x IN
 * (S)) IS NOT TRUE} and {@code IS FALSE} as {@code NOT (x IN (S))}, which is NULL, not TRUE, for an x that S lacks
 * when S holds a NULL (fuzzer, seed 45 query 4743: {@code (-7.75E0 IN (SELECT d …)) IS NOT TRUE}; seed 42 q14608).
 * The IN's own type is right (nullable, from S's column); its operands are not, so the operand compared with a
 * nullable column is cast to its nullable type, which every simplification before subquery removal then sees. The
 * cast changes no value, and the simplifier drops it once the subquery has become a join.
 */
final class FerrySqlToRelConverter extends SqlToRelConverter {
    FerrySqlToRelConverter(RelOptTable.ViewExpander views, SqlValidator validator, Prepare.CatalogReader catalog,
            RelOptCluster cluster, SqlRexConvertletTable convertlets, Config config) {
        super(views, validator, catalog, cluster, convertlets, config);
    }

    /**
     * Calcite's validator does not look into a subquery of a grouped SELECT for the outer query's columns, and its
     * conversion then fails an assertion on one the GROUP BY lacks ({@code … GROUP BY a + 1 HAVING EXISTS (SELECT 1
     * FROM t u WHERE u.a = t.a)}, an internal error): invalid SQL, which PostgreSQL and DuckDB refuse too, and which
     * Ferry refuses as its validator does an ungrouped column elsewhere. A grouped row read two subqueries deep is read
     * by its group keys ({@link GroupedRowReads}).
     */
    @Override
    public RelRoot convertQuery(SqlNode query, boolean needsValidation, boolean top) {
        try {
            RelRoot root = super.convertQuery(query, needsValidation, top);
            return root.withRel(GroupedRowReads.repaired(root.rel, rexBuilder));
        } catch (AssertionError e) {
            Matcher m = NOT_GROUPED.matcher(String.valueOf(e.getMessage()));
            if (!m.matches()) {
                throw e;
            }
            throw new FerryException(SqlStates.SYNTAX_OR_ACCESS_RULE, "Expression '" + m.group(1) + "' is not being "
                    + "grouped: a subquery of the grouped SELECT reads it; add it to the GROUP BY or aggregate it");
        }
    }

    private static final Pattern NOT_GROUPED = Pattern.compile("Identifier '([^']*)' is not a group expr");

    /** As Calcite's, noting the table read for the statement's grants ({@link StatementAccess}). */
    @Override
    public RelNode toRel(RelOptTable table, List<RelHint> hints) {
        return StatementAccess.reading(table, () -> super.toRel(table, hints));
    }

    /** As Calcite's, noting the table an INSERT, UPDATE, DELETE or MERGE changes ({@link StatementAccess}). */
    @Override
    protected RelOptTable getTargetTable(SqlNode call) {
        RelOptTable table = super.getTargetTable(call);
        StatementAccess.changing(table, call.getKind());
        return table;
    }

    /**
     * A VALUES list (a query's, or an INSERT's rows) whose cells are literals, or literals the validator cast to
     * their column's type ({@code 12.5} into a DOUBLE column), as one LogicalValues of its folded literals. Calcite
     * takes a cast for an expression and makes each such row a projection of a one-row VALUES, all of them a UNION:
     * an INSERT of 1000 rows of three columns spent 145–170 ms planning where the same rows as DOUBLE literals took
     * 24–68 ms. All cells are folded by one call to the planner's executor (Ferry's kernels, {@code FerryRexExecutor}:
     * the values the cast computes at run time, to the bit). Anything else (an expression, a parameter, DEFAULT, a
     * NULL, a cell that does not fold) takes Calcite's way.
     */
    @Override
    public RelNode convertValues(SqlCall values, @Nullable RelDataType targetRowType) {
        RelNode folded = literalRows(values, targetRowType);
        return folded != null ? folded : super.convertValues(values, targetRowType);
    }

    private @Nullable RelNode literalRows(SqlCall values, @Nullable RelDataType targetRowType) {
        RexExecutor executor = cluster.getPlanner().getExecutor();
        RelDataType listType = validator.getValidatedNodeTypeIfKnown(values);
        if (executor == null || listType == null || !listType.isStruct()) {
            return null;
        }
        int width = listType.getFieldCount();
        if (targetRowType != null && targetRowType.getFieldCount() != width) {
            return null;
        }
        List<SqlNode> rows = values.getOperandList();
        boolean cast = false;
        for (SqlNode row : rows) {
            if (row.getKind() != SqlKind.ROW || ((SqlCall) row).operandCount() != width) {
                return null;
            }
            for (SqlNode cell : ((SqlCall) row).getOperandList()) {
                if (!castLiteral(cell)) {
                    return null;
                }
                cast |= cell.getKind() == SqlKind.CAST;
            }
        }
        if (!cast) {
            return null; // Calcite makes a list of plain literals one VALUES itself
        }
        Blackboard bb = createBlackboard(validator.getOverScope(values), null, false);
        List<RexNode> cells = new ArrayList<>(rows.size() * width);
        for (SqlNode row : rows) {
            for (SqlNode cell : ((SqlCall) row).getOperandList()) {
                cells.add(bb.convertExpression(cell));
            }
        }
        List<RelDataTypeField> fields = listType.getFieldList();
        ImmutableList<ImmutableList<RexLiteral>> tuples = ConstantRows.folded(executor, rexBuilder, cells, width,
                (i, literal) -> !literal.isNull() && SqlTypeUtil.equalSansNullability(typeFactory,
                        literal.getType(), fields.get(i).getType()));
        if (tuples == null) {
            return null;
        }
        // the list's types, with the target columns' nullability, as Calcite types the VALUES it makes
        RelDataTypeFactory.Builder rowType = typeFactory.builder();
        for (int i = 0; i < width; i++) {
            RelDataType type = fields.get(i).getType();
            if (targetRowType != null) {
                type = typeFactory.createTypeWithNullability(type,
                        targetRowType.getFieldList().get(i).getType().isNullable());
            }
            rowType.add(fields.get(i).getName(), type);
        }
        return LogicalValues.create(cluster, rowType.build(), tuples);
    }

    /** A literal, or a literal under casts. */
    private static boolean castLiteral(SqlNode cell) {
        SqlNode node = cell;
        while (node.getKind() == SqlKind.CAST) {
            node = ((SqlCall) node).operand(0);
        }
        return node instanceof SqlLiteral literal && literal.getTypeName() != SqlTypeName.NULL
                && literal.getTypeName() != SqlTypeName.SYMBOL;
    }

    /**
     * The statement's columns cast to nullable where the validator typed them nullable and the conversion NOT NULL.
     * With grouping sets the validator makes nullable every select item that reads a rolled-up column, while the
     * conversion finds the item itself among the keys that no set rolls up: {@code SELECT id * 7 … GROUP BY
     * ROLLUP(id), id * 7} failed Calcite's check that the two agree (XX000 "Conversion to relational algebra failed
     * to preserve datatypes", fuzzer seed 201 query 915). Nullable is the wider type, and the values are the same.
     */
    @Override
    protected RelRoot convertQueryRecursive(SqlNode query, boolean top, @Nullable RelDataType targetRowType) {
        RelRoot root = super.convertQueryRecursive(query, top, targetRowType);
        RelDataType validated = top && !query.isA(SqlKind.DML) ? validator.getValidatedNodeTypeIfKnown(query) : null;
        if (validated == null || root.rel.getRowType().getFieldCount() < validated.getFieldCount()) {
            return root;
        }
        List<RelDataTypeField> converted = root.rel.getRowType().getFieldList();
        List<RexNode> columns = new ArrayList<>();
        boolean widened = false;
        for (int i = 0; i < converted.size(); i++) {
            RelDataType from = converted.get(i).getType();
            RexNode column = rexBuilder.makeInputRef(from, i);
            if (i < validated.getFieldCount()) {
                RelDataType to = validated.getFieldList().get(i).getType();
                if (to.isNullable() && !from.isNullable()
                        && to.equals(typeFactory.createTypeWithNullability(from, true))) {
                    column = rexBuilder.makeCast(to, column, true, false);
                    widened = true;
                }
            }
            columns.add(column);
        }
        return widened ? root.withRel(LogicalProject.create(root.rel, List.of(), columns,
                root.rel.getRowType().getFieldNames(), Set.of())) : root;
    }

    @Override
    protected Blackboard createBlackboard(SqlValidatorScope scope, @Nullable Map<String, RexNode> nameToNodeMap,
            boolean top) {
        return new Blackboard(scope, nameToNodeMap, top) {
            @Override
            public RexNode convertExpression(SqlNode expr) {
                // each operand of a call is converted through here before the call is built and simplified
                RexNode e = withNullableInOperands(super.convertExpression(expr), rexBuilder);
                // a BETWEEN is converted to its two comparisons in one step
                return expr.getKind() == SqlKind.BETWEEN ? e.accept(new RexShuttle() {
                    @Override
                    public RexNode visitCall(RexCall call) {
                        return nullCallFolded(super.visitCall(call), rexBuilder, simplifier());
                    }
                }) : nullCallFolded(e, rexBuilder, simplifier());
            }
        };
    }

    /** Calcite's simplifier with the planner's executor (Ferry's kernels fold constants: {@code FerryRexExecutor}). */
    private RexSimplify simplifier() {
        RexExecutor executor = cluster.getPlanner().getExecutor();
        return new RexSimplify(rexBuilder, RelOptPredicateList.EMPTY, executor != null ? executor : RexUtil.EXECUTOR);
    }

    /**
     * NULL for {@code e}, a call that is NULL whatever its other operands hold ({@code x <= CAST(NULL AS INTEGER)}
     * from a BETWEEN, {@code (CAST(NULL AS DECIMAL(12,2)) - -0.001) < 0}), as Ferry's planning folds them later
     * ({@code NullCalls}). Left in place, such a comparison in a filter below a SELECT DISTINCT failed the conversion
     * itself: the check whether the DISTINCT's input is already unique derives the filter's predicates, and Calcite
     * refuses a predicate that compares with NULL (an AssertionError, "Comparison with NULL in pulledUpPredicates":
     * fuzzer, seed 49 queries 3336 and 3384).
     *
     * <p>A CASE that becomes NULL only once its conditions are folded is NULL too: {@code NULLIF(0.0E0, 0.0E0)} is
     * a CASE of {@code 0.0E0 = 0.0E0}, and the HAVING's simplification, after the comparison above it was built,
     * made it {@code NULL = MIN(…)}, which failed the same check under a SELECT DISTINCT (fuzzer, seed 60 query
     * 2268). Folded here, the comparison above it sees a NULL operand and is folded as the first paragraph says.
     * So is any call of constants that simplifies to NULL: {@code 100.0 IN (0.00, CAST(NULL AS DECIMAL(12,2)))},
     * an OR of two comparisons, one FALSE and one NULL, compared with {@code MAX(f)} in the HAVING of a SELECT
     * DISTINCT (fuzzer, seeds 112 query 1249 and 130 query 2684).
     */
    static RexNode nullCallFolded(RexNode e, RexBuilder rex, RexSimplify simplifier) {
        if (e instanceof RexCall call && e.getKind() == SqlKind.CASE && unreachableWhens(call)) {
            // CASE WHEN FALSE THEN s WHEN FALSE THEN g END, whose simplification to NULL under a BETWEEN made
            // Calcite's simplifier itself derive predicates from comparisons with NULL (seed 49 query 3384)
            RexNode otherwise = call.getOperands().get(call.getOperands().size() - 1);
            return RexUtil.isNullLiteral(otherwise, true) ? rex.makeNullLiteral(e.getType())
                    : rex.makeCast(e.getType(), otherwise, true, false);
        }
        if ((e.getKind() == SqlKind.CASE || RexUtil.isConstant(e) && RexUtil.isDeterministic(e))
                && e instanceof RexCall && e.getType().isNullable()
                && RexUtil.isNullLiteral(simplifier.simplifyPreservingType(e), true)) {
            return rex.makeNullLiteral(e.getType());
        }
        if (e instanceof RexCall && !(e instanceof RexSubQuery) && e.getType().isNullable()
                && Strong.isNull(e, ImmutableBitSet.of())) {
            return rex.makeNullLiteral(e.getType());
        }
        return e;
    }

    /** Whether every WHEN of a CASE is FALSE or NULL literally. */
    private static boolean unreachableWhens(RexCall caseCall) {
        List<RexNode> operands = caseCall.getOperands();
        for (int i = 0; i < operands.size() - 1; i += 2) {
            if (!operands.get(i).isAlwaysFalse() && !RexUtil.isNullLiteral(operands.get(i), true)) {
                return false;
            }
        }
        return true;
    }

    /** {@code e}, an IN subquery or its negation (NOT IN), with the operands cast as the class comment says. */
    static RexNode withNullableInOperands(RexNode e, RexBuilder rex) {
        if (e instanceof RexSubQuery in && in.getKind() == SqlKind.IN) {
            return nullableOperands(in, rex);
        }
        if (e.getKind() == SqlKind.NOT && ((RexCall) e).getOperands().get(0) instanceof RexSubQuery in
                && in.getKind() == SqlKind.IN) {
            RexSubQuery typed = nullableOperands(in, rex);
            return typed == in ? e : rex.makeCall(SqlStdOperatorTable.NOT, typed);
        }
        return e;
    }

    private static RexSubQuery nullableOperands(RexSubQuery in, RexBuilder rex) {
        List<RexNode> operands = new ArrayList<>(in.getOperands());
        boolean cast = false;
        for (int i = 0; i < operands.size(); i++) {
            RexNode operand = operands.get(i);
            if (!operand.getType().isNullable() && in.rel.getRowType().getFieldList().get(i).getType().isNullable()) {
                RelDataType nullable = rex.getTypeFactory().createTypeWithNullability(operand.getType(), true);
                operands.set(i, rex.makeAbstractCast(nullable, operand));
                cast = true;
            }
        }
        return cast ? in.clone(in.getType(), operands) : in;
    }
}
