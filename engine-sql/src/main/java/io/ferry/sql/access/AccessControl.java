package io.ferry.sql.access;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import io.ferry.core.FerryException;
import io.ferry.core.FileWrites;
import io.ferry.core.SqlStates;

/**
 * Users, their passwords and their grants, and the checks every statement passes.
 *
 * <p>A server started with a users file ({@code --users FILE}) requires authentication: clients log in as one of its
 * users, and each statement is checked against that user's grants; CREATE/ALTER/DROP USER, GRANT and REVOKE rewrite
 * the file (atomically, readable by the server's user only) before they return. Admins may do everything: DDL, user
 * management, every table. A server without a users file runs {@linkplain #open() open}: every client is the engine's
 * owner, as an embedded connection is, and user management is refused, since nobody could log in as a user made there.
 *
 * <p>The file is lines of tab-separated fields: {@code user NAME admin|- HASH} ({@link PasswordHash}) and
 * {@code grant NAME TABLE PRIVILEGE,...}; {@code #} starts a comment. {@code bin/ferry user} writes the first one.
 */
public final class AccessControl {
    /**
     * A user of the file: the password's hash, whether the user is an admin, and which user of that name this is
     * ({@link Principal#generation}; not kept in the file, as no connection outlives the server).
     */
    public record User(String name, String passwordHash, boolean admin, long generation) {
    }

    private static final AtomicLong GENERATIONS = new AtomicLong();

    /** One row of sys.grants. */
    public record Grant(String user, String table, Privilege privilege) {
    }

    private final Path file;
    /** Guarded by this; replaced, never changed in place, so readers may use a snapshot without the lock. */
    private volatile Map<String, User> users;
    /** Guarded by this: user → table → privileges; replaced on each change like {@link #users}. */
    private volatile Map<String, Map<String, Set<Privilege>>> grants;
    /** Grows with every change, so caches of verified passwords know when to forget. */
    private volatile long version;

    private AccessControl(Path file, Map<String, User> users, Map<String, Map<String, Set<Privilege>>> grants) {
        this.file = file;
        this.users = users;
        this.grants = grants;
    }

    /** No authentication: every client is the owner. */
    public static AccessControl open() {
        return new AccessControl(null, Map.of(), Map.of());
    }

    /**
     * The users and grants of {@code file}, which must hold at least one admin (else nobody could manage the rest).
     *
     * @throws FerryException naming the file and line when it is missing or malformed
     */
    public static AccessControl load(Path file) {
        return read(file, true);
    }

    private static AccessControl read(Path file, boolean needsAdmin) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new FerryException(SqlStates.UNDEFINED_OBJECT, "users file " + file + " does not exist; make it "
                    + "with its first admin: bin/ferry user add NAME --admin --users " + file, e);
        } catch (IOException e) {
            throw new FerryException(SqlStates.IO_ERROR, "cannot read users file " + file + ": " + e.getMessage(), e);
        }
        Map<String, User> users = new TreeMap<>();
        Map<String, Map<String, Set<Privilege>>> grants = new TreeMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] f = lines.get(i).split("\t", -1);
            if (f.length == 4 && f[0].equals("user") && (f[2].equals("admin") || f[2].equals("-"))
                    && !f[1].isEmpty() && PasswordHash.wellFormed(f[3])) {
                users.put(f[1], new User(f[1], f[3], f[2].equals("admin"), GENERATIONS.incrementAndGet()));
            } else if (f.length == 4 && f[0].equals("grant") && users.containsKey(f[1]) && !f[2].isEmpty()
                    && privileges(f[3]) != null) {
                grants.computeIfAbsent(f[1], u -> new TreeMap<>()).put(f[2], privileges(f[3]));
            } else {
                throw new FerryException(SqlStates.DATA_EXCEPTION, "users file " + file + ", line " + (i + 1)
                        + ": expected 'user<TAB>NAME<TAB>admin|-<TAB>" + PasswordHash.SCHEME + "$...' or "
                        + "'grant<TAB>USER<TAB>TABLE<TAB>SELECT,INSERT,...' (a grant after its user); the file is "
                        + "written by bin/ferry user and by the server, edit it with care");
            }
        }
        if (needsAdmin && users.values().stream().noneMatch(User::admin)) {
            throw new FerryException(SqlStates.DATA_EXCEPTION, "users file " + file + " has no admin, so nobody "
                    + "could manage users or tables; add one: bin/ferry user add NAME --admin --users " + file);
        }
        return new AccessControl(file, users, grants);
    }

    /** Adds a user to {@code file} (made if missing); for {@code bin/ferry user add} before the server starts. */
    public static void addToFile(Path file, String name, char[] password, boolean admin) {
        AccessControl access = Files.exists(file) ? read(file, false) : new AccessControl(file, Map.of(), Map.of());
        access.createUser(Principal.owner(), name, password, admin, false);
    }

    /** Sets a user's password in {@code file}; for {@code bin/ferry user passwd}. */
    public static void setPasswordInFile(Path file, String name, char[] password) {
        read(file, false).alterPassword(Principal.owner(), name, password);
    }

    /** Whether clients must log in (a users file is in use). */
    public boolean required() {
        return file != null;
    }

    /** Grows with every change of users or grants. */
    public long version() {
        return version;
    }

    /**
     * The user {@code name} if {@code password} is theirs.
     *
     * @throws FerryException 28P01 for an unknown user or a wrong password (one sentence for both, so a guesser
     *                        learns nothing about which names exist)
     */
    public Principal authenticate(String name, char[] password) {
        User user = users.get(name);
        // an unknown name costs a hash too, so timing does not tell names apart either
        String hash = user != null ? user.passwordHash() : DUMMY_HASH.get();
        if (!PasswordHash.matches(hash, password) || user == null) {
            throw new FerryException(SqlStates.INVALID_PASSWORD, "password authentication failed for user '" + name
                    + "'; check the user name and password (an admin can reset it with ALTER USER " + name
                    + " WITH PASSWORD '...')");
        }
        return Principal.user(name, user.generation());
    }

    /** The current user {@code name} as a principal (for a server's own use, without a password). */
    public Principal principal(String name) {
        return Principal.user(name, require(name).generation());
    }

    private static final Supplier<String> DUMMY_HASH = new Supplier<>() {
        private volatile String hash;

        @Override
        public String get() {
            if (hash == null) {
                hash = PasswordHash.hash("not a password of anyone".toCharArray());
            }
            return hash;
        }
    };

    // ---- checks ---------------------------------------------------------------------------------------------

    /** Fails with 42501 unless {@code who} may do all of {@code access}. */
    public void check(Principal who, TableAccess access) {
        if (who.isOwner()) {
            return;
        }
        User user = existing(who); // a dropped user's open connections can do nothing more
        if (user.admin() || access.needs().isEmpty()) {
            return;
        }
        Map<String, Set<Privilege>> own = grants.getOrDefault(user.name(), Map.of());
        for (TableAccess.Need need : access.needs()) {
            if (!own.getOrDefault(need.table(), Set.of()).contains(need.privilege())) {
                throw new FerryException(SqlStates.INSUFFICIENT_PRIVILEGE, "permission denied: user '"
                        + user.name() + "' may not " + need.privilege().sql() + " " + (need.privilege()
                        == Privilege.SELECT ? "from" : need.privilege() == Privilege.INSERT ? "into" : "in")
                        + " table " + need.table() + "; an admin can allow it with GRANT " + need.privilege().sql()
                        + " ON " + need.table() + " TO " + user.name());
            }
        }
    }

    /** Fails with 42501 unless {@code who} is an admin; {@code what} completes "only an admin may ...". */
    public void requireAdmin(Principal who, String what) {
        if (who.isOwner() || existing(who).admin()) {
            return;
        }
        throw new FerryException(SqlStates.INSUFFICIENT_PRIVILEGE, "permission denied: only an admin may " + what
                + "; user '" + who.user() + "' is not one (an admin can make it one with GRANT ADMIN TO "
                + who.user() + ")");
    }

    /**
     * Whether {@code who} sees table {@code table} in listings (information_schema, JDBC's getTables and getColumns,
     * SHOW TABLES): an admin sees every table, a user those they hold some privilege on, as PostgreSQL's
     * information_schema shows them. A dropped user sees nothing.
     */
    public boolean maySee(Principal who, String table) {
        if (who.isOwner()) {
            return true;
        }
        User user = users.get(who.user());
        if (user == null || user.generation() != who.generation()) {
            return false;
        }
        return user.admin() || !grants.getOrDefault(user.name(), Map.of()).getOrDefault(table, Set.of()).isEmpty();
    }

    /** Whether {@code who} may do everything. */
    public boolean isAdmin(Principal who) {
        return who.isOwner() || existing(who).admin();
    }

    private User existing(Principal who) {
        User user = users.get(who.user());
        if (user == null || user.generation() != who.generation()) {
            throw new FerryException(SqlStates.INVALID_AUTHORIZATION, "user '" + who.user() + "' no longer exists "
                    + "(dropped since this connection logged in); reconnect");
        }
        return user;
    }

    // ---- changes --------------------------------------------------------------------------------------------

    public synchronized void createUser(Principal by, String name, char[] password, boolean admin,
            boolean ifNotExists) {
        managed(by, "create users");
        if (users.containsKey(name)) {
            if (ifNotExists) {
                return;
            }
            throw new FerryException(SqlStates.DUPLICATE_OBJECT, "user '" + name + "' already exists; change its "
                    + "password with ALTER USER " + name + " WITH PASSWORD '...'");
        }
        if (name.isEmpty() || name.chars().anyMatch(c -> c == '\t' || c == '\n' || c == '\r' || c == ':')) {
            throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "a user name may not be empty or hold a tab, "
                    + "a line break or ':' (HTTP authentication separates name and password with ':')");
        }
        String hash = PasswordHash.hash(checkedPassword(password));
        change(put(users, name, new User(name, hash, admin, GENERATIONS.incrementAndGet())), grants);
    }

    public synchronized void alterPassword(Principal by, String name, char[] password) {
        // users may change their own password
        if (by.isOwner() || !name.equals(by.user())) {
            managed(by, "change another user's password");
        }
        User user = require(name);
        change(put(users, name, new User(name, PasswordHash.hash(checkedPassword(password)), user.admin(),
                user.generation())), grants);
    }

    public synchronized void setAdmin(Principal by, String name, boolean admin) {
        managed(by, admin ? "make admins" : "revoke ADMIN");
        User user = require(name);
        if (!admin && user.admin() && users.values().stream().filter(User::admin).count() == 1) {
            throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "user '" + name + "' is the last admin; make "
                    + "another user an admin first (GRANT ADMIN TO ...), or nobody could manage users");
        }
        change(put(users, name, new User(name, user.passwordHash(), admin, user.generation())), grants);
    }

    public synchronized void dropUser(Principal by, String name, boolean ifExists) {
        managed(by, "drop users");
        User user = users.get(name);
        if (user == null) {
            if (ifExists) {
                return;
            }
            throw missingUser(name);
        }
        if (user.admin() && users.values().stream().filter(User::admin).count() == 1) {
            throw new FerryException(SqlStates.DEPENDENT_OBJECTS_STILL_EXIST, "user '" + name + "' is the last "
                    + "admin; make another user an admin first (GRANT ADMIN TO ...), or nobody could manage users");
        }
        Map<String, User> fewer = new TreeMap<>(users);
        fewer.remove(name);
        Map<String, Map<String, Set<Privilege>>> left = new TreeMap<>(grants);
        left.remove(name);
        change(fewer, left);
    }

    /** GRANT privileges ON tables TO users; the tables must exist (checked by the caller). */
    public synchronized void grant(Principal by, Collection<Privilege> privileges, Collection<String> tables,
            Collection<String> grantees) {
        managed(by, "grant privileges");
        changeGrants(privileges, tables, grantees, true);
    }

    public synchronized void revoke(Principal by, Collection<Privilege> privileges, Collection<String> tables,
            Collection<String> grantees) {
        managed(by, "revoke privileges");
        changeGrants(privileges, tables, grantees, false);
    }

    private void changeGrants(Collection<Privilege> privileges, Collection<String> tables,
            Collection<String> grantees, boolean add) {
        grantees.forEach(this::require);
        Map<String, Map<String, Set<Privilege>>> next = copy(grants);
        for (String user : grantees) {
            Map<String, Set<Privilege>> own = next.computeIfAbsent(user, u -> new TreeMap<>());
            for (String table : tables) {
                Set<Privilege> set = EnumSet.noneOf(Privilege.class);
                set.addAll(own.getOrDefault(table, Set.of()));
                if (add) {
                    set.addAll(privileges);
                } else {
                    set.removeAll(privileges);
                }
                if (set.isEmpty()) {
                    own.remove(table);
                } else {
                    own.put(table, Set.copyOf(set));
                }
            }
        }
        next.values().removeIf(Map::isEmpty);
        change(users, next);
    }

    /** A table was dropped: grants on it go (a new table of the same name starts without them, as in PostgreSQL). */
    public synchronized void forgetTable(String table) {
        renameTable(table, null);
    }

    /** A table was renamed: its grants follow it. */
    public synchronized void renameTable(String from, String to) {
        if (grants.values().stream().noneMatch(own -> own.containsKey(from))) {
            return;
        }
        Map<String, Map<String, Set<Privilege>>> next = copy(grants);
        for (Map<String, Set<Privilege>> own : next.values()) {
            Set<Privilege> set = own.remove(from);
            if (set != null && to != null) {
                own.put(to, set);
            }
        }
        next.values().removeIf(Map::isEmpty);
        change(users, next);
    }

    // ---- listings -------------------------------------------------------------------------------------------

    /** The users {@code who} may see: all for an admin, else themselves. */
    public List<User> users(Principal who) {
        return users.values().stream().filter(u -> visible(who, u.name())).toList();
    }

    /** The grants {@code who} may see: all for an admin, else their own. */
    public List<Grant> grants(Principal who) {
        List<Grant> out = new ArrayList<>();
        grants.forEach((user, own) -> {
            if (visible(who, user)) {
                own.forEach((table, set) -> set.stream().sorted().forEach(p -> out.add(new Grant(user, table, p))));
            }
        });
        return out;
    }

    private boolean visible(Principal who, String user) {
        return who.isOwner() || user.equals(who.user()) || (users.containsKey(who.user()) && isAdmin(who));
    }

    // ---- helpers --------------------------------------------------------------------------------------------

    private void managed(Principal by, String what) {
        if (file == null) {
            throw new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, "this server runs without authentication "
                    + "(started without --users), so nobody could log in as a user made here; start it with "
                    + "--users FILE (make the file with bin/ferry user add NAME --admin --users FILE)");
        }
        requireAdmin(by, what);
    }

    private User require(String name) {
        User user = users.get(name);
        if (user == null) {
            throw missingUser(name);
        }
        return user;
    }

    private static FerryException missingUser(String name) {
        return new FerryException(SqlStates.UNDEFINED_OBJECT, "user '" + name + "' does not exist; the users are in "
                + "sys.users");
    }

    private static char[] checkedPassword(char[] password) {
        if (password == null || password.length < 8) {
            throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "a password must have at least 8 characters");
        }
        return password;
    }

    private static Set<Privilege> privileges(String list) {
        Set<Privilege> out = EnumSet.noneOf(Privilege.class);
        for (String word : list.split(",")) {
            try {
                out.add(Privilege.parse(word));
            } catch (IllegalArgumentException e) {
                return null;
            }
        }
        return Set.copyOf(out);
    }

    private static <V> Map<String, V> put(Map<String, V> map, String key, V value) {
        Map<String, V> next = new TreeMap<>(map);
        next.put(key, value);
        return next;
    }

    private static Map<String, Map<String, Set<Privilege>>> copy(Map<String, Map<String, Set<Privilege>>> grants) {
        Map<String, Map<String, Set<Privilege>>> next = new TreeMap<>();
        grants.forEach((user, own) -> next.put(user, new TreeMap<>(own)));
        return next;
    }

    /** Writes the new state to the file, then makes it current; nothing changes if the file cannot be written. */
    private void change(Map<String, User> nextUsers, Map<String, Map<String, Set<Privilege>>> nextGrants) {
        if (file != null) {
            write(nextUsers, nextGrants);
        }
        users = nextUsers;
        grants = nextGrants;
        version++;
    }

    private void write(Map<String, User> nextUsers, Map<String, Map<String, Set<Privilege>>> nextGrants) {
        StringBuilder out = new StringBuilder("# Ferry's users and grants: written by the server on CREATE/ALTER/DROP "
                + "USER, GRANT and REVOKE, and by bin/ferry user.\n# Passwords are PBKDF2 hashes; never put one in "
                + "clear here. Fields are separated by tabs.\n");
        for (User u : nextUsers.values()) {
            out.append("user\t").append(u.name()).append('\t').append(u.admin() ? "admin" : "-").append('\t')
                    .append(u.passwordHash()).append('\n');
        }
        nextGrants.forEach((user, own) -> own.forEach((table, set) -> out.append("grant\t").append(user).append('\t')
                .append(table).append('\t').append(String.join(",", set.stream().sorted().map(Privilege::sql)
                        .toList())).append('\n')));
        try {
            FileWrites.replace(file, stream -> stream.write(out.toString().getBytes(StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new FerryException(SqlStates.IO_ERROR, "cannot write users file " + file + " (nothing was changed): "
                    + e.getMessage(), e);
        }
    }
}
