package io.github.slingvt.it.e2e;

import static io.github.slingvt.it.e2e.DemoServletsSupport.WORK_JSON;
import static io.github.slingvt.it.e2e.DemoServletsSupport.json;
import static io.github.slingvt.it.e2e.DemoServletsSupport.scratchChildren;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * 100 work requests with {@code writes=10} at the same moment on the shared instance: every one answers 200 having
 * saved its 10 nodes below a node of its own, and afterwards the repository has nothing left below the scratch path.
 */
@ExtendWith(SharedSlingInstance.class)
class DemoConcurrentWritesE2EIT {

    private static final int REQUESTS = 100;
    private static final int WRITES = 10;
    private static final long TIMEOUT_SECONDS = 60;

    private final SlingInstance sling;

    DemoConcurrentWritesE2EIT(SlingInstance sling) {
        this.sling = sling;
    }

    @BeforeAll
    static void seeded(SlingInstance sling) throws InterruptedException {
        DemoServletsSupport.awaitSeeded(sling);
    }

    @Test
    void hundredParallelRequestsWithTenWritesEachSucceedAndLeaveNoScratchNodes()
            throws InterruptedException, ExecutionException, TimeoutException {
        final String query = WORK_JSON + "?writes=" + WRITES + "&reads=10";
        final CountDownLatch start = new CountDownLatch(1);
        final List<Future<HttpResponse<String>>> futures = new ArrayList<>();
        final long began;
        try (ExecutorService clients = Executors.newFixedThreadPool(REQUESTS)) {
            for (int i = 0; i < REQUESTS; i++) {
                futures.add(clients.submit(() -> {
                    start.await();
                    return DemoServletsSupport.postAsAdmin(sling, query);
                }));
            }
            began = System.nanoTime();
            start.countDown();
            final long deadline = began + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
            final List<String> failures = new ArrayList<>();
            final Set<String> paths = new HashSet<>();
            for (Future<HttpResponse<String>> future : futures) {
                final HttpResponse<String> response =
                        future.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (response.statusCode() != 200) {
                    failures.add("HTTP " + response.statusCode() + ": " + response.body());
                    continue;
                }
                final JsonNode work = json(response);
                if (work.at("/writes/nodes").asInt() != WRITES || !work.at("/writes/removed").asBoolean()
                        || work.at("/reads/nodes").asInt() != 10) {
                    failures.add("incomplete work: " + work);
                }
                paths.add(work.at("/writes/path").asText());
            }
            assertThat(failures).as("requests of %d x GET %s that did not do their work", REQUESTS, query).isEmpty();
            assertThat(paths).as("distinct scratch nodes of the %d requests", REQUESTS).hasSize(REQUESTS)
                    .allSatisfy(path -> assertThat(path).startsWith(DemoServletsSupport.SCRATCH + "/"));
            for (String path : paths) {
                DemoServletsSupport.assertGoneFromRepository(sling, path);
            }
        }
        System.out.printf("%d x GET %s: all 200 in %d ms%n", REQUESTS, query,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began));

        assertThat(scratchChildren(sling)).as("children of %s after %d parallel requests", DemoServletsSupport.SCRATCH,
                REQUESTS).isEmpty();
    }
}
