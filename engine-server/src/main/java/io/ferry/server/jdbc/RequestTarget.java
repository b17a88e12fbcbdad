package io.ferry.server.jdbc;

import java.lang.reflect.Field;

import org.apache.calcite.avatica.Meta.StatementHandle;
import org.apache.calcite.avatica.remote.Service;

/**
 * The connection and statement an Avatica request names. Avatica's request classes share no interface for them, but
 * every one that names a connection has a public {@code connectionId} field, those that name a statement an
 * {@code int statementId}, and ExecuteRequest a {@code statementHandle} with both; read here once per class, so a
 * request type Avatica adds later is covered without a list to keep.
 */
record RequestTarget(String connectionId, Integer statementId) {
    private static final RequestTarget NONE = new RequestTarget(null, null);

    private record Fields(Field connection, Field statement, Field handle) {
    }

    private static final ClassValue<Fields> FIELDS = new ClassValue<>() {
        @Override
        protected Fields computeValue(Class<?> type) {
            return new Fields(field(type, "connectionId", String.class), field(type, "statementId", int.class),
                    field(type, "statementHandle", StatementHandle.class));
        }
    };

    static RequestTarget of(Service.Request request) {
        Fields f = FIELDS.get(request.getClass());
        try {
            if (f.handle() != null && f.handle().get(request) instanceof StatementHandle h) {
                return new RequestTarget(h.connectionId, h.id);
            }
            if (f.connection() == null) {
                return NONE;
            }
            return new RequestTarget((String) f.connection().get(request),
                    f.statement() == null ? null : f.statement().getInt(request));
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot read a public field of " + request.getClass().getName(), e);
        }
    }

    private static Field field(Class<?> type, String name, Class<?> fieldType) {
        try {
            Field f = type.getField(name);
            return f.getType() == fieldType ? f : null;
        } catch (NoSuchFieldException e) {
            return null;
        }
    }
}
