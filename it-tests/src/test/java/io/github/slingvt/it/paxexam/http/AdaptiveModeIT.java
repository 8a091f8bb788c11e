package io.github.slingvt.it.paxexam.http;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import io.github.slingvt.http.api.HttpThreadsSnapshot;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;

/**
 * maxConcurrentRequests=auto under a load that saturates the carriers (CPU-bound requests, many more clients than
 * cores): the adaptive cap keeps fewer requests in flight than unbounded mode does under the same load, and no
 * request fails other than with 503 + Retry-After. The signal is this JVM's (JDK 24+: the virtual thread
 * scheduler's queue).
 */
@RunWith(PaxExam.class)
public class AdaptiveModeIT extends AbstractHttpThreadsTestSupport {

    private static final int CLIENTS = 300;
    private static final String WORK = "burn=20";
    private static final Duration WARM_UP = Duration.ofSeconds(4);
    private static final Duration MEASURED = Duration.ofSeconds(6);

    @Override
    protected Map<String, Object> initialConfiguration() {
        return adaptive();
    }

    private static Map<String, Object> adaptive() {
        return Map.of("mode", "virtual", "maxConcurrentRequests", "auto", "adaptiveMinLimit", 8,
                "queueTimeout", 30_000L, "maxQueuedRequests", 10_000, "retryAfterSeconds", 2);
    }

    @Test
    public void adaptiveCapHoldsFewerInFlightThanUnboundedAndFailsOnlyWith503() throws Exception {
        assertTrue("adaptive in force", threads().adaptive());
        Load adaptive = load();
        HttpThreadsSnapshot after = threads();

        configure(Map.of("mode", "virtual", "maxConcurrentRequests", 0));
        awaitAdaptive(false);
        Load unbounded = load();

        String report = "adaptive: " + adaptive + "; unbounded: " + unbounded + "; limit after the adaptive load "
                + after.concurrencyLimit();
        System.out.println("AdaptiveModeIT: " + report);
        assertEquals(report, Map.of(), adaptive.failures());
        assertEquals(report, Map.of(), unbounded.failures());
        assertTrue(report, adaptive.ok() > 0 && unbounded.ok() > 0);
        // Unbounded: most clients' requests are in flight at once at some moment (the clients share the carriers
        // with the server in this JVM, so not all of them: peaks of 296-300 in eight runs, 227 in one CI run).
        assertTrue(report, unbounded.maxInFlight() > CLIENTS / 2);
        // The cap holds the peak below unbounded's, which is nearly every client (measured in eight runs: adaptive
        // max 114-142, unbounded 296-300). The mean is printed, not asserted: the limit grows while the carriers
        // are saturated and falls back after the load, so it swings (adaptive mean 73-134 vs unbounded 140-197,
        // ratio 0.42-0.90; the earlier bound of 0.75 failed once).
        assertTrue(report, adaptive.maxInFlight() < unbounded.maxInFlight() * 0.8);
        assertTrue(report, after.concurrencyLimit() >= 8 && after.concurrencyLimit() < CLIENTS);

        configure(adaptive());
        awaitAdaptive(true);
    }

    /** CLIENTS closed-loop clients for WARM_UP + MEASURED; in-flight sampled every 50 ms after the warm-up. */
    private Load load() throws Exception {
        long start = System.nanoTime();
        long measureFrom = start + WARM_UP.toNanos();
        long end = measureFrom + MEASURED.toNanos();
        AtomicLong ok = new AtomicLong();
        Map<String, Integer> failures = new ConcurrentHashMap<>();
        List<Thread> clients = new ArrayList<>();
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl() + PROBE + "?" + WORK))
                .timeout(Duration.ofSeconds(60)).build();
        for (int i = 0; i < CLIENTS; i++) {
            clients.add(Thread.ofVirtual().start(() -> {
                while (System.nanoTime() < end) {
                    try {
                        HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString());
                        if (r.statusCode() == 200) {
                            ok.incrementAndGet();
                        } else if (r.statusCode() != 503 || r.headers().firstValue("Retry-After").isEmpty()) {
                            failures.merge("HTTP " + r.statusCode(), 1, Integer::sum);
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    } catch (Exception e) {
                        failures.merge(e.getClass().getSimpleName(), 1, Integer::sum);
                    }
                }
            }));
        }
        List<Long> inFlight = new ArrayList<>();
        while (System.nanoTime() < end) {
            if (System.nanoTime() >= measureFrom) {
                inFlight.add(threads().inFlight());
            }
            Thread.sleep(50);
        }
        for (Thread t : clients) {
            t.join(TimeUnit.SECONDS.toMillis(90));
            assertTrue("client finished", !t.isAlive());
        }
        awaitIdle();
        return new Load(ok.get(), Map.copyOf(failures),
                inFlight.stream().mapToLong(Long::longValue).average().orElse(-1),
                inFlight.stream().mapToLong(Long::longValue).max().orElse(-1));
    }

    private void awaitIdle() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (threads().inFlight() != 0 || threads().queued() != 0) {
            assertTrue("idle within 60 s: " + threads(), System.nanoTime() < deadline);
            Thread.sleep(20);
        }
    }

    private void awaitAdaptive(boolean expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (threads().adaptive() != expected) {
            assertTrue("adaptive=" + expected + " within 20 s", System.nanoTime() < deadline);
            Thread.sleep(20);
        }
    }

    private record Load(long ok, Map<String, Integer> failures, double meanInFlight, long maxInFlight) {
        @Override
        public String toString() {
            return String.format("%d ok, failures %s, in flight mean %.0f max %d", ok,
                    failures.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                            .collect(Collectors.joining(",", "{", "}")),
                    meanInFlight, maxInFlight);
        }
    }
}
