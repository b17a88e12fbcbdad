package io.ferry.fabric;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;

/** A fabric operation failed: the peer is unreachable or gone, a wait timed out, or a request was invalid. */
public final class FabricException extends FerryException {
    public FabricException(String sqlState, String message) {
        super(sqlState, message);
    }

    public FabricException(String sqlState, String message, Throwable cause) {
        super(sqlState, message, cause);
    }

    /** The peer went away or the connection broke. */
    public static FabricException connectionLost(NodeAddress peer, String why) {
        return new FabricException(SqlStates.CONNECTION_FAILURE, "lost the connection to " + peer + ": " + why
                + "; check that the node is running and reachable");
    }

    static FabricException timedOut(String what, java.time.Duration timeout) {
        return new FabricException(SqlStates.CONNECTION_FAILURE, what + " did not complete within "
                + timeout.toMillis() + " ms; the peer may be overloaded or gone");
    }
}
