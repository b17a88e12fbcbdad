package io.ferry.sql.rel;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.plan.Convention;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;

import io.ferry.core.exec.PlanNode;
import io.ferry.core.types.FerryType;
import io.ferry.sql.translate.RexTranslator;

/** A relational operator in Ferry's calling convention: it knows how to become a Ferry {@link PlanNode}. */
public interface FerryRel extends RelNode {
    Convention CONVENTION = new Convention.Impl("FERRY", FerryRel.class);

    /** Ferry operators run vectorized over columnar blocks: priced below Calcite's row-at-a-time ones. */
    double COST_FACTOR = 0.5;

    PlanNode toPlan();

    static PlanNode plan(RelNode input) {
        return ((FerryRel) input).toPlan();
    }

    /**
     * The executable plan of a whole tree of Ferry's operators. Its joins choose their build sides from one metadata
     * query, whose row counts each join below reuses: a query per join estimated every subtree again for each join
     * above it (5% of planning TPC-DS).
     */
    static PlanNode planTree(RelNode root) {
        return JoinSelectivity.sharingQuery(() -> plan(root));
    }

    static List<FerryType> types(RelDataType rowType) {
        List<FerryType> out = new ArrayList<>();
        for (RelDataTypeField f : rowType.getFieldList()) {
            out.add(RexTranslator.type(f.getType()));
        }
        return out;
    }

    /** Whether every column of the row type has a Ferry representation. */
    static boolean supported(RelDataType rowType) {
        for (RelDataTypeField f : rowType.getFieldList()) {
            if (io.ferry.sql.TypeMapping.toFerry(f.getType()) == null) {
                return false;
            }
        }
        return true;
    }
}
