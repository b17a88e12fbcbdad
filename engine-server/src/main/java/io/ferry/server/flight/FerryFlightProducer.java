package io.ferry.server.flight;

import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.arrow.flight.BackpressureStrategy;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.CancelFlightInfoRequest;
import org.apache.arrow.flight.CancelStatus;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.PutResult;
import org.apache.arrow.flight.Result;
import org.apache.arrow.flight.SchemaResult;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.sql.FlightSqlProducer.Schemas;
import org.apache.arrow.flight.sql.NoOpFlightSqlProducer;
import org.apache.arrow.flight.sql.impl.FlightSql.ActionClosePreparedStatementRequest;
import org.apache.arrow.flight.sql.impl.FlightSql.ActionCreatePreparedStatementRequest;
import org.apache.arrow.flight.sql.impl.FlightSql.ActionCreatePreparedStatementResult;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetCatalogs;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetCrossReference;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetDbSchemas;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetExportedKeys;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetImportedKeys;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetPrimaryKeys;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetSqlInfo;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetTableTypes;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetTables;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetXdbcTypeInfo;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandPreparedStatementQuery;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandPreparedStatementUpdate;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementQuery;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementUpdate;
import org.apache.arrow.flight.sql.impl.FlightSql.DoPutPreparedStatementResult;
import org.apache.arrow.flight.sql.impl.FlightSql.DoPutUpdateResult;
import org.apache.arrow.flight.sql.impl.FlightSql.TicketStatementQuery;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;

import io.ferry.core.exec.BatchStream;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.Vector;
import io.ferry.sql.FerryEngine;
import io.ferry.sql.ResultBatches;
import io.ferry.sql.SqlErrors;
import io.ferry.sql.access.Principal;

/**
 * What Ferry's Flight SQL endpoint does for each call. Statements run on engine connections as the user who logged
 * in ({@link FlightStatement}); a result is sent from its own thread, batch by batch as the client takes them, and
 * a result Ferry's engine makes whole goes out as Ferry's batches copied column by column into Arrow
 * ({@link ResultBatches}, {@link ArrowColumns}) — no JDBC row is made. A client that goes away stops its query;
 * statements it leaves open are closed after the server's client timeout. Catalog calls read
 * {@code information_schema} as the user ({@link FlightCatalog}), so they show what the user's grants allow.
 *
 * <p>Errors carry the SQLSTATE and sentence the JDBC port would give, as the status description
 * ({@code "[42P01] table 'x' does not exist ..."}), with a gRPC code that says the same thing in general terms.
 */
final class FerryFlightProducer extends NoOpFlightSqlProducer {
    private static final Logger LOG = LoggerFactory.getLogger(FerryFlightProducer.class);
    private static final AtomicInteger THREADS = new AtomicInteger();

    private final FerryEngine engine;
    private final BufferAllocator allocator;
    private final Duration idleTimeout;
    private final FlightCatalog catalog;
    private final SecureRandom random = new SecureRandom();
    private final Map<ByteString, FlightStatement> statements = new ConcurrentHashMap<>();
    /** Where results are sent from: getStream returns at once, so gRPC can deliver readiness and cancellation. */
    private final ExecutorService senders = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "ferry-flight-send-" + THREADS.incrementAndGet());
        t.setDaemon(true);
        return t;
    });
    private final ScheduledExecutorService sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "ferry-flight-sweep");
        t.setDaemon(true);
        return t;
    });

    FerryFlightProducer(FerryEngine engine, BufferAllocator allocator, Duration idleTimeout) {
        this.engine = engine;
        this.allocator = allocator;
        this.idleTimeout = idleTimeout;
        this.catalog = new FlightCatalog(engine, allocator);
        long every = Math.max(1, Math.min(30, idleTimeout.toSeconds() / 4));
        sweeper.scheduleWithFixedDelay(this::closeIdle, every, every, TimeUnit.SECONDS);
    }

    // ---- statements run once --------------------------------------------------------------------------------

    @Override
    public FlightInfo getFlightInfoStatement(CommandStatementQuery command, CallContext context,
            FlightDescriptor descriptor) {
        FlightStatement s = open(context, command.getQuery(), true);
        ByteString handle = register(s);
        TicketStatementQuery ticket = TicketStatementQuery.newBuilder().setStatementHandle(handle).build();
        return info(s.schema, descriptor, ticket);
    }

    @Override
    public SchemaResult getSchemaStatement(CommandStatementQuery command, CallContext context,
            FlightDescriptor descriptor) {
        try (FlightStatement s = open(context, command.getQuery(), true)) {
            return new SchemaResult(orEmpty(s.schema));
        }
    }

    @Override
    public void getStreamStatement(TicketStatementQuery ticket, CallContext context,
            ServerStreamListener listener) {
        FlightStatement s = owned(ticket.getStatementHandle(), context);
        statements.remove(ticket.getStatementHandle());
        send(s, listener);
    }

    @Override
    public Runnable acceptPutStatement(CommandStatementUpdate command, CallContext context, FlightStream stream,
            StreamListener<PutResult> ack) {
        Principal who = principal(context);
        return () -> {
            try (Connection c = engine.connect(who); Statement st = c.createStatement()) {
                long count = st.executeLargeUpdate(command.getQuery());
                acknowledge(ack, DoPutUpdateResult.newBuilder().setRecordCount(count).build());
            } catch (SQLException | RuntimeException e) {
                ack.onError(failure(e));
            }
        };
    }

    // ---- prepared statements --------------------------------------------------------------------------------

    @Override
    public void createPreparedStatement(ActionCreatePreparedStatementRequest request, CallContext context,
            StreamListener<Result> listener) {
        try {
            FlightStatement s = open(context, request.getQuery(), false);
            ByteString handle = register(s);
            ActionCreatePreparedStatementResult.Builder result = ActionCreatePreparedStatementResult.newBuilder()
                    .setPreparedStatementHandle(handle)
                    .setDatasetSchema(FlightCatalog.ipc(orEmpty(s.schema)));
            Schema parameters = s.parameterSchema();
            if (parameters != null) {
                result.setParameterSchema(FlightCatalog.ipc(parameters));
            }
            listener.onNext(new Result(Any.pack(result.build()).toByteArray()));
            listener.onCompleted();
        } catch (SQLException | RuntimeException e) {
            listener.onError(failure(e));
        }
    }

    @Override
    public void closePreparedStatement(ActionClosePreparedStatementRequest request, CallContext context,
            StreamListener<Result> listener) {
        ByteString handle = request.getPreparedStatementHandle();
        FlightStatement s = statements.get(handle);
        if (s != null && s.owner.equals(principal(context)) && statements.remove(handle, s)) {
            s.close();
        }
        listener.onCompleted();
    }

    @Override
    public Runnable acceptPutPreparedStatementQuery(CommandPreparedStatementQuery command, CallContext context,
            FlightStream stream, StreamListener<PutResult> ack) {
        FlightStatement s = owned(command.getPreparedStatementHandle(), context);
        return () -> {
            try {
                // one execution: the last row of parameters sent is the one bound
                while (stream.next()) {
                    VectorSchemaRoot parameters = stream.getRoot();
                    if (parameters.getRowCount() > 0) {
                        s.bind(parameters, parameters.getRowCount() - 1);
                    }
                }
                s.touch();
                acknowledge(ack, DoPutPreparedStatementResult.newBuilder()
                        .setPreparedStatementHandle(command.getPreparedStatementHandle()).build());
            } catch (SQLException | RuntimeException e) {
                ack.onError(failure(e));
            }
        };
    }

    @Override
    public FlightInfo getFlightInfoPreparedStatement(CommandPreparedStatementQuery command, CallContext context,
            FlightDescriptor descriptor) {
        FlightStatement s = owned(command.getPreparedStatementHandle(), context);
        return info(s.schema, descriptor, command);
    }

    @Override
    public SchemaResult getSchemaPreparedStatement(CommandPreparedStatementQuery command, CallContext context,
            FlightDescriptor descriptor) {
        return new SchemaResult(orEmpty(owned(command.getPreparedStatementHandle(), context).schema));
    }

    @Override
    public void getStreamPreparedStatement(CommandPreparedStatementQuery command, CallContext context,
            ServerStreamListener listener) {
        send(owned(command.getPreparedStatementHandle(), context), listener);
    }

    @Override
    public Runnable acceptPutPreparedStatementUpdate(CommandPreparedStatementUpdate command, CallContext context,
            FlightStream stream, StreamListener<PutResult> ack) {
        FlightStatement s = owned(command.getPreparedStatementHandle(), context);
        return () -> {
            try {
                long count = 0;
                boolean ran = false;
                // each row of parameters is one execution, as JDBC's executeBatch
                while (stream.next()) {
                    VectorSchemaRoot parameters = stream.getRoot();
                    for (int row = 0; row < parameters.getRowCount(); row++) {
                        s.bind(parameters, row);
                        count += s.statement.executeLargeUpdate();
                        ran = true;
                    }
                }
                if (!ran) {
                    count = s.statement.executeLargeUpdate();
                }
                s.touch();
                acknowledge(ack, DoPutUpdateResult.newBuilder().setRecordCount(count).build());
            } catch (SQLException | RuntimeException e) {
                ack.onError(failure(e));
            }
        };
    }

    @Override
    public void cancelFlightInfo(CancelFlightInfoRequest request, CallContext context,
            StreamListener<CancelStatus> listener) {
        CancelStatus status = CancelStatus.NOT_CANCELLABLE;
        Principal who = principal(context);
        for (FlightEndpoint endpoint : request.getInfo().getEndpoints()) {
            ByteString handle = handleOf(endpoint.getTicket());
            FlightStatement s = handle == null ? null : statements.get(handle);
            if (s != null && s.owner.equals(who)) {
                s.cancel();
                status = CancelStatus.CANCELLED;
            }
        }
        listener.onNext(status);
        listener.onCompleted();
    }

    // ---- catalog --------------------------------------------------------------------------------------------

    @Override
    public FlightInfo getFlightInfoCatalogs(CommandGetCatalogs request, CallContext context,
            FlightDescriptor descriptor) {
        return info(Schemas.GET_CATALOGS_SCHEMA, descriptor, request);
    }

    @Override
    public void getStreamCatalogs(CallContext context, ServerStreamListener listener) {
        catalog.catalogs(listener);
    }

    @Override
    public FlightInfo getFlightInfoSchemas(CommandGetDbSchemas request, CallContext context,
            FlightDescriptor descriptor) {
        return info(Schemas.GET_SCHEMAS_SCHEMA, descriptor, request);
    }

    @Override
    public void getStreamSchemas(CommandGetDbSchemas command, CallContext context, ServerStreamListener listener) {
        catalog.schemas(principal(context), command, listener);
    }

    @Override
    public FlightInfo getFlightInfoTables(CommandGetTables request, CallContext context,
            FlightDescriptor descriptor) {
        return info(request.getIncludeSchema() ? Schemas.GET_TABLES_SCHEMA : Schemas.GET_TABLES_SCHEMA_NO_SCHEMA,
                descriptor, request);
    }

    @Override
    public void getStreamTables(CommandGetTables command, CallContext context, ServerStreamListener listener) {
        catalog.tables(principal(context), command, listener);
    }

    @Override
    public FlightInfo getFlightInfoTableTypes(CommandGetTableTypes request, CallContext context,
            FlightDescriptor descriptor) {
        return info(Schemas.GET_TABLE_TYPES_SCHEMA, descriptor, request);
    }

    @Override
    public void getStreamTableTypes(CallContext context, ServerStreamListener listener) {
        catalog.tableTypes(listener);
    }

    @Override
    public FlightInfo getFlightInfoPrimaryKeys(CommandGetPrimaryKeys request, CallContext context,
            FlightDescriptor descriptor) {
        return info(Schemas.GET_PRIMARY_KEYS_SCHEMA, descriptor, request);
    }

    @Override
    public void getStreamPrimaryKeys(CommandGetPrimaryKeys command, CallContext context,
            ServerStreamListener listener) {
        catalog.primaryKeys(principal(context), command, listener);
    }

    @Override
    public FlightInfo getFlightInfoExportedKeys(CommandGetExportedKeys request, CallContext context,
            FlightDescriptor descriptor) {
        return info(Schemas.GET_EXPORTED_KEYS_SCHEMA, descriptor, request);
    }

    @Override
    public void getStreamExportedKeys(CommandGetExportedKeys command, CallContext context,
            ServerStreamListener listener) {
        catalog.empty(Schemas.GET_EXPORTED_KEYS_SCHEMA, listener); // Ferry has no foreign keys
    }

    @Override
    public FlightInfo getFlightInfoImportedKeys(CommandGetImportedKeys request, CallContext context,
            FlightDescriptor descriptor) {
        return info(Schemas.GET_IMPORTED_KEYS_SCHEMA, descriptor, request);
    }

    @Override
    public void getStreamImportedKeys(CommandGetImportedKeys command, CallContext context,
            ServerStreamListener listener) {
        catalog.empty(Schemas.GET_IMPORTED_KEYS_SCHEMA, listener);
    }

    @Override
    public FlightInfo getFlightInfoCrossReference(CommandGetCrossReference request, CallContext context,
            FlightDescriptor descriptor) {
        return info(Schemas.GET_CROSS_REFERENCE_SCHEMA, descriptor, request);
    }

    @Override
    public void getStreamCrossReference(CommandGetCrossReference command, CallContext context,
            ServerStreamListener listener) {
        catalog.empty(Schemas.GET_CROSS_REFERENCE_SCHEMA, listener);
    }

    @Override
    public FlightInfo getFlightInfoTypeInfo(CommandGetXdbcTypeInfo request, CallContext context,
            FlightDescriptor descriptor) {
        return info(Schemas.GET_TYPE_INFO_SCHEMA, descriptor, request);
    }

    @Override
    public void getStreamTypeInfo(CommandGetXdbcTypeInfo request, CallContext context,
            ServerStreamListener listener) {
        catalog.typeInfo(request, listener);
    }

    @Override
    public FlightInfo getFlightInfoSqlInfo(CommandGetSqlInfo request, CallContext context,
            FlightDescriptor descriptor) {
        return info(Schemas.GET_SQL_INFO_SCHEMA, descriptor, request);
    }

    @Override
    public void getStreamSqlInfo(CommandGetSqlInfo command, CallContext context, ServerStreamListener listener) {
        catalog.sqlInfo(command.getInfoList(), listener);
    }

    // ---- sending results ------------------------------------------------------------------------------------

    /** Runs {@code s} and sends its result from a sender thread; a one-off statement is closed after. */
    private void send(FlightStatement s, ServerStreamListener listener) {
        s.running(true);
        senders.execute(() -> {
            try {
                sendResult(s, listener);
            } finally {
                s.running(false);
                if (s.oneShot) {
                    s.close();
                }
            }
        });
    }

    private void sendResult(FlightStatement s, ServerStreamListener listener) {
        BackpressureStrategy backpressure = new BackpressureStrategy.CallbackBackpressureStrategy();
        backpressure.register(listener);
        try (VectorSchemaRoot root = VectorSchemaRoot.create(orEmpty(s.schema), allocator)) {
            listener.start(root);
            if (s.schema == null) {
                s.statement.execute(); // DDL or DML sent as a query: no rows to send
                listener.completed();
                return;
            }
            root.allocateNew();
            try (ResultBatches capture = ResultBatches.capture(); ResultSet rs = s.statement.executeQuery()) {
                BatchStream batches = capture.take();
                if (batches != null) {
                    try (batches) {
                        for (Batch b = batches.next(); b != null; b = batches.next()) {
                            if (b.rowCount() == 0) {
                                continue;
                            }
                            if (!ready(backpressure, listener, s)) {
                                return;
                            }
                            ArrowColumns.fill(b, root);
                            listener.putNext();
                        }
                    }
                } else {
                    while (ready(backpressure, listener, s) && ArrowColumns.fill(rs, root, Vector.MAX_ROWS) > 0) {
                        listener.putNext();
                    }
                    if (listener.isCancelled()) {
                        return;
                    }
                }
            }
            listener.completed();
        } catch (SQLException | RuntimeException e) {
            if (!listener.isCancelled()) {
                listener.error(failure(e));
            }
        }
    }

    /**
     * Waits until the client can take another batch; false when it went away (the query is cancelled) or stopped
     * reading for the idle timeout (the call fails).
     */
    private boolean ready(BackpressureStrategy backpressure, ServerStreamListener listener, FlightStatement s) {
        BackpressureStrategy.WaitResult wait = backpressure.waitForListener(idleTimeout.toMillis());
        s.touch();
        if (wait == BackpressureStrategy.WaitResult.READY) {
            return true;
        }
        s.cancel();
        if (wait != BackpressureStrategy.WaitResult.CANCELLED) {
            listener.error(CallStatus.TIMED_OUT.withDescription("the client read nothing for "
                    + idleTimeout.toSeconds() + " s; the query was stopped").toRuntimeException());
        }
        return false;
    }

    // ---- helpers --------------------------------------------------------------------------------------------

    private FlightStatement open(CallContext context, String sql, boolean oneShot) {
        Principal who = principal(context);
        try {
            FlightStatement s = FlightStatement.prepare(who, sql, oneShot, engine.connect(who));
            Duration limit = engine.config().queryTimeout();
            if (!limit.isZero()) {
                // the server's --query-timeout, as on the JDBC port (57014 when it runs out)
                s.statement.setQueryTimeout((int) Math.max(1, (limit.toMillis() + 999) / 1000));
            }
            return s;
        } catch (SQLException | RuntimeException e) {
            throw failure(e);
        }
    }

    private ByteString register(FlightStatement s) {
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        ByteString handle = ByteString.copyFrom(bytes);
        statements.put(handle, s);
        return handle;
    }

    /** The statement behind {@code handle}, if the caller made it; NOT_FOUND otherwise (a stranger learns nothing). */
    private FlightStatement owned(ByteString handle, CallContext context) {
        FlightStatement s = statements.get(handle);
        if (s == null || !s.owner.equals(principal(context))) {
            throw CallStatus.NOT_FOUND.withDescription("no such statement: it was closed, or it ran once already, "
                    + "or it was idle for more than " + idleTimeout.toSeconds() + " s; prepare it again")
                    .toRuntimeException();
        }
        s.touch();
        return s;
    }

    private static Principal principal(CallContext context) {
        return FlightSqlServer.principal(context.peerIdentity());
    }

    /** A FlightInfo whose one endpoint's ticket is {@code command}, fetched from this server. */
    private static FlightInfo info(Schema schema, FlightDescriptor descriptor, Message command) {
        FlightEndpoint endpoint = new FlightEndpoint(new Ticket(Any.pack(command).toByteArray()));
        return new FlightInfo(orEmpty(schema), descriptor, List.of(endpoint), -1, -1);
    }

    private static Schema orEmpty(Schema schema) {
        return schema != null ? schema : new Schema(List.of());
    }

    private static ByteString handleOf(Ticket ticket) {
        try {
            Any any = Any.parseFrom(ticket.getBytes());
            if (any.is(TicketStatementQuery.class)) {
                return any.unpack(TicketStatementQuery.class).getStatementHandle();
            }
            if (any.is(CommandPreparedStatementQuery.class)) {
                return any.unpack(CommandPreparedStatementQuery.class).getPreparedStatementHandle();
            }
        } catch (InvalidProtocolBufferException e) {
            // not a ticket of ours
        }
        return null;
    }

    private void acknowledge(StreamListener<PutResult> ack, Message result) {
        byte[] bytes = result.toByteArray();
        try (ArrowBuf buf = allocator.buffer(bytes.length)) {
            buf.writeBytes(bytes);
            ack.onNext(PutResult.metadata(buf));
        }
        ack.onCompleted();
    }

    /** An error as a Flight status: the SQLSTATE and sentence the JDBC port would give, and a fitting gRPC code. */
    static FlightRuntimeException failure(Throwable e) {
        if (e instanceof FlightRuntimeException f) {
            return f;
        }
        SqlErrors.Translated t = SqlErrors.translate(e);
        String state = t.sqlState();
        CallStatus code;
        if (state.startsWith("28")) {
            code = CallStatus.UNAUTHENTICATED;
        } else if (state.equals("42501")) {
            code = CallStatus.UNAUTHORIZED;
        } else if (state.equals("57014")) {
            code = CallStatus.CANCELLED;
        } else if (state.equals("0A000")) {
            code = CallStatus.UNIMPLEMENTED;
        } else if (state.startsWith("42") || state.startsWith("22") || state.startsWith("23")
                || state.startsWith("07")) {
            code = CallStatus.INVALID_ARGUMENT;
        } else if (state.startsWith("53") || state.startsWith("54")) {
            code = CallStatus.RESOURCE_EXHAUSTED;
        } else {
            code = CallStatus.INTERNAL;
        }
        if (code == CallStatus.INTERNAL) {
            LOG.warn("Flight SQL call failed with {}", state, e);
        }
        return code.withDescription("[" + state + "] " + t.message()).toRuntimeException();
    }

    private void closeIdle() {
        long limit = idleTimeout.toNanos();
        statements.forEach((handle, s) -> {
            if (s.idleFor(limit) && statements.remove(handle, s)) {
                LOG.info("closed a Flight SQL statement its client left idle for {} s", idleTimeout.toSeconds());
                s.close();
            }
        });
    }

    @Override
    public void close() {
        sweeper.shutdownNow();
        statements.values().forEach(FlightStatement::cancel);
        senders.shutdown();
        try {
            senders.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        statements.values().forEach(FlightStatement::close);
        statements.clear();
        catalog.close();
    }
}
