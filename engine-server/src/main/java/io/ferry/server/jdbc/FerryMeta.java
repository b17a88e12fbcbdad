package io.ferry.server.jdbc;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import org.apache.calcite.avatica.AvaticaSeverity;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.ConnectionPropertiesImpl;
import org.apache.calcite.avatica.MissingResultsException;
import org.apache.calcite.avatica.NoSuchConnectionException;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.QueryState;
import org.apache.calcite.avatica.jdbc.JdbcMeta;
import org.apache.calcite.avatica.jdbc.StatementInfo;
import org.apache.calcite.avatica.proto.Requests;
import org.apache.calcite.avatica.remote.AvaticaRuntimeException;
import org.apache.calcite.avatica.remote.Service;
import org.apache.calcite.avatica.remote.TypedValue;
import org.apache.calcite.jdbc.CalciteConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.sql.QueryWarnings;
import io.ferry.sql.SqlErrors;
import io.ferry.sql.access.Principal;
import io.ferry.sql.jdbc.FerryDriver;
import io.ferry.sql.jdbc.StatementText;
import io.ferry.sql.schema.FerrySchema;

/**
 * What the JDBC server does for each Avatica request: Avatica's {@link JdbcMeta} over the engine's embedded
 * connection (Calcite's own {@code CalciteMetaImpl} cannot answer metadata over protobuf), with three changes.
 *
 * <ul>
 *   <li>Every failure reaches the client as an {@link AvaticaRuntimeException} carrying the SQLSTATE and sentence
 *       of {@link SqlErrors#translate}; that is the only exception whose state Avatica puts on the wire, so without
 *       it every error would arrive as state 00000 and a Java stack trace.</li>
 *   <li>Metadata result sets are built here from the embedded connection's {@link DatabaseMetaData} and reshaped
 *       where Calcite's answers would mislead a SQL client ({@link MetadataRows}).</li>
 *   <li>Of the properties a client sends, only {@code user} is passed to the embedded driver (the rest would reach
 *       Calcite, whose connection properties name classes and files to load); on a server with users, the embedded
 *       connection runs as the user the client logged in as ({@link AuthenticationGuard}), and only that user may
 *       use the connection and its statements ({@link #denial}).</li>
 * </ul>
 */
final class FerryMeta extends JdbcMeta {
    private static final Logger LOG = LoggerFactory.getLogger(FerryMeta.class);

    /** Avatica's vendor code for "no particular code"; its client treats code 1 as a lost connection. */
    private static final int NO_ERROR_CODE = -1;

    private static final Set<String> CLIENT_PROPERTIES = Set.of("user");

    /** Who sent the request being answered on this thread ({@link #as}). */
    private static final ThreadLocal<Client> CLIENT = new ThreadLocal<>();

    /** Who opened each connection, by its id. */
    private final Map<String, Client> owners = new ConcurrentHashMap<>();
    /** Connections whose owner the last sweep found without a connection ({@link #forgetExpiredOwners}). */
    private final Set<String> goneOnce = ConcurrentHashMap.newKeySet();

    /**
     * A client: the user it logged in as, and the digest of the credentials it sent ({@link AuthenticationGuard});
     * null credentials when the server has no users.
     */
    record Client(Principal user, String credentials) {
    }

    /** The warnings of each statement's last execution, by {@link #key}, while it has any. */
    private final Map<String, List<String>> warnings = new ConcurrentHashMap<>();

    private final StatementThreads threads = new StatementThreads();

    private final OpenResults results;
    private final ScheduledExecutorService watch = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "ferry-client-watch");
        t.setDaemon(true);
        return t;
    });

    /** The server-wide limit on a statement's planning and running; zero for none. */
    private final Duration queryTimeout;

    FerryMeta(String embeddedUrl, Duration clientTimeout, Duration queryTimeout) throws SQLException {
        super(embeddedUrl, cacheSettings());
        this.results = new OpenResults(clientTimeout);
        this.queryTimeout = queryTimeout;
        watch.scheduleWithFixedDelay(this::watchClients, 1, 1, TimeUnit.SECONDS);
    }

    /**
     * Once a second: requests whose connection is gone (closed, or expired from Avatica's cache) stop, and results
     * their client stopped fetching are abandoned ({@link OpenResults}): their query is cancelled and their result
     * set closed.
     */
    private void watchClients() {
        try {
            threads.stop(r -> getConnectionCache().getIfPresent(r.connectionId()) == null);
            forgetExpiredOwners();
            for (OpenResults.Open r : results.abandonIdle(threads::serving)) {
                StatementInfo info = getStatementCache().getIfPresent(r.statementId());
                if (info != null) {
                    abandon(info);
                    LOG.info("abandoned the result of statement {} of connection {}: its client fetched none of it "
                            + "for {} s", r.statementId(), r.connectionId(), results.clientTimeout().toSeconds());
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("watching clients failed: {}", e.toString());
        }
    }

    /**
     * Owners of connections Avatica's cache expired: forgotten at the second sweep that finds the connection gone, as
     * a connection being opened has its owner before Avatica caches it.
     */
    private void forgetExpiredOwners() {
        for (String id : owners.keySet()) {
            if (getConnectionCache().getIfPresent(id) != null) {
                goneOnce.remove(id);
            } else if (!goneOnce.add(id)) {
                owners.remove(id);
                goneOnce.remove(id);
            }
        }
    }

    private static void abandon(StatementInfo info) {
        stopFlag(info).set(true);
        try {
            ResultSet rs = info.getResultSet();
            if (rs != null) {
                rs.close();
            }
        } catch (SQLException | RuntimeException e) {
            LOG.warn("closing an abandoned result failed: {}", e.toString());
        }
    }

    /** Notes an execution's result for {@link OpenResults}; the result, its columns sized as JDBC says. */
    private ExecuteResult served(StatementHandle h, ExecuteResult result) {
        boolean more = false;
        for (MetaResultSet rs : result.resultSets) {
            more |= rs.firstFrame != null && !rs.firstFrame.done;
        }
        results.served(h.connectionId, h.id, more);
        List<MetaResultSet> sized = result.resultSets.stream().map(FerryMeta::sized).toList();
        return sized.equals(result.resultSets) ? result : new ExecuteResult(sized);
    }

    /** {@code rs} with its columns sized as JDBC says ({@link ResultColumns}); itself where they are already. */
    private static MetaResultSet sized(MetaResultSet rs) {
        Signature signature = ResultColumns.withJdbcSizes(rs.signature);
        return signature == rs.signature ? rs : MetaResultSet.create(rs.connectionId, rs.statementId,
                rs.ownStatement, signature, rs.firstFrame, rs.updateCount);
    }

    /**
     * Avatica drops a connection idle for 10 minutes and a statement idle for 5 by default; a BI tool left open over
     * lunch would then fail its next query. An hour for both; closed connections are freed at once regardless.
     */
    private static Properties cacheSettings() {
        Properties p = new Properties();
        p.setProperty(ConnectionCacheSettings.EXPIRY_DURATION.key(), "60");
        p.setProperty(ConnectionCacheSettings.EXPIRY_UNIT.key(), "MINUTES");
        p.setProperty(StatementCacheSettings.EXPIRY_DURATION.key(), "60");
        p.setProperty(StatementCacheSettings.EXPIRY_UNIT.key(), "MINUTES");
        return p;
    }

    /** Stops what runs, then closes every connection clients left open (and so their statements and result sets). */
    void closeAll() {
        stopAll();
        for (Connection c : getConnectionCache().asMap().values()) {
            try {
                c.close();
            } catch (SQLException | RuntimeException e) {
                LOG.warn("closing a client connection failed: {}", e.toString());
            }
        }
        getStatementCache().invalidateAll();
        getConnectionCache().invalidateAll();
        watch.shutdownNow();
        threads.close();
    }

    /** Stops every statement running; the server is stopping. */
    void stopAll() {
        threads.stop(r -> true);
    }

    /**
     * Cancels statement {@code statementId} of connection {@code connectionId} if it exists and belongs to that
     * connection: the embedded statement's cancel flag is the one the running query checks (and passes on to the
     * nodes running its fragments).
     */
    boolean cancel(String connectionId, int statementId) {
        java.sql.Statement statement = embedded(connectionId, statementId);
        if (statement == null) {
            return false;
        }
        try {
            if (statement.isWrapperFor(AvaticaStatement.class)) {
                // Not cancel(): it is synchronized, and a running PreparedStatement holds the statement's lock
                // until its query ends. The flag is what the running query checks.
                cancelFlag(statement).set(true);
            } else {
                statement.cancel();
            }
            return true;
        } catch (SQLException e) {
            LOG.warn("cancelling statement {} failed: {}", statementId, e.toString());
            return false;
        }
    }

    /**
     * The warnings of the last execution of statement {@code statementId} of connection {@code connectionId}, or
     * null if the connection has no such statement. Avatica's protocol carries no warnings; Ferry's driver asks for
     * them here when {@code Statement.getWarnings()} is called.
     */
    List<String> warnings(String connectionId, int statementId) {
        return embedded(connectionId, statementId) == null ? null
                : warnings.getOrDefault(key(connectionId, statementId), List.of());
    }

    /** The embedded statement behind client statement {@code statementId}, if connection {@code connectionId} owns it. */
    private java.sql.Statement embedded(String connectionId, int statementId) {
        StatementInfo info = getStatementCache().getIfPresent(statementId);
        Connection owner = getConnectionCache().getIfPresent(connectionId);
        if (info == null || owner == null) {
            return null;
        }
        try {
            java.sql.Statement statement = (java.sql.Statement) EMBEDDED_STATEMENT.get(info);
            return statement.getConnection() == owner ? statement : null;
        } catch (SQLException | IllegalAccessException e) {
            LOG.warn("reaching statement {} failed: {}", statementId, e.toString());
            return null;
        }
    }

    private static String key(String connectionId, int statementId) {
        return connectionId + "/" + statementId;
    }

    /** An execution, collecting the warnings its queries report ({@link QueryWarnings}) for the statement. */
    private interface Execution<T> {
        T run() throws NoSuchStatementException;
    }

    private <T> T collectingWarnings(StatementHandle h, Execution<T> execution) throws NoSuchStatementException {
        List<String> into = QueryWarnings.collect();
        try {
            return execution.run();
        } finally {
            QueryWarnings.stop();
            if (into.isEmpty()) {
                warnings.remove(key(h.connectionId, h.id));
            } else {
                warnings.put(key(h.connectionId, h.id), List.copyOf(into));
            }
        }
    }

    /**
     * Clears a statement's cancel flag before it runs again: Avatica sets it on cancel and never clears it, so every
     * later execution of a statement cancelled once (or whose result was abandoned) would fail at once.
     */
    private void rearm(StatementHandle h) {
        StatementInfo info = getStatementCache().getIfPresent(h.id);
        if (info != null) { // else super reports the missing statement
            stopFlag(info).set(false);
        }
    }

    /**
     * The flag that stops statement {@code h}'s query: its embedded statement's cancel flag, which planning and
     * every operator poll; a fresh flag if the statement is unknown (super then reports it missing).
     */
    private AtomicBoolean stopFlag(StatementHandle h) {
        StatementInfo info = getStatementCache().getIfPresent(h.id);
        return info == null ? new AtomicBoolean() : stopFlag(info);
    }

    private static AtomicBoolean stopFlag(StatementInfo info) {
        try {
            return cancelFlag((java.sql.Statement) EMBEDDED_STATEMENT.get(info));
        } catch (IllegalAccessException | SQLException e) {
            throw new IllegalStateException("cannot reach a statement's cancel flag", e);
        }
    }

    private static AtomicBoolean cancelFlag(java.sql.Statement statement) throws SQLException {
        if (!statement.isWrapperFor(AvaticaStatement.class)) {
            return new AtomicBoolean(); // not Calcite's: nothing polls a flag
        }
        try {
            return (AtomicBoolean) CANCEL_FLAG.get(statement.unwrap(AvaticaStatement.class));
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot reach a statement's cancel flag", e);
        }
    }

    /** Avatica keeps the embedded statement in a package-private field and has no cancel request to reach it. */
    private static final java.lang.reflect.Field EMBEDDED_STATEMENT = field(StatementInfo.class, "statement");
    /** A statement's cancel flag, which its running query polls (Calcite's DataContext CANCEL_FLAG). */
    private static final java.lang.reflect.Field CANCEL_FLAG = field(AvaticaStatement.class, "cancelFlag");

    private static java.lang.reflect.Field field(Class<?> owner, String name) {
        try {
            java.lang.reflect.Field f = owner.getDeclaredField(name);
            f.setAccessible(true);
            return f;
        } catch (NoSuchFieldException e) {
            throw new IllegalStateException("this Avatica version keeps statements differently", e);
        }
    }

    // ---- connections -------------------------------------------------------------------------------------

    /** The embedded connection, with results in the proleptic Gregorian calendar ({@link ProlepticDates}). */
    @Override
    protected Connection createConnection(String url, Properties info) throws SQLException {
        return ProlepticDates.wrap(super.createConnection(url, info));
    }

    /** Answers a request as {@code user}: connections it opens are that user's. */
    static <T> T as(Client client, Supplier<T> request) {
        Client outer = CLIENT.get();
        CLIENT.set(client);
        try {
            return request.get();
        } finally {
            CLIENT.set(outer);
        }
    }

    /**
     * Why {@code user} may not make {@code request}, or null if it may: the request names a connection another user
     * opened, or a statement of another connection than the one it names (Avatica's own server looks a statement up
     * by its number alone, which counts up from 1).
     */
    String denial(Service.Request request, Principal user) {
        RequestTarget target = RequestTarget.of(request);
        if (target.connectionId() == null) {
            return null;
        }
        Client owner = owners.get(target.connectionId());
        if (owner == null && request instanceof Service.OpenConnectionRequest) {
            return null;
        }
        // closing needs only the name: a user dropped and made again may still close the old one's connections
        boolean closing = request instanceof Service.CloseConnectionRequest
                || request instanceof Service.CloseStatementRequest;
        if (owner == null ? getConnectionCache().getIfPresent(target.connectionId()) != null
                : !(closing ? Objects.equals(owner.user().user(), user.user()) : owner.user().equals(user))) {
            return "connection " + target.connectionId() + " belongs to another user; open a connection of your own";
        }
        // A statement must exist on the connection named, now: statement numbers come from one counter for all
        // connections, so one not made yet may be another user's by the time the request runs
        Integer statement = target.statementId();
        if (statement != null && embedded(target.connectionId(), statement) == null) {
            return "connection " + target.connectionId() + " has no statement " + statement;
        }
        return null;
    }

    /** Whether connection {@code connectionId} has statement {@code statementId} now. */
    boolean hasStatement(String connectionId, int statementId) {
        return embedded(connectionId, statementId) != null;
    }

    /** Whether {@code user} opened connection {@code connectionId} (and it is open). */
    boolean ownedBy(String connectionId, Principal user) {
        Client owner = owners.get(connectionId);
        return owner != null && owner.user().equals(user);
    }

    /**
     * The client that opened the connection {@code request} closes (or one of its statements), if that was with
     * {@code credentials}: after its password changed, a client may still close what it opened, and nothing else.
     * Null otherwise.
     */
    Client openedWith(Service.Request request, String credentials) {
        if (!(request instanceof Service.CloseConnectionRequest || request instanceof Service.CloseStatementRequest)) {
            return null;
        }
        String connection = RequestTarget.of(request).connectionId();
        Client owner = connection == null ? null : owners.get(connection);
        return owner != null && credentials != null && credentials.equals(owner.credentials()) ? owner : null;
    }

    @Override
    public void openConnection(ConnectionHandle ch, Map<String, String> info) {
        Client client = CLIENT.get() == null ? new Client(Principal.owner(), null) : CLIENT.get();
        Principal user = client.user();
        Map<String, String> passed = new HashMap<>();
        if (info != null && user.isOwner()) {
            info.forEach((k, v) -> {
                if (CLIENT_PROPERTIES.contains(k.toLowerCase(Locale.ROOT))) {
                    passed.put(k, v);
                } else {
                    LOG.debug("ignoring connection property '{}' sent by a client", k);
                }
            });
        }
        if (!user.isOwner()) {
            passed.put("user", user.user());
            passed.put(FerryDriver.USER_PROPERTY, user.user());
            passed.put(FerryDriver.GENERATION_PROPERTY, Long.toString(user.generation()));
        }
        Client prior = owners.putIfAbsent(ch.id, client);
        if (prior != null && !prior.user().equals(user)) {
            throw new AvaticaRuntimeException("connection id " + ch.id + " is in use; open another", NO_ERROR_CODE,
                    SqlStates.PROTOCOL_VIOLATION, AvaticaSeverity.ERROR);
        }
        try {
            super.openConnection(ch, passed);
        } catch (RuntimeException | Error e) {
            if (prior == null) {
                owners.remove(ch.id);
            }
            throw translated(e);
        }
    }

    @Override
    public void closeConnection(ConnectionHandle ch) {
        try {
            threads.stop(r -> r.connectionId().equals(ch.id));
            warnings.keySet().removeIf(k -> k.startsWith(ch.id + "/"));
            results.forget(ch.id);
            super.closeConnection(ch);
            owners.remove(ch.id);
        } catch (RuntimeException | Error e) {
            throw translated(e);
        }
    }

    /**
     * Auto-commit stays on: a client that asks to turn it off gets it on in the answer. Ferry's driver refuses
     * {@code setAutoCommit(false)} at once (0A000); Avatica's stock driver holds the change and sends it with the
     * next request, so an error here would fail whatever the client did next, and every request after it, while the
     * answer's auto-commit tells its next {@code getAutoCommit()} the truth.
     */
    @Override
    public ConnectionProperties connectionSync(ConnectionHandle ch, ConnectionProperties connProps) {
        try {
            if (Boolean.FALSE.equals(connProps.isAutoCommit())) {
                LOG.info("connection {} asked to turn auto-commit off; Ferry has no multi-statement transactions, "
                        + "so it stays on", ch.id);
                connProps = new ConnectionPropertiesImpl(true, connProps.isReadOnly(),
                        connProps.getTransactionIsolation(), connProps.getCatalog(), connProps.getSchema());
            }
            return super.connectionSync(ch, connProps);
        } catch (RuntimeException | Error e) {
            throw translated(e);
        }
    }

    /**
     * Nothing to do: every statement was committed when it finished (the embedded connection is in auto-commit mode
     * for good). The embedded connection would fail, as JDBC says a commit in auto-commit mode does, and Ferry's
     * driver fails {@code Connection.commit()} so on the client; but Python's DB-API (PEP 249) expects {@code commit()}
     * to work on a database without transactions, and scripts call it after their writes. A rollback still
     * fails (2D000): nothing can be undone, and pretending otherwise would mislead.
     */
    @Override
    public void commit(ConnectionHandle ch) {
        try {
            getConnection(ch.id); // fails for an unknown connection
        } catch (SQLException | RuntimeException | Error e) {
            throw translated(e);
        }
    }

    @Override
    public void rollback(ConnectionHandle ch) {
        try {
            super.rollback(ch);
        } catch (RuntimeException | Error e) {
            throw translated(e);
        }
    }

    // ---- statements ----------------------------------------------------------------------------------------

    @Override
    public StatementHandle createStatement(ConnectionHandle ch) {
        try {
            return super.createStatement(ch);
        } catch (RuntimeException | Error e) {
            throw translated(e);
        }
    }

    @Override
    public void closeStatement(StatementHandle h) {
        try {
            threads.stop(r -> r.statementId() == h.id && r.connectionId().equals(h.connectionId));
            warnings.remove(key(h.connectionId, h.id));
            results.forget(h.connectionId, h.id);
            super.closeStatement(h);
        } catch (RuntimeException | Error e) {
            throw translated(e);
        }
    }

    @Override
    public StatementHandle prepare(ConnectionHandle ch, String sql, long maxRowCount) {
        try {
            // a statement being prepared has no id yet: it stops when its client goes away or the server stops
            AtomicBoolean stop = new AtomicBoolean();
            StatementHandle h = timed(stop, () -> threads.run(ch.id, -1, stop, () -> super.prepare(ch, sql,
                    maxRowCount)));
            h.signature = ResultColumns.withJdbcSizes(h.signature);
            return h;
        } catch (RuntimeException | Error e) {
            throw translated(e);
        }
    }

    @Override
    public ExecuteResult prepareAndExecute(StatementHandle h, String sql, long maxRowCount, int maxRowsInFirstFrame,
            PrepareCallback callback) throws NoSuchStatementException {
        try {
            checkPlainStatement(sql);
            plain(h);
            rearm(h);
            // 0 is "no limit" as in JDBC: the stock Java client sends -1 for that, but phoenixdb leaves the field
            // unset, which protobuf reads as 0, and Avatica's server then answered every query with no rows
            long limit = maxRowCount == 0 ? -1 : maxRowCount;
            ExecuteResult result = timedRun(h, () -> collectingWarnings(h, () -> super.prepareAndExecute(h, sql,
                    limit, frameRows(maxRowsInFirstFrame), callback)));
            return served(h, result);
        } catch (RuntimeException | Error e) {
            throw translated(e);
        }
    }

    /**
     * Makes statement {@code h} a plain one if it was prepared. phoenixdb's cursor keeps one statement id: it
     * prepares its statements with parameters under that id, and runs the next one without parameters under it too,
     * which failed (XX000 "Cannot call execute(String) on prepared or callable statement"): a cursor could not run a
     * plain statement after a parameterized one.
     */
    private void plain(StatementHandle h) {
        StatementInfo info = getStatementCache().getIfPresent(h.id);
        if (info == null) {
            return; // super reports the missing statement
        }
        try {
            java.sql.Statement embedded = (java.sql.Statement) EMBEDDED_STATEMENT.get(info);
            if (embedded instanceof java.sql.PreparedStatement prepared) {
                // the cache closes the statement it replaces
                getStatementCache().put(h.id, new StatementInfo(prepared.getConnection().createStatement()));
            }
        } catch (IllegalAccessException | SQLException e) {
            throw new IllegalStateException("cannot replace a prepared statement by a plain one", e);
        }
    }

    /**
     * Runs {@code work}, raising {@code stop} once the server's query timeout ({@code --query-timeout}) has passed;
     * a statement stopped so fails with 57014 and a sentence that names the limit.
     */
    private <T, E extends Exception> T timed(AtomicBoolean stop, StatementThreads.Work<T, E> work) throws E {
        if (queryTimeout.isZero()) {
            return work.run();
        }
        AtomicBoolean timedOut = new AtomicBoolean();
        java.util.concurrent.ScheduledFuture<?> timer = watch.schedule(() -> {
            timedOut.set(true);
            stop.set(true);
        }, queryTimeout.toMillis(), TimeUnit.MILLISECONDS);
        try {
            return work.run();
        } catch (RuntimeException | Error e) {
            if (timedOut.get()) {
                throw new AvaticaRuntimeException("the statement ran past the server's query timeout of "
                        + queryTimeout.toSeconds() + " s and was stopped; make it cheaper (a filter, a LIMIT), or ask "
                        + "the server's operator for a longer --query-timeout", NO_ERROR_CODE,
                        SqlStates.QUERY_CANCELED, AvaticaSeverity.ERROR);
            }
            throw e;
        } finally {
            timer.cancel(false);
        }
    }

    /** Runs statement {@code h}'s work on a statement thread ({@link StatementThreads}) under {@link #timed}. */
    private <T, E extends Exception> T timedRun(StatementHandle h, StatementThreads.Work<T, E> work) throws E {
        AtomicBoolean stop = stopFlag(h);
        return timed(stop, () -> threads.run(h.connectionId, h.id, stop, work));
    }

    /** A statement run without preparing it must hold one, without parameter markers ({@link StatementText}). */
    private static void checkPlainStatement(String sql) {
        FerryException wrong = StatementText.checkPlain(sql);
        if (wrong != null) {
            throw new AvaticaRuntimeException(wrong.getMessage(), NO_ERROR_CODE, wrong.sqlState(),
                    AvaticaSeverity.ERROR);
        }
    }

    @Override
    public ExecuteBatchResult prepareAndExecuteBatch(StatementHandle h, List<String> sqlCommands)
            throws NoSuchStatementException {
        try {
            for (String sql : sqlCommands) {
                checkPlainStatement(sql);
            }
            rearm(h);
            return threads.run(h.connectionId, h.id, stopFlag(h), () -> oneByOne(sqlCommands,
                    sql -> super.prepareAndExecuteBatch(h, List.of(sql))));
        } catch (RuntimeException | Error e) {
            throw translated(e);
        }
    }

    @Override
    public ExecuteResult execute(StatementHandle h, List<TypedValue> parameterValues, long maxRowCount)
            throws NoSuchStatementException {
        try {
            rearm(h);
            ExecuteResult result = timedRun(h, () -> collectingWarnings(h, () -> super.execute(h, parameterValues,
                    maxRowCount)));
            return served(h, result);
        } catch (RuntimeException | Error e) {
            throw translated(e);
        }
    }

    @Override
    public ExecuteResult execute(StatementHandle h, List<TypedValue> parameterValues, int maxRowsInFirstFrame)
            throws NoSuchStatementException {
        try {
            rearm(h);
            ExecuteResult result = timedRun(h, () -> collectingWarnings(h, () -> super.execute(h, parameterValues,
                    frameRows(maxRowsInFirstFrame))));
            return served(h, result);
        } catch (RuntimeException | Error e) {
            throw translated(e);
        }
    }

    /** One element of a batch run on its own. */
    @FunctionalInterface
    private interface BatchElement<T> {
        ExecuteBatchResult run(T element) throws NoSuchStatementException;
    }

    /**
     * Runs a batch's elements in order, each as its own statement (committed when it finishes), and stops at the
     * first that fails, which is what Avatica's server did too, but without saying how far it got. The failure now
     * says which element failed and that the ones before it stay applied ({@link #BATCH_APPLIED}, which Ferry's
     * driver reads to throw a BatchUpdateException with their count).
     */
    private static <T> ExecuteBatchResult oneByOne(List<T> batch, BatchElement<T> element)
            throws NoSuchStatementException {
        long[] counts = new long[batch.size()];
        for (int i = 0; i < batch.size(); i++) {
            try {
                counts[i] = element.run(batch.get(i)).updateCounts[0];
            } catch (RuntimeException | Error e) {
                if (e instanceof NoSuchConnectionException) {
                    throw e;
                }
                SqlErrors.Translated t = SqlErrors.translate(e instanceof AvaticaRuntimeException a
                        ? new java.sql.SQLException(a.getErrorMessage(), a.getSqlState()) : e);
                throw new AvaticaRuntimeException("statement " + (i + 1) + " of the batch of " + batch.size()
                        + " failed: " + t.message() + (t.message().endsWith(".") ? " " : ". ")
                        + String.format(Locale.ROOT, BATCH_APPLIED, i)
                        + " (each was committed when it finished); it and the " + (batch.size() - i - 1)
                        + " after it were not run.", NO_ERROR_CODE, t.sqlState(), AvaticaSeverity.ERROR);
            }
        }
        return new ExecuteBatchResult(counts);
    }

    /**
     * The sentence of a failed batch's error that says how many of its statements were applied; Ferry's driver
     * finds the number in it.
     */
    static final String BATCH_APPLIED = "The first %d statements of the batch were applied";

    @Override
    public ExecuteBatchResult executeBatch(StatementHandle h, List<List<TypedValue>> parameterValues)
            throws NoSuchStatementException {
        try {
            rearm(h);
            return threads.run(h.connectionId, h.id, stopFlag(h), () -> oneByOne(parameterValues,
                    values -> super.executeBatch(h, List.of(values))));
        } catch (RuntimeException | Error e) {
            throw translated(e);
        }
    }

    @Override
    public ExecuteBatchResult executeBatchProtobuf(StatementHandle h, List<Requests.UpdateBatch> parameterValues)
            throws NoSuchStatementException {
        try {
            rearm(h);
            return threads.run(h.connectionId, h.id, stopFlag(h), () -> oneByOne(parameterValues,
                    values -> super.executeBatchProtobuf(h, List.of(values))));
        } catch (RuntimeException | Error e) {
            throw translated(e);
        }
    }

    @Override
    public Frame fetch(StatementHandle h, long offset, int fetchMaxRowCount)
            throws NoSuchStatementException, MissingResultsException {
        if (results.abandoned(h.connectionId, h.id)) {
            throw new AvaticaRuntimeException("the query was stopped and its result dropped: the client fetched "
                    + "none of it for " + results.clientTimeout().toSeconds() + " s; run it again and read its rows "
                    + "as they come, or start the server with a longer --client-timeout", NO_ERROR_CODE,
                    SqlStates.QUERY_CANCELED, AvaticaSeverity.ERROR);
        }
        try {
            // a result's rows are made as they are fetched: each fetch has the whole limit for its share of the work
            Frame frame = timedRun(h, () -> {
                try {
                    return super.fetch(h, offset, frameRows(fetchMaxRowCount));
                } catch (MissingResultsException e) {
                    throw new MissingResults(e);
                }
            });
            results.served(h.connectionId, h.id, !frame.done);
            return frame;
        } catch (MissingResults e) {
            throw e.missing;
        } catch (RuntimeException | Error e) {
            throw translated(e);
        }
    }

    /**
     * The rows a frame may hold for a client that asked for {@code requested}: its fetch size. JDBC's fetch size 0
     * means "the driver's choice", and Avatica's client sends it as is, but Avatica's server reads 0 as "no rows,
     * done": {@code setFetchSize(0)} ended a plain statement's result after its first frame of 100 rows and a
     * prepared statement's before its first row, silently. 0 is the default frame size here; a positive size is kept,
     * and a negative one means no limit, as in Avatica.
     */
    static int frameRows(int requested) {
        return requested == 0 ? AvaticaStatement.DEFAULT_FETCH_SIZE : requested;
    }

    /** Carries a fetch's checked MissingResultsException off the statement thread. */
    private static final class MissingResults extends RuntimeException {
        final MissingResultsException missing;

        MissingResults(MissingResultsException missing) {
            super(missing);
            this.missing = missing;
        }
    }

    @Override
    public boolean syncResults(StatementHandle sh, QueryState state, long offset) throws NoSuchStatementException {
        try {
            return super.syncResults(sh, state, offset);
        } catch (RuntimeException | Error e) {
            throw translated(e);
        }
    }

    // ---- metadata (the six calls Avatica's protocol carries; its client answers the others, empty) ----------

    /**
     * Functions Calcite lists for JDBC escapes that Ferry cannot run, left out of DatabaseMetaData's lists so a BI
     * tool does not send them: CONVERT_TIMEZONE needs a TIMESTAMP WITH TIME ZONE, which Ferry does not have.
     */
    private static final Set<String> UNLISTED_FUNCTIONS = Set.of("CONVERT_TIMEZONE");

    /** Calcite's properties, with function lists that name only what runs ({@code FunctionListsTest}). */
    @Override
    public Map<DatabaseProperty, Object> getDatabaseProperties(ConnectionHandle ch) {
        Map<DatabaseProperty, Object> properties = new HashMap<>(super.getDatabaseProperties(ch));
        for (DatabaseProperty list : List.of(DatabaseProperty.GET_STRING_FUNCTIONS,
                DatabaseProperty.GET_NUMERIC_FUNCTIONS, DatabaseProperty.GET_TIME_DATE_FUNCTIONS,
                DatabaseProperty.GET_SYSTEM_FUNCTIONS)) {
            if (properties.get(list) instanceof String names) {
                properties.put(list, String.join(",", java.util.Arrays.stream(names.split(",")).map(String::trim)
                        .filter(n -> !UNLISTED_FUNCTIONS.contains(n)).toList()));
            }
        }
        return properties;
    }

    @Override
    public MetaResultSet getCatalogs(ConnectionHandle ch) {
        return metadata(ch, DatabaseMetaData::getCatalogs, MetadataRows::catalog, NameFilter.ALL, "TABLE_CAT");
    }

    @Override
    public MetaResultSet getSchemas(ConnectionHandle ch, String catalog, Pat schemaPattern) {
        return metadata(ch, md -> md.getSchemas(catalog, null), MetadataRows::schema,
                NameFilter.anyCase(Map.of("TABLE_SCHEM", orAll(schemaPattern))), "TABLE_CATALOG", "TABLE_SCHEM");
    }

    @Override
    public MetaResultSet getTables(ConnectionHandle ch, String catalog, Pat schemaPattern, Pat tableNamePattern,
            List<String> typeList) {
        String[] types = typeList == null ? null : typeList.toArray(String[]::new);
        return metadata(ch, md -> md.getTables(catalog, null, null, types), MetadataRows::table,
                NameFilter.anyCase(Map.of("TABLE_SCHEM", orAll(schemaPattern), "TABLE_NAME",
                        orAll(tableNamePattern))), "TABLE_TYPE", "TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME");
    }

    @Override
    public MetaResultSet getColumns(ConnectionHandle ch, String catalog, Pat schemaPattern, Pat tableNamePattern,
            Pat columnNamePattern) {
        return metadata(ch, md -> md.getColumns(catalog, null, null, null), MetadataRows::column,
                NameFilter.anyCase(Map.of("TABLE_SCHEM", orAll(schemaPattern), "TABLE_NAME",
                        orAll(tableNamePattern), "COLUMN_NAME", orAll(columnNamePattern))), "TABLE_CAT",
                "TABLE_SCHEM", "TABLE_NAME", "ORDINAL_POSITION");
    }

    @Override
    public MetaResultSet getTableTypes(ConnectionHandle ch) {
        return metadata(ch, DatabaseMetaData::getTableTypes, MetadataRows::tableType, NameFilter.ALL, "TABLE_TYPE");
    }

    @Override
    public MetaResultSet getTypeInfo(ConnectionHandle ch) {
        return metadata(ch, DatabaseMetaData::getTypeInfo, MetadataRows::typeInfo, NameFilter.ALL, "DATA_TYPE");
    }

    /** A pattern's text, or "%" (every name) for none: Map.of holds no nulls. */
    private static String orAll(Pat pattern) {
        return pattern.s == null ? "%" : pattern.s;
    }

    /** Name patterns by the column of the metadata result they match. */
    private record NameFilter(Map<String, NamePattern> patterns) {
        static final List<NameFilter> ALL = List.of(new NameFilter(Map.of()));

        /**
         * The patterns as asked, then, if one has upper-case letters, the same in lower case, for {@link #metadata}
         * to use the first that finds rows. Ferry folds unquoted names to lower case, but the stock Avatica driver
         * tells tools that names are stored in upper case (a client-side setting the server cannot change), so they
         * ask for LINEORDER; a table created with a quoted mixed-case name still matches as written.
         */
        static List<NameFilter> anyCase(Map<String, String> patterns) {
            Map<String, NamePattern> asked = new HashMap<>();
            Map<String, NamePattern> lower = new HashMap<>();
            boolean upper = false;
            for (Map.Entry<String, String> e : patterns.entrySet()) {
                NamePattern p = NamePattern.of(e.getValue());
                asked.put(e.getKey(), p);
                lower.put(e.getKey(), p.lowerCase());
                upper |= p.hasUpperCase();
            }
            return upper ? List.of(new NameFilter(asked), new NameFilter(lower)) : List.of(new NameFilter(asked));
        }

        boolean matches(Object[] row, MetadataRows.Columns columns) {
            for (Map.Entry<String, NamePattern> e : patterns.entrySet()) {
                if (!e.getValue().matches(columns.get(row, e.getKey()))) {
                    return false;
                }
            }
            return true;
        }
    }

    /** A metadata query against the embedded connection. */
    @FunctionalInterface
    private interface MetadataQuery {
        ResultSet run(DatabaseMetaData metaData) throws SQLException;
    }

    /**
     * Runs {@code query}, reshapes its rows with {@code shaper}, keeps those the first of {@code filters} that keeps
     * any matches (or the last), sorts them by {@code orderBy} (the order JDBC specifies for each call), and returns
     * them all in the first frame: metadata is small, and a finished frame needs no server-side cursor, so nothing
     * stays open if the client never closes the result set.
     */
    private MetaResultSet metadata(ConnectionHandle ch, MetadataQuery query, MetadataRows.Shaper shaper,
            List<NameFilter> filters, String... orderBy) {
        try {
            Connection connection = getConnection(ch.id);
            FerrySchema ferry = FerrySchema.of(connection.unwrap(CalciteConnection.class).getRootSchema());
            try (ResultSet rs = query.run(connection.getMetaData())) {
                ResultSetMetaData md = rs.getMetaData();
                int n = md.getColumnCount();
                int[] types = new int[n];
                for (int i = 0; i < n; i++) {
                    types[i] = md.getColumnType(i + 1);
                }
                MetadataRows.Columns columns = MetadataRows.Columns.of(md);
                List<Object[]> shaped = new ArrayList<>();
                while (rs.next()) {
                    Object[] row = new Object[n];
                    for (int i = 0; i < n; i++) {
                        row[i] = value(rs, i + 1, types[i]);
                    }
                    if (shaper.shape(row, columns) && listed(ferry, row, columns)) {
                        shaped.add(row);
                    }
                }
                List<Object> rows = new ArrayList<>();
                for (NameFilter filter : filters) {
                    for (Object[] row : shaped) {
                        if (filter.matches(row, columns)) {
                            rows.add(row);
                        }
                    }
                    if (!rows.isEmpty()) {
                        break;
                    }
                }
                rows.sort(columns.order(orderBy));
                int statementId = getStatementIdGenerator().getAndIncrement();
                return MetaResultSet.create(ch.id, statementId, true, signature(md), Frame.create(0, true, rows));
            }
        } catch (SQLException | RuntimeException | Error e) {
            throw translated(e);
        }
    }

    /**
     * Whether a metadata row may be shown to the connection's user: a row naming a table or view of schema ferry only
     * if the user sees it ({@link FerrySchema#lists}), as information_schema shows it.
     */
    private static boolean listed(FerrySchema ferry, Object[] row, MetadataRows.Columns columns) {
        return !(columns.get(row, "TABLE_NAME") instanceof String table)
                || !FerrySchema.NAME.equals(columns.get(row, "TABLE_SCHEM")) || ferry.lists(table);
    }

    /** The value as the Java type Avatica's protobuf encoding expects for the column's JDBC type. */
    private static Object value(ResultSet rs, int column, int type) throws SQLException {
        Object v = switch (type) {
            case Types.BIGINT -> rs.getLong(column);
            case Types.INTEGER -> rs.getInt(column);
            case Types.SMALLINT -> rs.getShort(column);
            case Types.TINYINT -> rs.getByte(column);
            case Types.BOOLEAN, Types.BIT -> rs.getBoolean(column);
            case Types.DOUBLE, Types.FLOAT -> rs.getDouble(column);
            case Types.REAL -> rs.getFloat(column);
            case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR -> rs.getString(column);
            default -> rs.getObject(column);
        };
        return rs.wasNull() ? null : v;
    }

    // ---- errors ----------------------------------------------------------------------------------------------

    /**
     * The exception Avatica should send for {@code e}. A missing connection keeps its own type (the client
     * reconnects on it); everything else carries Ferry's SQLSTATE. Internal errors are logged with their stack,
     * since the client only sees a sentence.
     */
    static RuntimeException translated(Throwable e) {
        if (e instanceof VirtualMachineError vm && !(vm instanceof OutOfMemoryError)
                && !(vm instanceof StackOverflowError)) {
            throw vm;
        }
        if (e instanceof NoSuchConnectionException || e instanceof AvaticaRuntimeException) {
            return (RuntimeException) e;
        }
        SqlErrors.Translated t = SqlErrors.translate(e);
        if (SqlStates.INTERNAL_ERROR.equals(t.sqlState())) {
            LOG.error("internal error answering a client: {}", t.message(), e);
        } else {
            LOG.debug("statement failed with {}: {}", t.sqlState(), t.message());
        }
        return new AvaticaRuntimeException(t.message(), NO_ERROR_CODE, t.sqlState(), AvaticaSeverity.ERROR);
    }
}
