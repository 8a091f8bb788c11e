package io.github.slingvt.it.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;

/**
 * A burst after saturation in the default settings ({@code maxConcurrentRequests=auto}, own instance): 20 seconds of
 * CPU-bound anonymous load from 200 clients drive the adaptive limit down (to its floor within the first seconds),
 * then 100 heavy logged-in POSTs arrive at once. A pool would queue and serve them all; so must the admission: every
 * one answered 200, no 503, nothing abandoned. On JDK 21-23 the limit stops at 200 (the process's CPU time stands in
 * for the carriers' queue there).
 */
class BurstAfterSaturationE2EIT extends OwnInstanceTestSupport {

    private static final int CLIENTS = 200;
    /** JDK 24+ counts the carriers' queue; before, the process's CPU time stands in (AdaptiveAdmission.CPU_SIGNAL_FLOOR). */
    private static final boolean SCHEDULER_BEAN =
            Runtime.Version.parse(SlingInstanceBuilder.javaVersion()).feature() >= 24;
    private static final Duration SATURATED = Duration.ofSeconds(20);
    private static final String CPU_BOUND = DemoServletsSupport.WORK_JSON + "?reads=1000&cpuIterations=1000";
    private static final int BURST = 100;
    private static final String HEAVY_POST = DemoServletsSupport.WORK_JSON
            + "?writes=5&reads=500&cpuIterations=2000";

    @Test
    void aBurstOfLoggedInPostsAfterSaturationIsServedWhole() throws Exception {
        startSeeded(SlingInstance.builder("burst").smallDemoTree());
        OverloadSupport.awaitStatusText(sling, "Max concurrent requests: auto", Duration.ofSeconds(60));

        final int port = OverloadSupport.port(sling);
        final AtomicInteger loadOk = new AtomicInteger();
        final AtomicInteger loadOther = new AtomicInteger();
        final AtomicBoolean stop = new AtomicBoolean();
        int lowestLimit = Integer.MAX_VALUE;
        try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int c = 0; c < CLIENTS; c++) {
                clients.submit(() -> {
                    while (!stop.get()) {
                        try {
                            final int status = OverloadSupport.get(port, CPU_BOUND, false, Duration.ofSeconds(60))
                                    .status();
                            (status == 200 ? loadOk : loadOther).incrementAndGet();
                        } catch (IOException e) {
                            loadOther.incrementAndGet();
                        }
                    }
                    return null;
                });
            }
            final long end = System.nanoTime() + SATURATED.toNanos();
            while (System.nanoTime() < end) {
                Thread.sleep(1_000);
                lowestLimit = Math.min(lowestLimit, OverloadSupport.counters(sling).path("concurrencyLimit").asInt());
            }
            stop.set(true);
        }
        final JsonNode before = OverloadSupport.counters(sling);

        final CountDownLatch go = new CountDownLatch(1);
        final List<Future<HttpResponse<String>>> posts = new ArrayList<>();
        try (ExecutorService burst = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < BURST; i++) {
                posts.add(burst.submit(() -> {
                    go.await();
                    return DemoServletsSupport.postAsAdmin(sling, HEAVY_POST);
                }));
            }
            go.countDown();
        }
        final Map<Integer, Integer> statuses = new java.util.TreeMap<>();
        for (Future<HttpResponse<String>> post : posts) {
            statuses.merge(post.get().statusCode(), 1, Integer::sum);
        }
        final JsonNode after = OverloadSupport.counters(sling);
        System.out.printf("burst after saturation: load %d x 200, %d other; lowest limit %d; limit before the burst %d; "
                + "burst statuses %s; server before %s, after %s%n", loadOk.get(), loadOther.get(), lowestLimit,
                before.path("concurrencyLimit").asInt(), statuses, before, after);

        if (SCHEDULER_BEAN) {
            assertThat(lowestLimit).as("the saturated seconds drove the adaptive limit below its start").isLessThan(200);
        } else {
            // JDK 21-23: the process's CPU time stands in for the carriers and the limit stops at a pool's 200.
            assertThat(lowestLimit).as("the CPU load's floor").isEqualTo(200);
        }
        assertThat(loadOther.get()).as("the saturating load itself: anything but 200").isZero();
        assertThat(statuses).as("every POST of the burst served").isEqualTo(Map.of(200, BURST));
        assertThat(after.path("rejected").asLong() - before.path("rejected").asLong()).as("503s").isZero();
        assertThat(after.path("abandoned").asLong()).as("abandoned").isZero();
    }
}
