package io.ferry.server.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

class OpenResultsTest {
    @Test
    void aResultLeftUnreadPastTheClientTimeoutIsAbandonedOnce() throws Exception {
        OpenResults results = new OpenResults(Duration.ofMillis(1));
        results.served("c", 1, true);
        results.served("c", 2, false); // read to its end
        Thread.sleep(20);
        List<OpenResults.Open> idle = results.abandonIdle((connection, statement) -> false);
        assertEquals(1, idle.size());
        assertEquals(1, idle.get(0).statementId());
        assertTrue(results.abandoned("c", 1));
        assertFalse(results.abandoned("c", 2));
        assertTrue(results.abandonIdle((connection, statement) -> false).isEmpty(), "abandoned twice");
        results.served("c", 1, false); // run again
        assertFalse(results.abandoned("c", 1));
    }

    @Test
    void aResultBeingFetchedOrRecentlyFetchedStays() throws Exception {
        OpenResults results = new OpenResults(Duration.ofMillis(1));
        results.served("c", 1, true);
        Thread.sleep(20);
        assertTrue(results.abandonIdle((connection, statement) -> true).isEmpty(), "a fetch is being served");
        OpenResults patient = new OpenResults(Duration.ofMinutes(5));
        patient.served("c", 1, true);
        assertTrue(patient.abandonIdle((connection, statement) -> false).isEmpty());
    }

    @Test
    void closingForgetsResults() throws Exception {
        OpenResults results = new OpenResults(Duration.ofMillis(1));
        results.served("c", 1, true);
        results.served("d", 1, true);
        results.forget("c");
        Thread.sleep(20);
        List<OpenResults.Open> idle = results.abandonIdle((connection, statement) -> false);
        assertEquals(List.of("d"), idle.stream().map(OpenResults.Open::connectionId).toList());
        results.forget("d", 1);
        assertFalse(results.abandoned("d", 1));
    }
}
