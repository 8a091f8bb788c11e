package io.github.slingvt.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import io.github.slingvt.http.api.ThreadingMode;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A request that Jetty fails while it waits for admission (here: the connection's idle timeout) leaves the queue at
 * once, is booked as abandoned, and its client gets no error page: the admission path answers no 500 for it.
 */
class FailedWhileWaitingTest {

    /** Jetty's idle timeout of the test's connections: far below the queue timeout, so that it ends the wait. */
    private static final long IDLE_TIMEOUT_MILLIS = 500;
    private static final int QUEUE_TIMEOUT_MILLIS = 30_000;

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private TestJetty jetty;
    private ThreadingState state;

    @BeforeEach
    void start() throws Exception {
        jetty = new TestJetty();
        state = new ThreadingState(timer);
        ServerInstaller.install(jetty.server, state);
        ((ServerConnector) jetty.server.getConnectors()[0]).setIdleTimeout(IDLE_TIMEOUT_MILLIS);
    }

    @AfterEach
    void stop() throws Exception {
        jetty.close();
        timer.shutdownNow();
    }

    @Test
    void aWaitingRequestThatJettyTimesOutLeavesTheQueueAsAbandonedWithoutA500() throws Exception {
        state.apply(new ThreadingSettings(ThreadingMode.VIRTUAL, 1, QUEUE_TIMEOUT_MILLIS, 10, 1, 200, 0));
        // The one slot is taken, by a request that runs outside this test's connection and its idle timeout.
        state.gate().track();
        URI base = URI.create(jetty.base);
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            OutputStream out = socket.getOutputStream();
            out.write("GET /probe HTTP/1.1\r\nHost: test\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            long sent = System.nanoTime();
            await("the request waits", () -> state.snapshot().queued() == 1);
            await("Jetty's failure ends the wait", () -> state.snapshot().abandoned() == 1);
            long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent);

            assertThat(state.snapshot().queued()).as("it left the queue").isZero();
            assertThat(waitedMillis).as("at Jetty's idle timeout, not the queue's").isLessThan(QUEUE_TIMEOUT_MILLIS / 2);
            assertThat(readAll(socket)).as("what its client got: no error page").doesNotContain(" 500 ")
                    .doesNotStartWith("HTTP/1.1 5");
        }
        state.gate().exit();
        assertThat(state.snapshot().admitted()).as("it never ran").isZero();
        assertThat(jetty.probe.peak.get()).isZero();
        assertThat(state.gate().running()).isZero();
    }

    /** All the connection answers until it is closed, or 10 s pass. */
    private static String readAll(Socket socket) throws Exception {
        socket.setSoTimeout(10_000);
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        byte[] buffer = new byte[4096];
        try {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                got.write(buffer, 0, n);
            }
        } catch (SocketTimeoutException | java.net.SocketException closedOrSilent) {
            // A reset or a silent connection: nothing more to read either way.
        }
        return got.toString(StandardCharsets.ISO_8859_1);
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("%s within 10 s", what).isLessThan(deadline);
            Thread.sleep(5);
        }
    }
}
