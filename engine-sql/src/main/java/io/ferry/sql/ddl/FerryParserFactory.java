package io.ferry.sql.ddl;

import java.io.Reader;

import org.apache.calcite.server.DdlExecutor;
import org.apache.calcite.sql.parser.SqlAbstractParserImpl;
import org.apache.calcite.sql.parser.SqlParserImplFactory;
import org.apache.calcite.sql.parser.ddl.SqlDdlParserImpl;

/** Calcite's parser with DDL (CREATE TABLE, DROP TABLE), executed by {@link FerryDdlExecutor}. */
public final class FerryParserFactory implements SqlParserImplFactory {
    public static final FerryParserFactory FACTORY = new FerryParserFactory();

    @Override
    public SqlAbstractParserImpl getParser(Reader stream) {
        return SqlDdlParserImpl.FACTORY.getParser(stream);
    }

    @Override
    public DdlExecutor getDdlExecutor() {
        return FerryDdlExecutor.INSTANCE;
    }
}
