package io.github.slingvt.demo.internal;

import io.github.slingvt.demo.internal.steps.Fanout;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;

/** A stand-in for this instance's /bin/vt/slow.json, on a loopback port, counting calls in flight. */
public final class SlowEndpoint implements AutoCloseable {

    final HttpServer server;
    final AtomicInteger inFlight = new AtomicInteger();
    public final AtomicInteger maxInFlight = new AtomicInteger();
    public volatile int status = 200;
    public volatile String lastAuthorization;

    public SlowEndpoint() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext(Fanout.SLOW_PATH, exchange -> {
            int now = inFlight.incrementAndGet();
            maxInFlight.accumulateAndGet(now, Math::max);
            lastAuthorization = exchange.getRequestHeaders().getFirst("Authorization");
            try {
                String query = exchange.getRequestURI().getQuery();
                Thread.sleep(Long.parseLong(query.substring("delay=".length())));
                byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(status, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                inFlight.decrementAndGet();
                exchange.close();
            }
        });
        server.start();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
