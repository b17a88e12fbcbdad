package io.ferry.server.cluster;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLParameters;

import io.ferry.server.StartupException;
import io.ferry.server.tls.TlsKeys;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;

/**
 * TLS on the control plane (the coordinator's control port and the connections nodes open to it): encryption of the
 * control messages — plans, results' locations, catalog changes — beside the cluster secret, which proves who may
 * join. The coordinator serves with the key of the JDBC port's keystore ({@code --tls-keystore}); a node checks the
 * coordinator's certificate, and its name, against a truststore ({@code bin/ferry cert} makes both).
 */
public final class ControlTls {
    private final SslContext context;
    private final boolean client;

    private ControlTls(SslContext context, boolean client) {
        this.context = context;
        this.client = client;
    }

    /** The coordinator's side: the key and certificate of this PKCS #12 keystore. */
    public static ControlTls server(Path keystore, String password) {
        try {
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(TlsKeys.load(keystore, password), password.toCharArray());
            return new ControlTls(SslContextBuilder.forServer(keys).protocols("TLSv1.3", "TLSv1.2").build(), false);
        } catch (IOException | GeneralSecurityException e) {
            throw new StartupException("cannot read the keystore " + keystore + " for the control plane's TLS: "
                    + e.getMessage(), e);
        }
    }

    /** A node's side: trusts the certificates of this PKCS #12 truststore (password {@code ferry-trust}). */
    public static ControlTls client(Path truststore) {
        try {
            return new ControlTls(SslContextBuilder.forClient().trustManager(TlsKeys.trust(truststore))
                    .protocols("TLSv1.3", "TLSv1.2").build(), true);
        } catch (IOException | GeneralSecurityException e) {
            throw new StartupException("cannot read the truststore " + truststore + " for the control plane's TLS: "
                    + e.getMessage(), e);
        }
    }

    /**
     * Puts TLS first on {@code ch}'s pipeline: a node's connection to {@code peer} checks the certificate's name
     * against the address it dialled; either side gives up on a handshake that takes longer than {@code timeout}.
     */
    void install(SocketChannel ch, InetSocketAddress peer, Duration timeout) {
        SslHandler handler;
        if (client) {
            handler = context.newHandler(ch.alloc(), peer.getHostString(), peer.getPort());
            SSLParameters parameters = handler.engine().getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
            handler.engine().setSSLParameters(parameters);
        } else {
            handler = context.newHandler(ch.alloc());
        }
        handler.setHandshakeTimeoutMillis(timeout.toMillis());
        ch.pipeline().addFirst("tls", handler);
    }
}
