package io.ferry.server;

/**
 * A node could not start for a reason its operator fixes by starting it differently (a port in use, an unknown
 * host); the message says which option to change.
 */
public final class StartupException extends RuntimeException {
    public StartupException(String message, Throwable cause) {
        super(message, cause);
    }
}
