package io.github.slingvt.it.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue #12: two Sling instances on one Oak DocumentNodeStore in PostgreSQL ({@code sling-vt-postgres} feature) form
 * a cluster, and the kill of one while it writes loses nothing it acknowledged. PostgreSQL is started by
 * {@code ./sling-vt postgres start} on a free port in a temp folder and stopped by its PID at the end.
 * <p>
 * Runs on the build JDK only (excluded from the JDK 21 run in the pom): what it checks is Oak's and PostgreSQL's
 * behaviour, and the restart of the killed node waits for its Oak lease to expire. The instances run with a lease of
 * {@value #LEASE_SECONDS} s instead of Oak's 120 s (system property {@code oak.documentMK.leaseDurationSeconds}), which
 * halves that wait; Oak still renews every 10 s and fails a lease only after about 40 s without renewal.
 * {@link PostgresStoreE2EIT} runs on both JDKs.
 */
class PostgresClusterE2EIT extends PostgresTestSupport {

    private static final int LEASE_SECONDS = 60;
    private static final String RUN = "/content/pg-cluster-" + Long.toString(System.nanoTime(), 36);
    private SlingInstance a;
    private SlingInstance b;

    @AfterEach
    void stopInstances() {
        for (SlingInstance sling : new SlingInstance[] {a, b}) {
            if (sling != null) {
                sling.stop();
            }
        }
    }

    @Test
    void twoInstancesShareTheRepositoryAndSurviveTheKillOfOne() throws Exception {
        a = node("pg-a").start();
        b = node("pg-b").start();
        final int idA = repository(a).path("clusterId").asInt();
        final int idB = repository(b).path("clusterId").asInt();
        assertThat(idA).as("cluster ids").isPositive().isNotEqualTo(idB);
        await(() -> activeIds(a).containsAll(List.of(idA, idB)) && activeIds(b).containsAll(List.of(idA, idB)),
                "both instances see both leases", 60);

        // Written on A, read on B within Oak's background read (1 s), bounded.
        assertThat(post(a, RUN + "/from-a", "written on A").statusCode()).isEqualTo(201);
        await(() -> b.get(RUN + "/from-a.json").statusCode() == 200, "B reads what A wrote", 30);
        assertThat(DemoServletsSupport.json(b.get(RUN + "/from-a.json")).path("title").asText()).isEqualTo("written on A");

        // A writes until it is killed; B reads and writes all along.
        final Queue<String> acknowledged = new ConcurrentLinkedQueue<>();
        final AtomicBoolean writing = new AtomicBoolean(true);
        final AtomicInteger bFailures = new AtomicInteger();
        final Queue<String> bErrors = new ConcurrentLinkedQueue<>();
        final AtomicInteger bDone = new AtomicInteger();
        final ExecutorService load = Executors.newFixedThreadPool(2);
        try {
            load.submit(() -> {
                for (int i = 0; writing.get() && i < 10_000; i++) {
                    final String path = RUN + "/a-" + i;
                    try {
                        if (post(a, path, "a" + i).statusCode() / 100 == 2) {
                            acknowledged.add(path);
                        }
                    } catch (RuntimeException killed) {
                        return;
                    }
                }
            });
            load.submit(() -> {
                for (int i = 0; writing.get() && i < 100_000; i++) {
                    try {
                        final int write = post(b, RUN + "/b-" + i, "b" + i).statusCode();
                        final int read = b.get(RUN + "/from-a.json").statusCode();
                        if (write != 201 || read != 200) {
                            bFailures.incrementAndGet();
                            bErrors.add("write " + write + ", read " + read);
                        }
                        bDone.incrementAndGet();
                    } catch (RuntimeException e) {
                        bFailures.incrementAndGet();
                        bErrors.add(e.toString());
                    }
                }
            });
            await(() -> acknowledged.size() >= 20, "A acknowledged 20 writes", 60);
            ProcessHandle.of(a.pid()).ifPresent(ProcessHandle::destroyForcibly);
            final int bBefore = bDone.get();
            await(() -> !ProcessHandle.of(a.pid()).map(ProcessHandle::isAlive).orElse(false), "A is dead", 30);
            await(() -> bDone.get() >= bBefore + 20, "B served 20 more writes and reads after A's kill", 60);
        } finally {
            writing.set(false);
            load.shutdown();
            assertThat(load.awaitTermination(60, TimeUnit.SECONDS)).as("load stopped").isTrue();
        }
        assertThat(bFailures.get()).as("B's failed requests around A's kill: %s", bErrors).isZero();

        // A restarted on its home: Oak recovers what A had not yet made visible; nothing acknowledged is lost.
        final Path homeA = a.home();
        a.stop();
        a = node("pg-a").home(homeA).start();
        System.out.printf("PostgreSQL cluster: A (cluster id %d) acknowledged %d writes before kill -9; B (cluster id "
                + "%d) served %d writes+reads; A back as cluster id %d%n", idA, acknowledged.size(), idB, bDone.get(),
                repository(a).path("clusterId").asInt());
        for (SlingInstance sling : new SlingInstance[] {a, b}) {
            await(() -> acknowledged.stream().allMatch(path -> sling.get(path + ".json").statusCode() == 200),
                    "every write A acknowledged is visible on " + sling.home().getFileName(), 60);
        }
    }

    private SlingInstanceBuilder node(String name) {
        return SlingInstance.builder(name).postgres(postgres.jdbcUrl(), postgres.passwordFile())
                .jvmOption("-Doak.documentMK.leaseDurationSeconds=" + LEASE_SECONDS);
    }

    private static HttpResponse<String> post(SlingInstance sling, String path, String title) {
        return sling.postForm(path, Map.of("title", title), true);
    }

    private static List<Integer> activeIds(SlingInstance sling) {
        List<Integer> ids = new java.util.ArrayList<>();
        repository(sling).path("activeClusterIds").forEach(id -> ids.add(id.asInt()));
        return ids;
    }

    private static void await(BooleanSupplier condition, String what, int seconds) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("%s within %d s", what, seconds).isLessThan(deadline);
            Thread.sleep(200);
        }
    }
}
