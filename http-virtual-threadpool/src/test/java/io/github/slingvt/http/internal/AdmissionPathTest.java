package io.github.slingvt.http.internal;

import io.github.slingvt.http.api.ThreadingMode;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue #11, item 4: one admission path. The cap counts every running request, whatever thread its head was parsed
 * on, so after a switch to bounded mode the overshoot is what was already running and new requests wait until the
 * running count falls below the cap; and web console and health check requests never wait behind application requests.
 */
class AdmissionPathTest {

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private TestJetty jetty;
    private ThreadingState state;

    @BeforeEach
    void start() throws Exception {
        jetty = new TestJetty();
        state = new ThreadingState(timer);
        ServerInstaller.install(jetty.server, state);
    }

    @AfterEach
    void stop() throws Exception {
        jetty.close();
        timer.shutdownNow();
    }

    @Test
    void requestsRunningBeforeASwitchToACapCountAgainstIt() throws Exception {
        // Unbounded: three slow requests run on virtual threads without passing the gate.
        state.apply(new ThreadingSettings(ThreadingMode.VIRTUAL, 0, 2000, 10, 1, 200, 0));
        List<CompletableFuture<HttpResponse<String>>> slow = List.of(jetty.getAsync("/probe?sleep=1500"),
                jetty.getAsync("/probe?sleep=1500"), jetty.getAsync("/probe?sleep=1500"));
        awaitRunning(3);
        state.apply(new ThreadingSettings(ThreadingMode.VIRTUAL, 2, 20_000, 10, 1, 200, 0));
        assertThat(state.gate().running()).as("the three running requests count against the new cap").isEqualTo(3);

        HttpResponse<String> next = jetty.get("/probe");

        assertThat(next.statusCode()).isEqualTo(200);
        assertThat(jetty.probe.peak.get()).as("the new request ran only once the running count fell below the cap, "
                + "never beside all three").isEqualTo(3);
        CompletableFuture.allOf(slow.toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);
        // A slot is given back once the response is complete and its thread has ended: after the client has the
        // answer, not before.
        awaitWithin10s("every slot given back after the last answer", () -> state.gate().running() == 0);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/system/console/slingvt", "/system/health/systemready.json", "/system/health.json"})
    void operatorRequestsNeverWaitBehindApplicationRequests(String operatorPath) throws Exception {
        state.apply(new ThreadingSettings(ThreadingMode.VIRTUAL, 1, 20_000, 10, 1, 200, 0));
        CompletableFuture<HttpResponse<String>> holder = jetty.getAsync("/probe?sleep=1500");
        awaitRunning(1);
        CompletableFuture<HttpResponse<String>> queued = jetty.getAsync("/probe");

        HttpResponse<String> console = jetty.get(operatorPath);

        assertThat(console.statusCode()).isEqualTo(200);
        assertThat(holder).as("%s answered while the application request held the only slot", operatorPath).isNotDone();
        assertThat(queued).as("an application request still waits for that slot").isNotDone();
        assertThat(holder.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        assertThat(queued.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    }

    /**
     * A refused request whose body has not all arrived: the answer says {@code Connection: close}, as the server then
     * closes the connection; without it a client or balancer sends its next request on a connection about to close
     * and gets no answer at all.
     */
    @Test
    void aRefusedRequestWhoseBodyIsStillComingSaysTheConnectionCloses() throws Exception {
        state.apply(new ThreadingSettings(ThreadingMode.VIRTUAL, 1, 20_000, 0, 7, 200, 0));
        CompletableFuture<HttpResponse<String>> holder = jetty.getAsync("/probe?sleep=1500");
        awaitRunning(1);
        int port = java.net.URI.create(jetty.base).getPort();
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("POST /probe HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                    + "application/x-www-form-urlencoded\r\nContent-Length: 7\r\n\r\n")
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            String head = new String(socket.getInputStream().readNBytes(512), java.nio.charset.StandardCharsets.US_ASCII);
            assertThat(head).startsWith("HTTP/1.1 503").contains("Retry-After: 7").containsIgnoringCase("Connection: close");
        }
        assertThat(holder.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    }

    private void awaitRunning(int n) throws InterruptedException {
        awaitWithin10s(n + " requests running", () -> jetty.probe.running.get() >= n);
    }

    private static void awaitWithin10s(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("%s within 10 s", what).isLessThan(deadline);
            Thread.sleep(5);
        }
    }
}
