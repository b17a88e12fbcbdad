package io.ferry.sql.schema;

import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.impl.AbstractSchema;

import io.ferry.core.storage.Table;
import io.ferry.core.storage.ViewDefinition;
import io.ferry.sql.FerryEngine;
import io.ferry.sql.SessionSettings;
import io.ferry.sql.access.Principal;

/** The tables and views of an engine's catalog, read afresh on every lookup so DDL is visible at once. */
public final class FerrySchema extends AbstractSchema {
    public static final String NAME = "ferry";

    private final FerryEngine engine;
    private final SessionSettings session = new SessionSettings();
    private final Principal principal;

    /** One per connection: it carries the connection's settings and who runs its statements. */
    public FerrySchema(FerryEngine engine, Principal principal) {
        this.engine = engine;
        this.principal = principal;
    }

    /** Who runs the connection's statements. */
    public Principal principal() {
        return principal;
    }

    /** Whether this connection's user sees table or view {@code name} of this schema in listings. */
    public boolean lists(String name) {
        return engine.access().maySee(principal, name);
    }

    /** The Ferry schema of a connection's root schema. */
    public static FerrySchema of(SchemaPlus root) {
        SchemaPlus ferry = root.getSubSchema(NAME);
        if (ferry == null) {
            throw new IllegalStateException("not a Ferry connection: it has no schema " + NAME);
        }
        try {
            return ferry.unwrap(FerrySchema.class);
        } catch (ClassCastException e) {
            throw new IllegalStateException("schema " + NAME + " is not Ferry's", e);
        }
    }

    public FerryEngine engine() {
        return engine;
    }

    /** The connection's settings (SET shipping = ...). */
    public SessionSettings session() {
        return session;
    }

    @Override
    protected Map<String, org.apache.calcite.schema.Table> getTableMap() {
        Map<String, org.apache.calcite.schema.Table> out = new LinkedHashMap<>();
        for (Table t : engine.catalog().tables()) {
            out.put(t.name(), new FerryTable(this, t));
        }
        for (ViewDefinition v : engine.catalog().views()) {
            out.put(v.name(), new FerryView(v));
        }
        return out;
    }

    @Override
    public boolean isMutable() {
        return true;
    }
}
