package io.github.slingvt.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import io.github.slingvt.http.api.RequestListener;
import io.github.slingvt.http.api.ThreadingMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Listeners hear of each admission, end (thread kind, time with the wait) and refusal; a failing one is harmless. */
class RequestListenerTest {

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final Recording recording = new Recording();
    private TestJetty jetty;
    private ThreadingState state;

    @BeforeEach
    void start() throws Exception {
        jetty = new TestJetty();
        state = new ThreadingState(timer);
        ServerInstaller.install(jetty.server, state);
        state.counters().addListener(recording);
    }

    @AfterEach
    void stop() throws Exception {
        jetty.close();
        timer.shutdownNow();
    }

    @Test
    void eachRequestIsReportedWithItsThreadKindAndItsTimeIncludingTheWait() throws Exception {
        state.apply(new ThreadingSettings(ThreadingMode.VIRTUAL, 1, 30_000, 10, 1, 200, 0));
        CompletableFuture<HttpResponse<String>> first = jetty.getAsync("/probe?sleep=400");
        await(() -> jetty.probe.running.get() == 1);
        CompletableFuture<HttpResponse<String>> waiting = jetty.getAsync("/probe");
        assertThat(first.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        assertThat(waiting.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        await(() -> recording.completed.size() == 2);

        assertThat(recording.admitted).containsExactly(ThreadingMode.VIRTUAL, ThreadingMode.VIRTUAL);
        assertThat(recording.completed).allSatisfy(c -> assertThat(c.kind()).isEqualTo(ThreadingMode.VIRTUAL));
        // The second request ran at once but waited for the first: its time counts the wait.
        assertThat(recording.completed).allSatisfy(c ->
                assertThat(c.nanos()).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(300)));

        state.apply(new ThreadingSettings(ThreadingMode.KERNEL, 0, 2000, 100, 1, 40, 0));
        assertThat(jetty.get("/probe").statusCode()).isEqualTo(200);
        await(() -> recording.completed.size() == 3);
        assertThat(recording.completed.get(2).kind()).isEqualTo(ThreadingMode.KERNEL);
        assertThat(recording.completed.get(2).nanos()).isPositive()
                .isLessThan(TimeUnit.MILLISECONDS.toNanos(300));
        assertThat(recording.rejected.get()).isZero();
    }

    @Test
    void aRefusalIsReportedAndAFailingListenerDoesNotFailTheRequest() throws Exception {
        state.counters().addListener((kind, nanos) -> {
            throw new IllegalStateException("a broken metrics bundle");
        });
        state.apply(new ThreadingSettings(ThreadingMode.VIRTUAL, 1, 2000, 0, 1, 200, 0));
        CompletableFuture<HttpResponse<String>> slow = jetty.getAsync("/probe?sleep=500");
        await(() -> jetty.probe.running.get() == 1);
        assertThat(jetty.get("/probe").statusCode()).isEqualTo(503);
        assertThat(slow.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        await(() -> recording.completed.size() == 1);
        assertThat(recording.rejected.get()).isEqualTo(1);
        assertThat(state.snapshot().completed()).isEqualTo(1);
        assertThat(state.snapshot().inFlight()).isZero();

        state.counters().removeListener(recording);
        assertThat(jetty.get("/probe").statusCode()).isEqualTo(200);
        await(() -> state.snapshot().completed() == 2);
        assertThat(recording.completed).as("a removed listener hears nothing").hasSize(1);
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition within 20 s").isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    private record Completed(ThreadingMode kind, long nanos) {
    }

    private static final class Recording implements RequestListener {
        final List<ThreadingMode> admitted = new CopyOnWriteArrayList<>();
        final List<Completed> completed = new CopyOnWriteArrayList<>();
        final AtomicInteger rejected = new AtomicInteger();

        @Override
        public void admitted(ThreadingMode threadKind) {
            admitted.add(threadKind);
        }

        @Override
        public void completed(ThreadingMode threadKind, long nanos) {
            completed.add(new Completed(threadKind, nanos));
        }

        @Override
        public void rejected() {
            rejected.incrementAndGet();
        }
    }
}
