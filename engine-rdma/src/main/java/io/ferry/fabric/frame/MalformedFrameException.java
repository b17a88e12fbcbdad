package io.ferry.fabric.frame;

/** A peer sent something that is not a valid frame; the connection it came on is closed. */
public final class MalformedFrameException extends RuntimeException {
    public MalformedFrameException(String message) {
        super(message, null, false, false);
    }
}
