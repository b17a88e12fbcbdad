package io.ferry.fabric;

import java.lang.reflect.InvocationTargetException;
import java.util.Locale;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.fabric.auth.ClusterSecret;
import io.ferry.fabric.auth.SecretHandshake;
import io.ferry.fabric.local.LocalFabric;
import io.ferry.fabric.rdma.RdmaSupport;
import io.ferry.fabric.tcp.TcpFabric;

/**
 * Opens a node's fabric by the {@code fabric=auto|local|tcp|rdma} setting. {@code auto} picks rdma when Ferry's
 * native library loads and the machine has an RDMA device, else tcp; the node logs which and why.
 */
public final class Fabrics {
    private static final Logger LOG = LoggerFactory.getLogger(Fabrics.class);

    /** The setting's values. */
    public enum Kind {
        AUTO, LOCAL, TCP, RDMA;

        public static Kind parse(String text) {
            try {
                return valueOf(text.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "unknown fabric '" + text
                        + "'; use auto, local, tcp or rdma");
            }
        }

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The provider a setting resolves to on this machine, and why. */
    public record Choice(Kind kind, String reason) {
        @Override
        public String toString() {
            return kind + " (" + reason + ")";
        }
    }

    private Fabrics() {
    }

    /** What {@code setting} means here: auto resolves to rdma or tcp by {@link RdmaSupport#probe()}. */
    public static Choice choose(Kind setting) {
        return switch (setting) {
            case AUTO -> {
                RdmaSupport.Availability rdma = RdmaSupport.probe();
                yield rdma.available() ? new Choice(Kind.RDMA, "auto: " + rdma.reason())
                        : new Choice(Kind.TCP, "auto: rdma unavailable: " + rdma.reason());
            }
            case LOCAL -> new Choice(Kind.LOCAL, "in-process, as configured");
            case TCP -> new Choice(Kind.TCP, "as configured");
            case RDMA -> {
                RdmaSupport.Availability rdma = RdmaSupport.probe();
                if (!rdma.available()) {
                    throw new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, "fabric=rdma, but rdma is unavailable: "
                            + rdma.reason() + "; use fabric=tcp or auto");
                }
                yield new Choice(Kind.RDMA, "as configured: " + rdma.reason());
            }
        };
    }

    /**
     * Opens this node's fabric, listening on {@code host:port} (port 0: any free one; tcp and rdma). For rdma,
     * {@code host} must be an address of the RDMA device.
     */
    public static Fabric open(Kind setting, String host, int port, int ioThreads) {
        return open(setting, host, port, host, ioThreads);
    }

    /**
     * As above, announcing {@code advertised} (a name or address other nodes can reach) instead of {@code host}, for
     * nodes that listen on 0.0.0.0 or behind a container's network. tcp only: an rdma endpoint is an address of its
     * device, which it announces as is.
     */
    public static Fabric open(Kind setting, String host, int port, String advertised, int ioThreads) {
        return open(setting, host, port, advertised, ioThreads, null);
    }

    /**
     * As above; with a cluster secret, a tcp fabric serves and dials only processes that prove they hold it
     * ({@link SecretHandshake}). An rdma fabric's memory is reachable with the keys its control messages carry, which
     * the control plane's own handshake guards.
     */
    public static Fabric open(Kind setting, String host, int port, String advertised, int ioThreads,
            ClusterSecret secret) {
        Choice choice = choose(setting);
        if (choice.kind() == Kind.RDMA && !advertised.equals(host)) {
            throw new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, "the rdma fabric announces the address it "
                    + "listens on; give --host an address of the RDMA device instead of --advertise " + advertised);
        }
        Fabric fabric = switch (choice.kind()) {
            case LOCAL -> new LocalFabric();
            case TCP -> new TcpFabric(host, port, ioThreads, advertised, secret);
            case RDMA -> openRdma(host, port);
            case AUTO -> throw new AssertionError("auto is resolved by choose");
        };
        LOG.info("fabric: {} at {}", choice, fabric.address());
        return fabric;
    }

    private static Fabric openRdma(String host, int port) {
        try {
            return RdmaSupport.loader().newInstance("io.ferry.fabric.rdma.verbs.VerbsFabric", Fabric.class,
                    new Class<?>[] {String.class, int.class}, host, port);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            throw new FabricException(SqlStates.UNABLE_TO_CONNECT, "the rdma fabric cannot listen on " + host + ":"
                    + port + ": " + cause.getMessage() + "; give an address of the RDMA device", cause);
        } catch (ReflectiveOperationException e) {
            throw new FabricException(SqlStates.INTERNAL_ERROR, "cannot create the rdma fabric: " + e, e);
        }
    }
}
