package io.github.slingvt.it.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Switches leave nothing of Jetty's pool behind (own instance): after kernel mode with 1,000 threads, a live
 * {@code kernelMaxThreads} of 200 is in force for new requests at once, and after a switch to virtual mode the OS
 * threads return to the idle count of virtual mode within seconds (left alone, Jetty would end none of them before 60 s
 * after its last thread start, and then one per idle timeout).
 */
class PoolSizeSwitchE2EIT extends OwnInstanceTestSupport {

    private static final String HTTP_PID = OverloadSupport.HTTP_PID;
    private static final int CLIENTS = 600;
    private static final String HOLDING = DemoServletsSupport.WORK_JSON + "?idleDelay=1500";
    /** Virtual mode's idle timeout of the pool (5 s), twice, and room for a busy machine. */
    private static final Duration EVICTION = Duration.ofSeconds(30);

    @Test
    void aLoweredPoolIsInForceAtOnceAndSwitchesLeaveNoThreadsBehind(@TempDir Path files) throws Exception {
        startSeeded(SlingInstance.builder("pool-switch").smallDemoTree()
                .installFile(OverloadSupport.demoWithoutAnonymousLimits(files)));
        Thread.sleep(5_000);
        final int idleVirtual = OverloadSupport.osThreads(sling.pid());

        configure(Map.of("mode", "kernel", "kernelMaxThreads", "1000"));
        awaitStatus("kernel mode with 1000", s -> "kernel".equals(s.path("mode").asText())
                && s.path("concurrencyLimit").asInt() == 1000);
        final Load wide = load();
        assertThat(wide.ok()).as("every request of the wide load answered 200; the others: %s", wide.failures())
                .isEqualTo(CLIENTS);
        assertThat(wide.maxThreads()).as("Jetty's pool grew for %d clients", CLIENTS).isGreaterThan(400);

        configure(Map.of("mode", "kernel", "kernelMaxThreads", "200"));
        awaitStatus("kernelMaxThreads 200 in force", s -> s.path("concurrencyLimit").asInt() == 200);
        final JsonNode before = OverloadSupport.counters(sling);
        final Load narrow = load();
        final JsonNode after = OverloadSupport.counters(sling);
        System.out.printf("pool switch: idle virtual %d OS threads; kernel-1000 load %s; kernel-200 load %s%n",
                idleVirtual, wide, narrow);
        assertThat(narrow.ok()).as("every request of the narrow load answered 200 (queued, not refused); the others:"
                + " %s; server before %s, after %s", narrow.failures(), before, after)
                .isEqualTo(CLIENTS);
        // Console requests (this test's status reads) run besides the cap and count as in flight: a few more.
        assertThat(narrow.maxInFlight()).as("requests in flight with kernelMaxThreads 200").isBetween(150, 205);
        // Kernel mode keeps Jetty's idle timeout (60 s): its surplus ends in two eviction rounds, not waited for here.
        final int kernelThreads = OverloadSupport.osThreads(sling.pid());

        final HttpResponse<String> switched = ConsoleConfigs.post(sling.baseUrl(), DemoServletsSupport.CONSOLE_SLINGVT,
                "mode=virtual");
        assertThat(switched.statusCode()).as("switch to virtual: %s", switched.body()).isEqualTo(200);
        final long switchedAt = System.nanoTime();
        final int virtualThreads = awaitThreads("back to virtual mode's idle count", idleVirtual + 10);
        System.out.printf("pool switch: %d OS threads after kernel-200, %d %d ms after the switch to virtual (idle %d)%n",
                kernelThreads, virtualThreads, (System.nanoTime() - switchedAt) / 1_000_000, idleVirtual);
    }

    private void configure(Map<String, String> values) {
        ConsoleConfigs.apply(sling.baseUrl(), HTTP_PID,
                values.entrySet().stream().collect(java.util.stream.Collectors.toMap(Map.Entry::getKey,
                        e -> List.of(e.getValue()))));
    }

    private void awaitStatus(String what, java.util.function.Predicate<JsonNode> test) throws InterruptedException {
        final long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        JsonNode status = OverloadSupport.counters(sling);
        while (!test.test(status)) {
            assertThat(System.nanoTime()).as("%s within 30 s; status %s", what, status).isLessThan(deadline);
            Thread.sleep(200);
            status = OverloadSupport.counters(sling);
        }
    }

    /** Waits until the instance has at most {@code most} OS threads; answers the count then. */
    private int awaitThreads(String what, int most) throws InterruptedException {
        final long start = System.nanoTime();
        int threads = OverloadSupport.osThreads(sling.pid());
        while (threads > most) {
            assertThat(System.nanoTime() - start).as("%s: %d OS threads, at most %d within %s", what, threads, most,
                    EVICTION).isLessThan(EVICTION.toNanos());
            Thread.sleep(1_000);
            threads = OverloadSupport.osThreads(sling.pid());
        }
        return threads;
    }

    /**
     * CLIENTS requests at once (their connections paced as the listen backlog takes them), each holding its request
     * 1.5 s; samples in-flight and OS threads meanwhile.
     */
    private Load load() throws Exception {
        final int port = OverloadSupport.port(sling);
        int maxInFlight = 0;
        int maxThreads = 0;
        int ok = 0;
        final long overflowsBefore = OverloadSupport.listenOverflows();
        final Map<String, Integer> failures = new java.util.TreeMap<>();
        try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            final List<Future<String>> answers = new java.util.ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                OverloadSupport.paceConnects(i);
                answers.add(clients.submit(() -> status(port)));
            }
            clients.shutdown();
            final long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            while (!clients.awaitTermination(200, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                maxInFlight = Math.max(maxInFlight, OverloadSupport.counters(sling).path("inFlight").asInt());
                maxThreads = Math.max(maxThreads, OverloadSupport.osThreads(sling.pid()));
                assertThat(System.nanoTime()).as("load within 90 s").isLessThan(deadline);
            }
            for (Future<String> answer : answers) {
                final String outcome = answer.get();
                if ("200".equals(outcome)) {
                    ok++;
                } else {
                    failures.merge(outcome, 1, Integer::sum);
                }
            }
        }
        return new Load(ok, maxInFlight, maxThreads, failures,
                OverloadSupport.listenOverflows() - overflowsBefore);
    }

    /** The status code, or the exception the request ended with. */
    private static String status(int port) {
        try {
            return Integer.toString(OverloadSupport.get(port, HOLDING, false, Duration.ofSeconds(60)).status());
        } catch (IOException e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    /** @param listenOverflows handshakes the host dropped meanwhile for a full listen backlog (any process) */
    private record Load(int ok, int maxInFlight, int maxThreads, Map<String, Integer> failures, long listenOverflows) {
    }
}
