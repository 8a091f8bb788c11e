package io.github.slingvt.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.github.slingvt.http.internal.adaptive.CarrierReading;
import java.util.function.IntPredicate;

import io.github.slingvt.http.api.HttpThreadsSnapshot;
import io.github.slingvt.http.api.ThreadingMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * maxConcurrentRequests=auto through a real Jetty: the limit moves the admission gate's cap, and the queue and the
 * 503 + Retry-After answers behave as with a fixed cap. Saturation is a test's switch here; the real signal is
 * covered by CarrierSaturationTest.
 */
class AdaptiveAdmissionPathTest {

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    /** One carrier, busy, with 100 runnable virtual threads waiting (the law aims at 4 runnable); or idle. */
    private static final CarrierReading SATURATED = CarrierReading.ofCounts(1, 1, 100);
    private static final CarrierReading IDLE = CarrierReading.ofCounts(1, 0, 0);
    private final AtomicReference<CarrierReading> carriers = new AtomicReference<>(IDLE);
    private TestJetty jetty;
    private ThreadingState state;

    @BeforeEach
    void start() throws Exception {
        jetty = new TestJetty();
        state = new ThreadingState(timer, carriers::get);
        ServerInstaller.install(jetty.server, state);
    }

    @AfterEach
    void stop() throws Exception {
        state.close();
        jetty.close();
        timer.shutdownNow();
    }

    @Test
    void saturationLowersTheCapAndTheQueueAndRejectionsWorkAsWithAFixedCap() throws Exception {
        state.apply(adaptive(4, 1000, 1));
        HttpThreadsSnapshot initial = state.snapshot();
        assertThat(initial.adaptive()).isTrue();
        assertThat(initial.bounded()).isTrue();
        assertThat(initial.capLabel()).isEqualTo("auto");
        assertThat(initial.concurrencyLimit()).isEqualTo(200);

        carriers.set(SATURATED);
        awaitLimit("falls to its minimum while the carriers stay saturated", l -> l == 4);

        java.util.List<CompletableFuture<HttpResponse<String>>> slow = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) {
            slow.add(jetty.getAsync("/probe?sleep=1500"));
        }
        awaitRunning(4);
        CompletableFuture<HttpResponse<String>> queued = jetty.getAsync("/probe");
        await("the fifth request waits", () -> state.snapshot().queued() == 1);
        HttpResponse<String> refused = jetty.get("/probe");

        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(queued).isNotDone();
        for (CompletableFuture<HttpResponse<String>> r : slow) {
            assertThat(r.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        }
        assertThat(queued.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        assertThat(jetty.probe.peak.get()).as("never more running than the adaptive cap").isEqualTo(4);
        assertThat(state.snapshot().rejected()).isEqualTo(1);
    }

    @Test
    void aFixedCapReplacesTheAdaptiveOneAndItsClockCannotMoveIt() throws Exception {
        carriers.set(SATURATED);
        state.apply(adaptive(2, 1000, 10));
        awaitLimit("falls", l -> l < 200);

        state.apply(new ThreadingSettings(ThreadingMode.VIRTUAL, 150, 20_000, 10, 1, 200, 0));
        Thread.sleep(5 * 100);
        HttpThreadsSnapshot fixed = state.snapshot();
        assertThat(fixed.adaptive()).isFalse();
        assertThat(fixed.concurrencyLimit()).as("no tick of the replaced limit moved the fixed cap").isEqualTo(150);

        carriers.set(IDLE);
        state.apply(adaptive(2, 1000, 10));
        assertThat(state.snapshot().concurrencyLimit()).as("a new adaptive limit starts afresh").isEqualTo(200);
    }

    @Test
    void otherSettingsChangeWithoutForgettingWhatTheLimitLearned() throws Exception {
        carriers.set(SATURATED);
        state.apply(adaptive(2, 1000, 10));
        awaitLimit("falls", l -> l < 100);
        carriers.set(IDLE);
        int learned = state.snapshot().concurrencyLimit();

        state.apply(adaptive(2, 1000, 50));
        assertThat(state.snapshot().concurrencyLimit()).isEqualTo(learned);
        assertThat(state.snapshot().capLabel()).isEqualTo("auto");
    }

    private static ThreadingSettings adaptive(int min, int max, int maxQueued) {
        return new ThreadingSettings(ThreadingMode.VIRTUAL, 0, 20_000, maxQueued, 1, 200, 0, true, min, max);
    }

    private void awaitLimit(String what, IntPredicate test) throws InterruptedException {
        await(what, () -> test.test(state.snapshot().concurrencyLimit()));
    }

    private void awaitRunning(int n) throws InterruptedException {
        await(n + " requests running", () -> jetty.probe.running.get() >= n);
    }

    private static void await(String what, java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("%s within 20 s", what).isLessThan(deadline);
            Thread.sleep(5);
        }
    }
}
