<#--
  Ferry's DDL and introspection grammar, included into Calcite's Parser.jj template. The DDL statements build
  Calcite's DDL nodes (SqlDdlNodes), which FerryDdlExecutor runs; SHOW and DESCRIBE build queries over
  information_schema (SqlShow).
-->

/** IF NOT EXISTS, or nothing. */
boolean IfNotExistsOpt() :
{
}
{
    <IF> <NOT> <EXISTS> { return true; }
|
    { return false; }
}

/** IF EXISTS, or nothing. */
boolean IfExistsOpt() :
{
}
{
    <IF> <EXISTS> { return true; }
|
    { return false; }
}

/** CASCADE or RESTRICT after a DROP, as PostgreSQL accepts them: true for CASCADE. */
boolean DropBehaviorOpt() :
{
}
{
    <CASCADE> { return true; }
|
    [ <RESTRICT> ] { return false; }
}

/**
 * One element of CREATE TABLE's list: a column (name, type, NOT NULL / NULL, DEFAULT, PRIMARY KEY, UNIQUE), or a
 * table constraint ([CONSTRAINT name] PRIMARY KEY (...) | UNIQUE (...)). A column's PRIMARY KEY or UNIQUE becomes a
 * table constraint over that column.
 */
void TableElement(List<SqlNode> list) :
{
    final SqlIdentifier id;
    final SqlDataTypeSpec type;
    boolean nullable = true;
    SqlNode defaultValue = null;
    SqlIdentifier constraintName = null;
    final SqlNodeList columns;
    final Span s = Span.of();
}
{
    LOOKAHEAD(2) id = SimpleIdentifier() type = DataType()
    (
        <NOT> <NULL> { nullable = false; }
    |
        <NULL> { nullable = true; }
    |
        <DEFAULT_> defaultValue = Expression(ExprContext.ACCEPT_SUB_QUERY)
    |
        <PRIMARY> <KEY> {
            nullable = false;
            list.add(SqlDdlNodes.primary(s.end(this), null, new SqlNodeList(List.of(id), getPos())));
        }
    |
        <UNIQUE> {
            list.add(SqlDdlNodes.unique(s.end(this), null, new SqlNodeList(List.of(id), getPos())));
        }
    )*
    {
        list.add(SqlDdlNodes.column(s.add(id).end(this), id, type.withNullable(nullable), defaultValue,
            defaultValue == null ? (nullable ? ColumnStrategy.NULLABLE : ColumnStrategy.NOT_NULLABLE)
                : ColumnStrategy.DEFAULT));
    }
|
    [ <CONSTRAINT> { s.add(this); } constraintName = SimpleIdentifier() ]
    (
        <PRIMARY> { s.add(this); } <KEY> columns = ParenthesizedSimpleIdentifierList() {
            list.add(SqlDdlNodes.primary(s.end(columns), constraintName, columns));
        }
    |
        <UNIQUE> { s.add(this); } columns = ParenthesizedSimpleIdentifierList() {
            list.add(SqlDdlNodes.unique(s.end(columns), constraintName, columns));
        }
    )
}

SqlNodeList TableElementList() :
{
    final Span s;
    final List<SqlNode> list = new ArrayList<SqlNode>();
}
{
    <LPAREN> { s = span(); }
    TableElement(list)
    ( <COMMA> TableElement(list) )*
    <RPAREN> {
        return new SqlNodeList(list, s.end(this));
    }
}

/** CREATE TABLE [IF NOT EXISTS] name (elements) | [ (elements) ] AS query */
SqlCreate SqlCreateTable(Span s, boolean replace) :
{
    final Map<String, String> tableOptions = new LinkedHashMap<String, String>();
    final boolean ifNotExists;
    final SqlIdentifier id;
    SqlNodeList elements = null;
    SqlNode query = null;
}
{
    <TABLE> ifNotExists = IfNotExistsOpt() id = CompoundIdentifier()
    [ elements = TableElementList() ]
    [ <WITH> <LPAREN> TableOption(tableOptions) ( <COMMA> TableOption(tableOptions) )* <RPAREN> ]
    [ <AS> query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY) ]
    {
        if (tableOptions.isEmpty()) {
            return SqlDdlNodes.createTable(s.end(this), replace, ifNotExists, id, elements, query);
        }
        return new SqlCreateTableWith(s.end(this), replace, ifNotExists, id, elements, query, tableOptions);
    }
}

/** One table option of CREATE TABLE ... WITH (name = 'value', ...). */
void TableOption(Map<String, String> into) :
{
    final SqlIdentifier name;
    final SqlNode value;
}
{
    name = SimpleIdentifier() <EQ> value = StringLiteral()
    {
        into.put(name.getSimple().toLowerCase(java.util.Locale.ROOT), ((SqlLiteral) value).getValueAs(String.class));
    }
}

/** CREATE [OR REPLACE] VIEW name [(columns)] AS query */
SqlCreate SqlCreateView(Span s, boolean replace) :
{
    final SqlIdentifier id;
    SqlNodeList columns = null;
    final SqlNode query;
}
{
    <VIEW> id = CompoundIdentifier()
    [ columns = ParenthesizedSimpleIdentifierList() ]
    <AS> query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY) {
        return SqlDdlNodes.createView(s.end(this), replace, id, columns, query);
    }
}

/** DROP TABLE [IF EXISTS] name [CASCADE | RESTRICT] */
SqlDrop SqlDropTable(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier id;
}
{
    <TABLE> ifExists = IfExistsOpt() id = CompoundIdentifier() DropBehaviorOpt() {
        return SqlDdlNodes.dropTable(s.end(this), ifExists, id);
    }
}

/** DROP VIEW [IF EXISTS] name [CASCADE | RESTRICT] */
SqlDrop SqlDropView(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier id;
}
{
    <VIEW> ifExists = IfExistsOpt() id = CompoundIdentifier() DropBehaviorOpt() {
        return SqlDdlNodes.dropView(s.end(this), ifExists, id);
    }
}

/** CREATE INDEX [IF NOT EXISTS] name ON table (column, ...): a zone-map index (FerryDdlExecutor) */
SqlCreate SqlCreateIndex(Span s, boolean replace) :
{
    final boolean ifNotExists;
    final SqlIdentifier id;
    final SqlIdentifier table;
    final SqlNodeList columns;
}
{
    <INDEX> ifNotExists = IfNotExistsOpt() id = SimpleIdentifier() <ON> table = CompoundIdentifier()
    columns = ParenthesizedSimpleIdentifierList() {
        return new SqlCreateIndex(s.end(this), replace, ifNotExists, id, table, columns);
    }
}

/** DROP INDEX [IF EXISTS] name [CASCADE | RESTRICT] */
SqlDrop SqlDropIndex(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier id;
}
{
    <INDEX> ifExists = IfExistsOpt() id = CompoundIdentifier() DropBehaviorOpt() {
        return new SqlDropIndex(s.end(this), ifExists, id);
    }
}

/** TRUNCATE [TABLE] name */
SqlTruncate SqlTruncateTable(Span s) :
{
    final SqlIdentifier id;
}
{
    [ <TABLE> ] id = CompoundIdentifier() {
        return SqlDdlNodes.truncateTable(s.end(this), id, true);
    }
}

/**
 * ALTER TABLE [IF EXISTS] name, then one of: ADD [COLUMN] [IF NOT EXISTS] column type [NOT NULL | NULL];
 * DROP [COLUMN] [IF EXISTS] column [CASCADE | RESTRICT]; RENAME [COLUMN] column TO new_name; RENAME TO new_name.
 */
SqlNode SqlAlterTable() :
{
    final Span s;
    final boolean ifExists;
    final SqlIdentifier id;
    final boolean ifColumn;
    final SqlIdentifier column;
    final SqlDataTypeSpec type;
    boolean nullable = true;
    final boolean cascade;
    final SqlIdentifier newName;
}
{
    <ALTER> { s = span(); } <TABLE> ifExists = IfExistsOpt() id = CompoundIdentifier()
    (
        <ADD> [ <COLUMN> ] ifColumn = IfNotExistsOpt() column = SimpleIdentifier() type = DataType()
        [ <NOT> <NULL> { nullable = false; } | <NULL> ] {
            return SqlAlterTable.addColumn(s.end(this), ifExists, id, ifColumn, column, type.withNullable(nullable));
        }
    |
        <DROP> [ <COLUMN> ] ifColumn = IfExistsOpt() column = SimpleIdentifier() cascade = DropBehaviorOpt() {
            return SqlAlterTable.dropColumn(s.end(this), ifExists, id, ifColumn, column, cascade);
        }
    |
        <RENAME>
        (
            <TO> newName = SimpleIdentifier() {
                return SqlAlterTable.renameTable(s.end(this), ifExists, id, newName);
            }
        |
            [ <COLUMN> ] column = SimpleIdentifier() <TO> newName = SimpleIdentifier() {
                return SqlAlterTable.renameColumn(s.end(this), ifExists, id, column, newName);
            }
        )
    )
}

/**
 * SHOW TABLES [FROM | IN schema]
 * | SHOW COLUMNS (FROM | IN) table
 * | (DESCRIBE | DESC) [TABLE] table
 */
SqlNode SqlShowStatement() :
{
    final Span s;
    SqlIdentifier id = null;
}
{
    <SHOW> { s = span(); }
    (
        <TABLES> [ ( <FROM> | <IN> ) id = SimpleIdentifier() ] {
            return SqlShow.tables(s.end(this), id);
        }
    |
        <COLUMNS> ( <FROM> | <IN> ) id = CompoundIdentifier() {
            return SqlShow.columns(s.end(this), id);
        }
    )
|
    ( <DESCRIBE> | <DESC> ) { s = span(); } [ <TABLE> ] id = CompoundIdentifier() {
        return SqlShow.columns(s.end(this), id);
    }
}

/**
 * DATE_DIFF in DuckDB's form, {@code DATE_DIFF('day', start, end)}, when the first argument is a string: a call of
 * DATEDIFF, which FerryPrepare resolves. Otherwise BigQuery's form, {@code DATE_DIFF(start, end, DAY)}, as Calcite
 * reads it.
 */
SqlNode DateDiffEitherForm() :
{
    final List<SqlNode> args = new ArrayList<SqlNode>();
    final Span s;
    final SqlIntervalQualifier unit;
}
{
    <DATE_DIFF> { s = span(); }
    <LPAREN>
    AddExpression(args, ExprContext.ACCEPT_SUB_QUERY)
    <COMMA>
    AddExpression(args, ExprContext.ACCEPT_SUB_QUERY)
    <COMMA>
    (
        LOOKAHEAD({ args.get(0) instanceof SqlCharStringLiteral })
        AddExpression(args, ExprContext.ACCEPT_SUB_QUERY)
        <RPAREN> {
            return new SqlUnresolvedFunction(new SqlIdentifier("DATEDIFF", s.pos()), null, null, null, null,
                SqlFunctionCategory.USER_DEFINED_FUNCTION).createCall(s.end(this), args);
        }
    |
        unit = TimeUnitOrName() { args.add(unit); }
        <RPAREN> {
            return SqlLibraryOperators.DATE_DIFF.createCall(s.end(this), args);
        }
    )
}

/**
 * CREATE USER [IF NOT EXISTS] name [WITH] PASSWORD 'secret' [ADMIN] | ALTER USER name [WITH] PASSWORD 'secret'
 * | DROP USER [IF EXISTS] name | GRANT privileges ON [TABLE] tables TO users | REVOKE privileges ON [TABLE] tables
 * FROM users | GRANT ADMIN TO users | REVOKE ADMIN FROM users (SqlAccessStatement).
 */
SqlNode SqlAccessStatement() :
{
    final Span s;
    final boolean ifExists;
    final SqlIdentifier id;
    SqlNode password = null;
    boolean admin = false;
    final boolean grant;
    final Set<Privilege> privileges = EnumSet.noneOf(Privilege.class);
    final List<SqlNode> tables = new ArrayList<SqlNode>();
    final List<SqlNode> users = new ArrayList<SqlNode>();
    SqlIdentifier name;
}
{
    <CREATE> { s = span(); } <USER> ifExists = IfNotExistsOpt() id = SimpleIdentifier() [ <WITH> ]
    (
        <PASSWORD> password = StringLiteral()
    |
        <ADMIN> { admin = true; }
    )*
    {
        return SqlAccessStatement.createUser(s.end(this), ifExists, id, password, admin);
    }
|
    <ALTER> { s = span(); } <USER> id = SimpleIdentifier() [ <WITH> ] <PASSWORD> password = StringLiteral() {
        return SqlAccessStatement.alterUser(s.end(this), id, password);
    }
|
    <DROP> { s = span(); } <USER> ifExists = IfExistsOpt() id = SimpleIdentifier() {
        return SqlAccessStatement.dropUser(s.end(this), ifExists, id);
    }
|
    ( <GRANT> { s = span(); grant = true; } | <REVOKE> { s = span(); grant = false; } )
    (
        <ADMIN> ( <TO> | <FROM> )
        name = SimpleIdentifier() { users.add(name); } ( <COMMA> name = SimpleIdentifier() { users.add(name); } )* {
            return SqlAccessStatement.admin(s.end(this), grant, new SqlNodeList(users, s.end(this)));
        }
    |
        (
            <ALL> [ <PRIVILEGES> ] { privileges.addAll(Privilege.all()); }
        |
            PrivilegeName(privileges) ( <COMMA> PrivilegeName(privileges) )*
        )
        <ON> [ <TABLE> ]
        name = CompoundIdentifier() { tables.add(name); } ( <COMMA> name = CompoundIdentifier() { tables.add(name); } )*
        ( <TO> | <FROM> )
        name = SimpleIdentifier() { users.add(name); } ( <COMMA> name = SimpleIdentifier() { users.add(name); } )* {
            return SqlAccessStatement.privileges(s.end(this), grant, privileges,
                new SqlNodeList(tables, s.end(this)), new SqlNodeList(users, s.end(this)));
        }
    )
}

/** SELECT | INSERT | UPDATE | DELETE, added to {@code into}. */
void PrivilegeName(Set<Privilege> into) :
{
}
{
    <SELECT> { into.add(Privilege.SELECT); }
|
    <INSERT> { into.add(Privilege.INSERT); }
|
    <UPDATE> { into.add(Privilege.UPDATE); }
|
    <DELETE> { into.add(Privilege.DELETE); }
}

/**
 * COPY table FROM 'file' [WITH] [(options)] | COPY table TO 'file' ... | COPY (query) TO 'file' ... (SqlCopy).
 */
SqlNode SqlCopyStatement() :
{
    final Span s;
    SqlIdentifier table = null;
    SqlNode query = null;
    final boolean from;
    final SqlNode file;
    final Map<String, String> settings = new LinkedHashMap<String, String>();
}
{
    <COPY> { s = span(); }
    (
        table = CompoundIdentifier()
        ( <FROM> { from = true; } | <TO> { from = false; } )
    |
        <LPAREN> query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY) <RPAREN> <TO> { from = false; }
    )
    file = StringLiteral()
    [ [ <WITH> ] <LPAREN> CopyOption(settings) ( <COMMA> CopyOption(settings) )* <RPAREN> ]
    {
        return new SqlCopy(s.end(this), table, query, from,
            ((SqlLiteral) file).getValueAs(String.class), settings);
    }
}

/** One COPY option: a name (FORMAT, NULL, or any word), then a value if one follows: a string, a word, TRUE or FALSE. */
void CopyOption(Map<String, String> into) :
{
    final String name;
    String value = null;
    SqlNode literal;
    SqlIdentifier word;
}
{
    (
        <FORMAT> { name = "format"; }
    |
        <NULL> { name = "null"; }
    |
        word = SimpleIdentifier() { name = word.getSimple(); }
    )
    [
        literal = StringLiteral() { value = ((SqlLiteral) literal).getValueAs(String.class); }
    |
        word = SimpleIdentifier() { value = word.getSimple(); }
    |
        <TRUE> { value = "true"; }
    |
        <FALSE> { value = "false"; }
    ]
    {
        SqlCopy.option(into, name, value);
    }
}
