package io.ferry.sql.access;

/**
 * Who runs a connection's statements: a user of the server's {@link AccessControl}, or the owner of the engine (an
 * embedded connection, or any client of a server that runs without authentication), who may do everything.
 * A user's rights are looked up when each statement runs, so GRANT, REVOKE and DROP USER apply at once; the
 * {@code generation} tells a user from a later one of the same name (DROP USER bob, then CREATE USER bob: the first
 * bob's connections get none of the second's rights).
 */
public record Principal(String user, long generation) {
    private static final Principal OWNER = new Principal(null, 0);

    public static Principal owner() {
        return OWNER;
    }

    public static Principal user(String name, long generation) {
        return new Principal(java.util.Objects.requireNonNull(name, "name is null"), generation);
    }

    public boolean isOwner() {
        return user == null;
    }

    /** The name shown in messages and sys tables. */
    public String displayName() {
        return user == null ? "the engine's owner" : user;
    }
}
