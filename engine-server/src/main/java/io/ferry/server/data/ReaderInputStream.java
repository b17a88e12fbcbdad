package io.ferry.server.data;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The characters of a Reader as a stream of UTF-8 bytes, encoded as they are read, so that text handed over as
 * characters goes through the same byte-level CSV reader as files. Unpaired surrogates become '?'.
 */
final class ReaderInputStream extends InputStream {
    private final Reader reader;
    private final CharsetEncoder encoder = StandardCharsets.UTF_8.newEncoder()
            .onMalformedInput(CodingErrorAction.REPLACE)
            .onUnmappableCharacter(CodingErrorAction.REPLACE);
    private final CharBuffer chars = CharBuffer.allocate(8192).flip();
    private final ByteBuffer bytes = ByteBuffer.allocate(32768).flip();
    private final byte[] one = new byte[1];
    private boolean endOfInput;
    private boolean done;

    ReaderInputStream(Reader reader) {
        this.reader = reader;
    }

    @Override
    public int read() throws IOException {
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        while (!bytes.hasRemaining()) {
            if (done) {
                return -1;
            }
            bytes.clear();
            if (!endOfInput) {
                chars.compact();
                endOfInput = reader.read(chars) < 0;
                chars.flip();
            }
            // REPLACE means encode never reports an error; it stops on underflow (input used up) or overflow.
            boolean consumed = encoder.encode(chars, bytes, endOfInput).isUnderflow();
            if (endOfInput && consumed) {
                encoder.flush(bytes);
                done = true;
            }
            bytes.flip();
        }
        int n = Math.min(len, bytes.remaining());
        bytes.get(b, off, n);
        return n;
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }
}
