package io.ferry.sql.ddl;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.apache.calcite.sql.SqlDdl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.ferry.sql.access.Privilege;

/**
 * The statements that manage users and grants ({@link FerryDdlExecutor} runs them against the engine's
 * {@link io.ferry.sql.access.AccessControl}):
 *
 * <pre>
 * CREATE USER [IF NOT EXISTS] name [WITH] PASSWORD 'secret' [ADMIN]
 * ALTER USER name [WITH] PASSWORD 'secret'
 * DROP USER [IF EXISTS] name
 * GRANT {ALL [PRIVILEGES] | SELECT | INSERT | UPDATE | DELETE [, ...]} ON [TABLE] table [, ...] TO user [, ...]
 * REVOKE ... ON [TABLE] table [, ...] FROM user [, ...]
 * GRANT ADMIN TO user [, ...]      REVOKE ADMIN FROM user [, ...]
 * </pre>
 *
 * Unparsed, a password is written as {@code '***'}: the text of a statement reaches logs and sys.queries.
 */
public final class SqlAccessStatement extends SqlDdl {
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("USER OR GRANT", SqlKind.OTHER_DDL);

    public enum Action { CREATE_USER, ALTER_USER, DROP_USER, GRANT, REVOKE, GRANT_ADMIN, REVOKE_ADMIN }

    public final Action action;
    /** The user created, altered or dropped; null for GRANT and REVOKE. */
    public final SqlIdentifier user;
    /** The new password, a character literal; null where none is given. */
    public final SqlNode password;
    public final boolean admin;
    /** IF NOT EXISTS on CREATE, IF EXISTS on DROP. */
    public final boolean ifExists;
    /** GRANT and REVOKE: the privileges, tables and grantees. */
    public final Set<Privilege> privileges;
    public final SqlNodeList tables;
    public final SqlNodeList grantees;

    private SqlAccessStatement(SqlParserPos pos, Action action, SqlIdentifier user, SqlNode password, boolean admin,
            boolean ifExists, Set<Privilege> privileges, SqlNodeList tables, SqlNodeList grantees) {
        super(OPERATOR, pos);
        this.action = action;
        this.user = user;
        this.password = password;
        this.admin = admin;
        this.ifExists = ifExists;
        this.privileges = privileges;
        this.tables = tables;
        this.grantees = grantees;
    }

    public static SqlAccessStatement createUser(SqlParserPos pos, boolean ifNotExists, SqlIdentifier user,
            SqlNode password, boolean admin) {
        return new SqlAccessStatement(pos, Action.CREATE_USER, user, password, admin, ifNotExists, Set.of(), null,
                null);
    }

    public static SqlAccessStatement alterUser(SqlParserPos pos, SqlIdentifier user, SqlNode password) {
        return new SqlAccessStatement(pos, Action.ALTER_USER, user, password, false, false, Set.of(), null, null);
    }

    public static SqlAccessStatement dropUser(SqlParserPos pos, boolean ifExists, SqlIdentifier user) {
        return new SqlAccessStatement(pos, Action.DROP_USER, user, null, false, ifExists, Set.of(), null, null);
    }

    /** GRANT or REVOKE of table privileges. */
    public static SqlAccessStatement privileges(SqlParserPos pos, boolean grant, Set<Privilege> privileges,
            SqlNodeList tables, SqlNodeList grantees) {
        return new SqlAccessStatement(pos, grant ? Action.GRANT : Action.REVOKE, null, null, false, false,
                Set.copyOf(privileges), tables, grantees);
    }

    /** GRANT ADMIN TO or REVOKE ADMIN FROM. */
    public static SqlAccessStatement admin(SqlParserPos pos, boolean grant, SqlNodeList grantees) {
        return new SqlAccessStatement(pos, grant ? Action.GRANT_ADMIN : Action.REVOKE_ADMIN, null, null, grant,
                false, Set.of(), null, grantees);
    }

    /** The password's text; null if the statement sets none. */
    public String passwordText() {
        return password == null ? null : ((SqlLiteral) password).getValueAs(String.class);
    }

    @Override
    public List<SqlNode> getOperandList() {
        List<SqlNode> operands = new ArrayList<>();
        for (SqlNode n : new SqlNode[] {user, tables, grantees}) {
            if (n != null) {
                operands.add(n);
            }
        }
        return operands;
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        switch (action) {
            case CREATE_USER, ALTER_USER, DROP_USER -> {
                writer.keyword(action == Action.CREATE_USER ? "CREATE USER" : action == Action.ALTER_USER
                        ? "ALTER USER" : "DROP USER");
                if (ifExists) {
                    writer.keyword(action == Action.CREATE_USER ? "IF NOT EXISTS" : "IF EXISTS");
                }
                user.unparse(writer, leftPrec, rightPrec);
                if (password != null) {
                    writer.keyword("PASSWORD");
                    writer.literal("'***'");
                }
                if (admin) {
                    writer.keyword("ADMIN");
                }
            }
            default -> {
                boolean grant = action == Action.GRANT || action == Action.GRANT_ADMIN;
                writer.keyword(grant ? "GRANT" : "REVOKE");
                if (tables == null) {
                    writer.keyword("ADMIN");
                } else {
                    writer.keyword(String.join(", ", privileges.stream().sorted().map(Privilege::sql).toList()));
                    writer.keyword("ON");
                    tables.unparse(writer, 0, 0);
                }
                writer.keyword(grant ? "TO" : "FROM");
                grantees.unparse(writer, 0, 0);
            }
        }
    }
}
