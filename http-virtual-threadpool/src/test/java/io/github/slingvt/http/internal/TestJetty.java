package io.github.slingvt.http.internal;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;

import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.server.handler.ContextHandlerCollection;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * A real Jetty 12 server shaped the way Felix builds it (QueuedThreadPool of 50, one ServerConnector on 127.0.0.1,
 * Server -> dynamic ContextHandlerCollection -> one context), with {@link DispatchHandlerTest.ProbeHandler} as the
 * servlet chain, and an HTTP client whose own work runs on virtual threads.
 */
final class TestJetty implements AutoCloseable {

    final Server server = new Server(new QueuedThreadPool(50));
    final DispatchHandlerTest.ProbeHandler probe = new DispatchHandlerTest.ProbeHandler();
    final ContextHandler context = new ContextHandler(probe, "/");
    final String base;
    private final HttpClient client = HttpClient.newBuilder()
            .executor(Executors.newVirtualThreadPerTaskExecutor())
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    TestJetty() throws Exception {
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(freePort());
        server.addConnector(connector);
        server.setHandler(new ContextHandlerCollection(context));
        server.start();
        base = "http://127.0.0.1:" + connector.getLocalPort();
    }

    /** GET of {@code path?query}, for example {@code /probe?sleep=100}. */
    CompletableFuture<HttpResponse<String>> getAsync(String pathAndQuery) {
        return client.sendAsync(HttpRequest.newBuilder(URI.create(base + pathAndQuery))
                .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> get(String pathAndQuery) throws Exception {
        return getAsync(pathAndQuery).get();
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
