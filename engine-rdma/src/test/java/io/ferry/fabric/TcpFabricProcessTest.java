package io.ferry.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;

import org.junit.jupiter.api.Test;

class TcpFabricProcessTest extends FabricProcessContract {
    @Override
    protected Fabrics.Kind kind() {
        return Fabrics.Kind.TCP;
    }

    @Override
    protected String host() {
        return "127.0.0.1";
    }

    @Test
    void garbageClosesOnlyItsOwnConnection() throws Exception {
        try (Peer peer = fabric.connect(server.region().node(), TIMEOUT);
                Socket rogue = new Socket(server.region().node().host(), server.region().node().port())) {
            rogue.setSoTimeout((int) TIMEOUT.toMillis());
            OutputStream out = rogue.getOutputStream();
            out.write("GET / HTTP/1.1\r\nHost: ferry\r\n\r\n".getBytes());
            out.flush();
            InputStream in = rogue.getInputStream();
            assertEquals(-1, in.read(), "the server answered garbage instead of closing the connection");
            try (BlockStream stream = new BlockStream(fabric, peer, allocator, blocks().subList(0, 4), 2, BLOCK,
                    TIMEOUT)) {
                for (int b = 0; b < 4; b++) {
                    assertPattern(stream.next(), (long) b * BLOCK);
                }
            }
        }
    }
}
