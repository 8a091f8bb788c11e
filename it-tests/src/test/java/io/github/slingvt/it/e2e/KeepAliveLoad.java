package io.github.slingvt.it.e2e;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Clients that each hold one HTTP/1.1 keep-alive connection and send GETs on it in a loop, bounded by a deadline.
 * Written on plain sockets on purpose: Java's HttpClient and HttpURLConnection silently retry a GET whose reused
 * connection was reset, which would hide exactly the resets a test of live reinstallation must count. A failure (a
 * reset, a closed connection, a non-200 answer) is counted and the client opens a new connection.
 */
final class KeepAliveLoad implements AutoCloseable {

    private static final int TIMEOUT_MILLIS = 30_000;
    private static final int MAX_RECORDED_FAILURES = 20;

    private final URI base;
    private final String pathAndQuery;
    private final long deadlineNanos;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong ok = new AtomicLong();
    private final AtomicLong connections = new AtomicLong();
    private final List<String> failures = Collections.synchronizedList(new ArrayList<>());
    private final AtomicLong failed = new AtomicLong();
    private final ExecutorService clients;

    /** Starts {@code clients} connections to {@code base}; each stops at {@link #close()} or after {@code maxSeconds}. */
    KeepAliveLoad(String base, String pathAndQuery, int clients, int maxSeconds) {
        this.base = URI.create(base);
        this.pathAndQuery = pathAndQuery;
        this.deadlineNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(maxSeconds);
        this.clients = Executors.newFixedThreadPool(clients);
        for (int i = 0; i < clients; i++) {
            this.clients.submit(this::loop);
        }
    }

    long ok() {
        return ok.get();
    }

    long failed() {
        return failed.get();
    }

    /** How many connections were opened: one per client unless a connection failed. */
    long connections() {
        return connections.get();
    }

    List<String> failures() {
        synchronized (failures) {
            return List.copyOf(failures);
        }
    }

    @Override
    public String toString() {
        return "ok=" + ok + " failed=" + failed + " connections=" + connections + " failures=" + failures();
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        clients.shutdown();
        if (!clients.awaitTermination(TIMEOUT_MILLIS + 5_000, TimeUnit.MILLISECONDS)) {
            clients.shutdownNow();
            throw new IllegalStateException("keep-alive clients did not stop");
        }
    }

    private void loop() {
        while (running.get() && System.nanoTime() < deadlineNanos) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(base.getHost(), base.getPort()), TIMEOUT_MILLIS);
                socket.setSoTimeout(TIMEOUT_MILLIS);
                connections.incrementAndGet();
                InputStream in = new BufferedInputStream(socket.getInputStream());
                OutputStream out = socket.getOutputStream();
                byte[] request = ("GET " + pathAndQuery + " HTTP/1.1\r\nHost: " + base.getHost() + ":" + base.getPort()
                        + "\r\nConnection: keep-alive\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
                while (running.get() && System.nanoTime() < deadlineNanos) {
                    out.write(request);
                    out.flush();
                    int status = readResponse(in);
                    if (status != 200) {
                        fail("status " + status);
                        break;
                    }
                    ok.incrementAndGet();
                }
            } catch (IOException | RuntimeException e) {
                if (running.get()) {
                    fail(e.toString());
                }
            }
        }
    }

    private void fail(String why) {
        failed.incrementAndGet();
        if (failures.size() < MAX_RECORDED_FAILURES) {
            failures.add(why);
        }
    }

    /** Reads one response (Content-Length or chunked body) and answers its status. */
    private static int readResponse(InputStream in) throws IOException {
        String statusLine = line(in);
        String[] parts = statusLine.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
            throw new IOException("not an HTTP status line: '" + statusLine + "'");
        }
        long length = -1;
        boolean chunked = false;
        boolean close = false;
        for (String header = line(in); !header.isEmpty(); header = line(in)) {
            String lower = header.toLowerCase(Locale.ROOT);
            if (lower.startsWith("content-length:")) {
                length = Long.parseLong(lower.substring(15).trim());
            } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                chunked = true;
            } else if (lower.startsWith("connection:") && lower.contains("close")) {
                close = true;
            }
        }
        if (chunked) {
            for (long size = Long.parseLong(line(in).split(";")[0].trim(), 16); size > 0;
                    size = Long.parseLong(line(in).split(";")[0].trim(), 16)) {
                skip(in, size);
                line(in);
            }
            while (!line(in).isEmpty()) {
                // trailers
            }
        } else if (length >= 0) {
            skip(in, length);
        } else {
            throw new IOException("response without length on a keep-alive connection");
        }
        if (close) {
            throw new IOException("the server closed the keep-alive connection (Connection: close)");
        }
        return Integer.parseInt(parts[1]);
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new IOException("connection closed by the server");
            }
            if (b != '\r') {
                buffer.write(b);
            }
        }
        return buffer.toString(StandardCharsets.ISO_8859_1);
    }

    private static void skip(InputStream in, long bytes) throws IOException {
        long left = bytes;
        while (left > 0) {
            long skipped = in.skip(left);
            if (skipped <= 0) {
                if (in.read() < 0) {
                    throw new IOException("connection closed inside a body");
                }
                skipped = 1;
            }
            left -= skipped;
        }
    }
}
