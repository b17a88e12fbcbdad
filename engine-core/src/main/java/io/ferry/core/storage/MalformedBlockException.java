package io.ferry.core.storage;

/** A block's bytes do not form a valid block: wrong magic, unknown version, bad checksum or bad offsets. */
public final class MalformedBlockException extends RuntimeException {
    public MalformedBlockException(String message) {
        super(message);
    }
}
