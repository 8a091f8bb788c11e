package io.github.slingvt.http.internal;

import io.github.slingvt.http.api.ThreadingMode;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue #11, item 4: one admission path. The cap counts every running request, whatever thread its head was parsed
 * on, so after a switch to bounded mode the overshoot is what was already running and new requests wait until the
 * running count falls below the cap; and web console requests never wait behind application requests.
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
        assertThat(state.gate().running()).isZero();
    }

    @Test
    void webConsoleRequestsNeverWaitBehindApplicationRequests() throws Exception {
        state.apply(new ThreadingSettings(ThreadingMode.VIRTUAL, 1, 20_000, 10, 1, 200, 0));
        CompletableFuture<HttpResponse<String>> holder = jetty.getAsync("/probe?sleep=1500");
        awaitRunning(1);
        CompletableFuture<HttpResponse<String>> queued = jetty.getAsync("/probe");

        HttpResponse<String> console = jetty.get("/system/console/slingvt");

        assertThat(console.statusCode()).isEqualTo(200);
        assertThat(holder).as("the console answered while the application request held the only slot").isNotDone();
        assertThat(queued).as("an application request still waits for that slot").isNotDone();
        assertThat(holder.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        assertThat(queued.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    }

    private void awaitRunning(int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (jetty.probe.running.get() < n) {
            assertThat(System.nanoTime()).as("%d requests running within 10 s", n).isLessThan(deadline);
            Thread.sleep(5);
        }
    }
}
