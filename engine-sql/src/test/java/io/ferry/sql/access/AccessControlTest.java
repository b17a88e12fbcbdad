package io.ferry.sql.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.core.FerryException;
import io.ferry.sql.EngineConfig;
import io.ferry.sql.FerryEngine;

/** Users, grants and their file, and the SQL that manages them on an embedded engine. */
class AccessControlTest {
    @TempDir
    Path dir;

    private AccessControl withAdmin() {
        Path file = dir.resolve("users");
        AccessControl.addToFile(file, "admin", "admin password".toCharArray(), true);
        return AccessControl.load(file);
    }

    @Test
    void hashesAreSaltedAndVerifyOnlyTheirPassword() {
        String a = PasswordHash.hash("same password".toCharArray());
        String b = PasswordHash.hash("same password".toCharArray());
        assertNotEquals(a, b, "a fresh salt each time");
        assertTrue(PasswordHash.matches(a, "same password".toCharArray()));
        assertFalse(PasswordHash.matches(a, "same passwore".toCharArray()));
        assertTrue(PasswordHash.wellFormed(a));
    }

    @Test
    void authenticationTellsNoNamesApart() {
        AccessControl access = withAdmin();
        access.createUser(access.principal("admin"), "zed", "zed's password".toCharArray(), false, false);
        assertEquals("zed", access.authenticate("zed", "zed's password".toCharArray()).user());
        FerryException wrong = assertThrows(FerryException.class,
                () -> access.authenticate("zed", "nope".toCharArray()));
        FerryException unknown = assertThrows(FerryException.class,
                () -> access.authenticate("qqq", "nope".toCharArray()));
        assertEquals("28P01", wrong.sqlState());
        assertEquals("28P01", unknown.sqlState());
        assertEquals(wrong.getMessage().replace("zed", "X"), unknown.getMessage().replace("qqq", "X"));
    }

    @Test
    void grantsAddUpAndRevokesTakeAway() {
        AccessControl access = withAdmin();
        Principal admin = access.principal("admin");
        access.createUser(admin, "ann", "ann's password".toCharArray(), false, false);
        Principal ann = access.principal("ann");
        TableAccess read = new TableAccess(Set.of(new TableAccess.Need("t", Privilege.SELECT)));
        TableAccess write = new TableAccess(Set.of(new TableAccess.Need("t", Privilege.INSERT)));
        assertEquals("42501", assertThrows(FerryException.class, () -> access.check(ann, read)).sqlState());
        access.grant(admin, Set.of(Privilege.SELECT), List.of("t"), List.of("ann"));
        access.check(ann, read);
        assertThrows(FerryException.class, () -> access.check(ann, write));
        access.grant(admin, Privilege.all(), List.of("t"), List.of("ann"));
        access.check(ann, write);
        access.revoke(admin, Set.of(Privilege.INSERT), List.of("t"), List.of("ann"));
        access.check(ann, read);
        assertThrows(FerryException.class, () -> access.check(ann, write));
        access.renameTable("t", "u");
        assertThrows(FerryException.class, () -> access.check(ann, read));
        access.check(ann, new TableAccess(Set.of(new TableAccess.Need("u", Privilege.SELECT))));
        access.forgetTable("u");
        assertTrue(access.grants(admin).isEmpty());
        // only an admin manages; a user sees only its own rows
        assertEquals("42501", assertThrows(FerryException.class,
                () -> access.createUser(ann, "bob", "bob's password".toCharArray(), false, false)).sqlState());
        assertEquals(List.of("ann"), access.users(ann).stream().map(AccessControl.User::name).toList());
        assertEquals(List.of("admin", "ann"), access.users(admin).stream().map(AccessControl.User::name).toList());
    }

    @Test
    void aMalformedFileIsRefusedWithItsLine() throws Exception {
        Path file = dir.resolve("bad");
        Files.writeString(file, "# comment\nuser\tadmin\tadmin\tnot-a-hash\n");
        FerryException e = assertThrows(FerryException.class, () -> AccessControl.load(file));
        assertTrue(e.getMessage().contains("line 2"), e.getMessage());
        Path noAdmin = dir.resolve("no-admin");
        AccessControl.addToFile(noAdmin, "ann", "ann's password".toCharArray(), false);
        assertTrue(assertThrows(FerryException.class, () -> AccessControl.load(noAdmin)).getMessage()
                .contains("has no admin"));
        assertEquals("42704", assertThrows(FerryException.class,
                () -> AccessControl.load(dir.resolve("missing"))).sqlState());
    }

    @Test
    void anEngineWithoutUsersRefusesToManageThem() throws SQLException {
        try (FerryEngine engine = FerryEngine.start(EngineConfig.defaults().withThreads(1).withMemoryLimit(64L << 20));
                Connection c = engine.connect(); Statement s = c.createStatement()) {
            SQLException e = assertThrows(SQLException.class,
                    () -> s.execute("CREATE USER ann WITH PASSWORD 'ann password'"));
            assertEquals("0A000", e.getSQLState());
            assertTrue(e.getMessage().contains("--users"), e.getMessage());
        }
    }

    @Test
    void userStatementsParseAndRun() throws SQLException {
        try (FerryEngine engine = FerryEngine.start(EngineConfig.defaults().withThreads(1).withMemoryLimit(64L << 20))) {
            engine.setAccess(withAdmin());
            try (Connection c = engine.connect(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE t (k INTEGER)");
                s.execute("CREATE USER IF NOT EXISTS ann WITH PASSWORD 'ann password'");
                s.execute("CREATE USER IF NOT EXISTS ann WITH PASSWORD 'other password'");
                s.execute("CREATE USER bob PASSWORD 'bob password' ADMIN");
                s.execute("GRANT SELECT, INSERT ON TABLE t TO ann, bob");
                s.execute("REVOKE INSERT ON t FROM bob");
                s.execute("REVOKE ADMIN FROM bob");
                s.execute("GRANT ADMIN TO ann");
                s.execute("ALTER USER bob WITH PASSWORD 'new bob password'");
                assertEquals("admin:admin,ann:admin,bob:user", rows(s, "SELECT user_name || ':' || CASE WHEN admin "
                        + "THEN 'admin' ELSE 'user' END FROM sys.users ORDER BY admin DESC, user_name"));
                assertEquals("ann/t/INSERT,ann/t/SELECT,bob/t/SELECT", rows(s, "SELECT user_name || '/' || "
                        + "table_name || '/' || privilege FROM sys.grants ORDER BY 1"));
                s.execute("DROP USER IF EXISTS nobody");
                s.execute("DROP USER bob");
                s.execute("DROP TABLE t");
                assertEquals("", rows(s, "SELECT user_name FROM sys.grants"));
                assertEquals("admin,ann", rows(s, "SELECT user_name FROM sys.users WHERE admin ORDER BY user_name"));
            }
            assertEquals("ann", engine.access().authenticate("ann", "ann password".toCharArray()).user());
        }
    }

    private static String rows(Statement s, String sql) throws SQLException {
        StringBuilder out = new StringBuilder();
        try (ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.append(out.length() == 0 ? "" : ",").append(rs.getString(1));
            }
        }
        return out.toString();
    }
}
