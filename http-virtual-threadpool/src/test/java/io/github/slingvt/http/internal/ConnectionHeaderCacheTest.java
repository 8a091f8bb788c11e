package io.github.slingvt.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The header cache of Jetty's HTTP/1 parser on the connections of a running server (decision 0029): what a connection
 * opened under each setting gets, and Felix's size back when the bundle goes.
 */
class ConnectionHeaderCacheTest {

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final ThreadingState state = new ThreadingState(timer);
    private TestJetty jetty;

    @AfterEach
    void stop() throws Exception {
        if (jetty != null) {
            jetty.close();
        }
        timer.shutdownNow();
    }

    @Test
    void newConnectionsHaveNoHeaderCacheByDefaultAndFelixsSizeComesBack() throws Exception {
        jetty = new TestJetty();
        ServerConnector connector = (ServerConnector) jetty.server.getConnectors()[0];
        int felix = connector.getConnectionFactory(HttpConnectionFactory.class).getHttpConfiguration()
                .getHeaderCacheSize();
        assertThat(felix).as("Jetty's default, which Felix keeps").isEqualTo(1024);
        assertThat(headerCacheOfANewConnection(connector)).isEqualTo(1024);

        ServerInstaller.Installation installation = ServerInstaller.install(jetty.server, state);
        assertThat(headerCacheOfANewConnection(connector)).as("the default: none").isZero();

        ServerInstaller.applyHeaderCache(installation, ThreadingSettings.FELIX_HEADER_CACHE);
        assertThat(headerCacheOfANewConnection(connector)).as("-1: Felix's size").isEqualTo(felix);
        ServerInstaller.applyHeaderCache(installation, 64);
        assertThat(headerCacheOfANewConnection(connector)).isEqualTo(64);

        ServerInstaller.uninstall(jetty.server, installation);
        assertThat(headerCacheOfANewConnection(connector)).as("after uninstall").isEqualTo(felix);
        ServerInstaller.Installation again = ServerInstaller.install(jetty.server, state);
        assertThat(headerCacheOfANewConnection(connector)).as("installed again: none").isZero();
        ServerInstaller.uninstall(jetty.server, again);
        assertThat(headerCacheOfANewConnection(connector)).as("uninstall after 0").isEqualTo(felix);
    }

    /**
     * Opens a new keep-alive connection, sends one request on it and reads the header cache size of its parser while
     * it is still open (Jetty reads the size when a connection opens).
     */
    private static int headerCacheOfANewConnection(ServerConnector connector) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", connector.getLocalPort())) {
            OutputStream out = socket.getOutputStream();
            out.write(("GET /probe HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: header-cache-test\r\n"
                    + "Accept: text/plain\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                    StandardCharsets.US_ASCII));
            assertThat(in.readLine()).startsWith("HTTP/1.1 200");
            int local = socket.getLocalPort();
            for (EndPoint endPoint : connector.getConnectedEndPoints()) {
                if (endPoint.getRemoteSocketAddress() instanceof InetSocketAddress remote
                        && remote.getPort() == local && endPoint.getConnection() instanceof HttpConnection http) {
                    return http.getParser().getHeaderCacheSize();
                }
            }
            throw new AssertionError("no server end point for local port " + local);
        }
    }
}
