package io.ferry.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

class SqlScriptTest {
    @Test
    void splitsAtSemicolonsOutsideLiteralsIdentifiersAndComments() {
        assertEquals(List.of("SELECT 1", "SELECT 'a;b', \"c;d\"", "SELECT 'it''s; fine'"),
                SqlScript.split("SELECT 1; SELECT 'a;b', \"c;d\";\nSELECT 'it''s; fine'"));
        assertEquals(List.of("SELECT 1 -- one; two", "SELECT /* ; */ 2"),
                SqlScript.split("SELECT 1 -- one; two\n; SELECT /* ; */ 2;"));
    }

    @Test
    void dropsEmptyStatementsAndLoneComments() {
        assertEquals(List.of("SELECT 1"), SqlScript.split(";; SELECT 1 ;;\n -- done\n"));
        assertEquals(List.of(), SqlScript.split("  ; /* nothing */ ;"));
    }
}
