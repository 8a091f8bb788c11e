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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Unbounded virtual mode holds many parked requests on few OS threads: an own instance with {@code -Xmx1g}; 2,000
 * requests that each wait 12 s ({@code idleDelay}) are in flight at once (client side: one virtual thread of the test
 * JVM per connection). While they are parked a normal request answers 200 and the server's live OS threads grow by
 * at most 50 (an idle instance has about 95); then all 2,000 answer 200, and the server did not run out of memory.
 */
class UnboundedParkedE2EIT {

    private static final int PARKED = 2_000;
    /**
     * Long enough for all 2,000 to be parked (about 3 s; asserted by three quarters of it) and sampled (2 s) before
     * the first answers.
     */
    private static final int IDLE_DELAY_MS = 12_000;
    /**
     * Growth of the server's OS threads allowed while the requests are parked. The goal, fewer than 100 in
     * all, is not an assertion: the idle instance already has about 95 (JVM, Oak, Sling, Jetty; see the printout).
     */
    private static final int MAX_OS_THREAD_GROWTH = 50;
    private static final String PARKED_WORK = DemoServletsSupport.WORK_JSON + "?idleDelay=" + IDLE_DELAY_MS;
    private static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(120);

    @Test
    void twoThousandParkedRequestsKeepTheServerAnsweringOnFewOsThreads(@TempDir Path files)
            throws IOException, InterruptedException {
        final Path config = OverloadSupport.configFile(files, HTTP_PID,
                Map.of("mode", "virtual", "maxConcurrentRequests", 0));
        try (SlingInstance sling = SlingInstance.builder("unbounded-parked").jvmOption("-Xmx1g").smallDemoTree()
                .functionalChecksOnly()
                .installFile(config).installFile(OverloadSupport.demoWithoutAnonymousLimits(files)).start()) {
            DemoServletsSupport.awaitSeeded(sling);
            OverloadSupport.awaitStatusText(sling, "Max concurrent requests: unbounded", Duration.ofSeconds(60));
            final int port = OverloadSupport.port(sling);
            final int idleThreads = OverloadSupport.osThreads(sling.pid());
            final Map<String, Long> idleThreadNames = OverloadSupport.osThreadNames(sling.pid());
            Map<String, Long> parkedThreadNames = Map.of();
            final long admittedBefore = OverloadSupport.counters(sling).path("admitted").asLong();

            final Queue<OverloadSupport.Answer> answers = new ConcurrentLinkedQueue<>();
            final Queue<String> failures = new ConcurrentLinkedQueue<>();
            final List<Integer> threadSamples = new ArrayList<>();
            final long overflowsBefore = OverloadSupport.listenOverflows();
            final long began = System.nanoTime();
            long parkedAfterMillis = -1;
            long normalMillis = -1;
            long maxRss = 0;
            JsonNode parked = null;
            try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int i = 0; i < PARKED; i++) {
                    // Paced: 2,000 connections at once overflow the listen backlog; one CI run had 19 of them still
                    // retrying at 22.7 s. What is measured is requests parked at once.
                    OverloadSupport.paceConnects(i);
                    clients.submit(() -> {
                        try {
                            answers.add(OverloadSupport.get(port, PARKED_WORK, false, CLIENT_TIMEOUT));
                        } catch (IOException e) {
                            failures.add(e.toString());
                        }
                    });
                }
                // All of them in flight at once, well before the first one's 12 s are over.
                final long parkDeadline = began + TimeUnit.MILLISECONDS.toNanos(IDLE_DELAY_MS * 3L / 4);
                JsonNode counters = OverloadSupport.counters(sling);
                while (counters.path("inFlight").asLong() <= PARKED && System.nanoTime() < parkDeadline) {
                    Thread.sleep(250);
                    counters = OverloadSupport.counters(sling);
                }
                parked = counters;
                parkedAfterMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
                assertThat(parked.path("inFlight").asLong()).as("requests in flight at once (with this status "
                        + "request) %d ms after sending %d: %s", parkedAfterMillis, PARKED, parked)
                        .isGreaterThan(PARKED);
                final long normalStart = System.nanoTime();
                final OverloadSupport.Answer normal =
                        OverloadSupport.getOrFail(sling, DemoServletsSupport.WORK_JSON + "?reads=5", false);
                normalMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - normalStart);
                assertThat(normal.status()).as("normal request while %d are parked: %s", PARKED, normal.body())
                        .isEqualTo(200);
                parkedThreadNames = OverloadSupport.osThreadNames(sling.pid());
                for (int i = 0; i < 8; i++) {
                    threadSamples.add(OverloadSupport.osThreads(sling.pid()));
                    maxRss = Math.max(maxRss, OverloadSupport.rssMib(sling.pid()));
                    Thread.sleep(250);
                }
                assertThat(answers.size() + failures.size()).as("parked requests already answered or failed when "
                        + "the thread samples were taken").isZero();
                clients.shutdown();
                assertThat(clients.awaitTermination(CLIENT_TIMEOUT.toSeconds() + 30, TimeUnit.SECONDS))
                        .as("all clients done").isTrue();
            }
            final long totalMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
            final long ok = answers.stream().filter(a -> a.status() == 200).count();
            final List<String> notOk = answers.stream().filter(a -> a.status() != 200)
                    .map(a -> "HTTP " + a.status() + ": " + a.body()).limit(5).toList();
            final int maxThreads = threadSamples.stream().mapToInt(Integer::intValue).max().orElse(-1);
            System.out.printf("unbounded parked: %d requests in flight after %d ms (%s); normal request %d ms; "
                    + "OS threads idle %d, while parked %s (max %d); max RSS %d MiB; %d x 200, %d failures, "
                    + "all done after %d ms; handshakes dropped for a full listen backlog (host) %d%n"
                    + "OS threads by name, idle: %s%nOS threads by name, parked: %s%n", PARKED,
                    parkedAfterMillis, parked, normalMillis, idleThreads, threadSamples, maxThreads, maxRss, ok,
                    failures.size(), totalMillis, OverloadSupport.listenOverflows() - overflowsBefore,
                    idleThreadNames, parkedThreadNames);

            assertThat(maxThreads).as("server OS threads while %d requests are parked (idle: %d)", PARKED,
                    idleThreads).isLessThanOrEqualTo(idleThreads + MAX_OS_THREAD_GROWTH);
            assertThat(failures).as("connection failures").isEmpty();
            assertThat(notOk).as("answers other than 200").isEmpty();
            assertThat(ok).as("parked requests answered 200").isEqualTo(PARKED);
            final JsonNode after = OverloadSupport.counters(sling);
            // Admitted since 'admittedBefore': the parked ones, the normal one and the status requests since then.
            assertThat(after.path("admitted").asLong() - admittedBefore).as("admitted: %s", after)
                    .isGreaterThanOrEqualTo(PARKED + 1L);
            assertThat(after.path("rejected").asLong()).as("rejected in unbounded mode").isZero();
            OverloadSupport.assertAliveWithoutOutOfMemoryOrErrors(sling);
        }
    }
}
