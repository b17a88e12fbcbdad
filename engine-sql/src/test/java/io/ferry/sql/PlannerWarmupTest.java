package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The warm-up's corpus plans and runs, every statement of it (a statement the engine stopped accepting would warm
 * nothing up), in an engine of its own: the users' engine shows none of its tables, and its memory is returned.
 */
class PlannerWarmupTest {
    @Test
    void everyStatementOfTheCorpusPlansAndRunsInAPrivateEngine() throws SQLException {
        try (FerryEngine users = FerryEngine.start(EngineConfig.defaults().withPlannerWarmup(false));
             Connection c = users.connect()) {
            List<String> failed = PlannerWarmup.run(1);
            assertEquals(List.of(), failed);
            try (ResultSet rs = c.getMetaData().getTables(null, null, "%", new String[] {"TABLE"})) {
                assertFalse(rs.next(), "the warm-up's tables stay in its own engine");
            }
            assertTrue(PlannerWarmup.STATEMENTS.size() >= 15, "a corpus of the shapes users write");
        }
    }
}
