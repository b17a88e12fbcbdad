package io.ferry.sql.ddl;

import java.io.Reader;

import org.apache.calcite.server.DdlExecutor;
import org.apache.calcite.sql.parser.SqlAbstractParserImpl;
import org.apache.calcite.sql.parser.SqlParserImplFactory;

import io.ferry.sql.parser.impl.FerrySqlParserImpl;

/**
 * Ferry's SQL parser, generated at build time from Calcite's grammar (src/main/codegen): Calcite's SQL with Ferry's
 * DDL, whose statements {@link FerryDdlExecutor} runs, and with common words (value, year, date, count, …) usable
 * as names.
 */
public final class FerryParserFactory implements SqlParserImplFactory {
    public static final FerryParserFactory FACTORY = new FerryParserFactory();

    @Override
    public SqlAbstractParserImpl getParser(Reader stream) {
        return FerrySqlParserImpl.FACTORY.getParser(stream);
    }

    @Override
    public DdlExecutor getDdlExecutor() {
        return FerryDdlExecutor.INSTANCE;
    }
}
