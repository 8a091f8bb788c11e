package io.github.slingvt.it.e2e;

import static io.github.slingvt.it.e2e.OverloadSupport.HTTP_PID;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bounded mode under 10 x its cap: an own instance with {@code -Xmx512m}, {@code maxConcurrentRequests} 20, a queue of
 * 20 and a 1 s queue timeout; 200 concurrent clients (virtual threads of the test JVM, one raw HTTP/1.0 connection
 * per request) send up to 8 requests each within 15 s that hold a slot for 500 ms and read a 4 MiB binary. Nothing is
 * lost: every answer is 200 or the gate's 503 with {@code Retry-After}, no connection fails, the server's counters
 * account for exactly these requests, its peak in-flight never exceeded the cap, it did not run out of memory, and it
 * serves normal requests afterwards.
 */
class BoundedOverloadE2EIT {

    private static final int CAP = 20;
    private static final int QUEUE = 20;
    private static final int RETRY_AFTER_SECONDS = 2;
    private static final int CLIENTS = 10 * CAP;
    private static final int REQUESTS_PER_CLIENT = 8;
    private static final Duration LOAD_TIME = Duration.ofSeconds(15);
    private static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(60);
    private static final String HOLDING_WORK = DemoServletsSupport.WORK_JSON
            + "?reads=20&fileLength=4194304&idleDelay=500";
    private static final String GATE_503_BODY = "too many concurrent requests";

    @Test
    void tenTimesTheCapGetsOnlyOkOrRetryAfter503AndTheCountersAgree(@TempDir Path files)
            throws IOException, InterruptedException {
        final Path config = OverloadSupport.configFile(files, HTTP_PID, Map.of("mode", "virtual",
                "maxConcurrentRequests", CAP, "maxQueuedRequests", QUEUE, "queueTimeout", 1000,
                "retryAfterSeconds", RETRY_AFTER_SECONDS));
        try (SlingInstance sling = SlingInstance.builder("bounded-overload").jvmOption("-Xmx512m").smallDemoTree()
                .functionalChecksOnly()
                .installFile(config).installFile(OverloadSupport.demoWithoutAnonymousLimits(files)).start()) {
            DemoServletsSupport.awaitSeeded(sling);
            OverloadSupport.awaitStatusText(sling, "Max concurrent requests: " + CAP, Duration.ofSeconds(60));
            final int port = OverloadSupport.port(sling);
            final JsonNode before = OverloadSupport.counters(sling);

            final Queue<OverloadSupport.Answer> answers = new ConcurrentLinkedQueue<>();
            final Queue<String> failures = new ConcurrentLinkedQueue<>();
            final AtomicInteger sent = new AtomicInteger();
            final CountDownLatch go = new CountDownLatch(1);
            final long began = System.nanoTime();
            final long deadline = began + LOAD_TIME.toNanos();
            int maxThreads = 0;
            long maxRss = 0;
            try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int c = 0; c < CLIENTS; c++) {
                    clients.submit(() -> {
                        go.await();
                        for (int i = 0; i < REQUESTS_PER_CLIENT && System.nanoTime() < deadline; i++) {
                            sent.incrementAndGet();
                            try {
                                final OverloadSupport.Answer answer =
                                        OverloadSupport.get(port, HOLDING_WORK, false, CLIENT_TIMEOUT);
                                answers.add(answer);
                                if (answer.status() == 503) {
                                    Thread.sleep(250);
                                }
                            } catch (IOException e) {
                                failures.add(e.toString());
                            }
                        }
                        return null;
                    });
                }
                go.countDown();
                clients.shutdown();
                while (!clients.awaitTermination(250, TimeUnit.MILLISECONDS)) {
                    maxThreads = Math.max(maxThreads, OverloadSupport.osThreads(sling.pid()));
                    maxRss = Math.max(maxRss, OverloadSupport.rssMib(sling.pid()));
                    assertThat(System.nanoTime() - began).as("load still running after the client timeouts")
                            .isLessThan(LOAD_TIME.plus(CLIENT_TIMEOUT).plusSeconds(30).toNanos());
                }
            }
            final long loadMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
            final AtomicInteger statusRequests = new AtomicInteger();
            final JsonNode after = awaitIdle(sling, statusRequests);

            final List<OverloadSupport.Answer> ok = answers.stream().filter(a -> a.status() == 200).toList();
            final List<OverloadSupport.Answer> rejected = answers.stream()
                    .filter(a -> a.status() == 503 && a.body().contains(GATE_503_BODY)).toList();
            final List<String> other = answers.stream()
                    .filter(a -> a.status() != 200 && !(a.status() == 503 && a.body().contains(GATE_503_BODY)))
                    .map(a -> "HTTP " + a.status() + ": " + a.body()).toList();
            System.out.printf("bounded overload: %d clients, %d sent in %d ms: %d x 200, %d x 503, %d other, "
                    + "%d connection failures; server %s -> %s; max OS threads %d, max RSS %d MiB%n", CLIENTS,
                    sent.get(), loadMillis, ok.size(), rejected.size(), other.size(), failures.size(), before, after,
                    maxThreads, maxRss);

            assertThat(failures).as("connection failures (refused, reset, timeout)").isEmpty();
            assertThat(other).as("answers other than 200 and the admission gate's 503").isEmpty();
            assertThat(ok.size() + rejected.size()).as("200s + 503s = requests sent").isEqualTo(sent.get());
            assertThat(ok).as("admitted requests").hasSizeGreaterThanOrEqualTo(CAP);
            assertThat(rejected).as("rejected requests at 10 x the cap").isNotEmpty();
            assertThat(rejected).as("503 answers with Retry-After: %d", RETRY_AFTER_SECONDS)
                    .allSatisfy(a -> assertThat(a.header("Retry-After")).isEqualTo(
                            Integer.toString(RETRY_AFTER_SECONDS)));
            // Every status request after 'before' is admitted and counted (that of 'before' is in 'before').
            assertThat(delta(after, before, "admitted")).as("admitted by the server")
                    .isEqualTo(ok.size() + (long) statusRequests.get());
            assertThat(delta(after, before, "rejected")).as("rejected by the server").isEqualTo(rejected.size());
            assertThat(after.path("completed").asLong()).as("completed = admitted once idle (status request open)")
                    .isEqualTo(after.path("admitted").asLong() - 1);
            assertThat(after.path("peakInFlight").asLong()).as("peak in-flight").isBetween(1L, (long) CAP);

            for (int i = 0; i < 5; i++) {
                final OverloadSupport.Answer normal =
                        OverloadSupport.getOrFail(sling, DemoServletsSupport.WORK_JSON + "?reads=5", false);
                assertThat(normal.status()).as("normal request %d after the load: %s", i, normal.body())
                        .isEqualTo(200);
            }
            OverloadSupport.assertAliveWithoutOutOfMemoryOrErrors(sling);
        }
    }

    /**
     * The counters once nothing but the status request itself is in flight and nothing is queued (60 s at most);
     * counts the status requests it sends.
     */
    private static JsonNode awaitIdle(SlingInstance sling, AtomicInteger statusRequests) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        statusRequests.incrementAndGet();
        JsonNode counters = OverloadSupport.counters(sling);
        while ((counters.path("inFlight").asLong() != 1 || counters.path("queued").asLong() != 0)
                && System.nanoTime() < deadline) {
            Thread.sleep(500);
            statusRequests.incrementAndGet();
            counters = OverloadSupport.counters(sling);
        }
        assertThat(counters.path("inFlight").asLong()).as("in flight once idle: %s", counters).isEqualTo(1);
        assertThat(counters.path("queued").asLong()).as("queued once idle: %s", counters).isZero();
        return counters;
    }

    private static long delta(JsonNode after, JsonNode before, String counter) {
        return after.path(counter).asLong() - before.path(counter).asLong();
    }
}
