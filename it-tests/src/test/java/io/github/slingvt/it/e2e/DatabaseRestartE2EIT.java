package io.github.slingvt.it.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
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

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue #29, database faults under load on a cluster of two nodes: PostgreSQL restarted (fast shutdown, start on the
 * same port), then stopped for 30 s and started again, while two clients write to the first node through the Sling
 * POST servlet and one reads. Both nodes serve again without a restart of their own; the requests that fail do so
 * only while the database is away or just after; and every write acknowledged (201) is read back on the other node. Runs on the build JDK (what it checks is Oak's, pgjdbc's and
 * the pool's behaviour). {@link LeaseLossE2EIT}: a database away for longer than Oak's lease.
 */
class DatabaseRestartE2EIT extends PostgresTestSupport {

    private static final String RUN = "/content/pg-restart-" + Long.toString(System.nanoTime(), 36);
    /** After the database is back, the first success may follow failures of requests that were already waiting. */
    private static final long SETTLE_MILLIS = 5_000;

    private SlingInstance sling;
    /** The second node of the cluster: it reads back what the first acknowledged. */
    private SlingInstance other;

    @AfterEach
    void stopInstances() {
        for (SlingInstance node : new SlingInstance[] {sling, other}) {
            if (node != null) {
                node.stop();
            }
        }
    }

    /** One answered write: when it was sent and ended, and its status (0: no answer). */
    private record Write(String path, long sentMillis, long endedMillis, int status) {
        boolean acknowledged() {
            return status == 201;
        }
    }

    /** What one outage did: its writes, when the database went away and came back, and the reads answered 200. */
    private record Outage(List<Write> writes, long began, long ended, long firstSuccessAfter, int readsOk, int reads) {
        List<Write> failed() {
            return writes.stream().filter(w -> !w.acknowledged()).toList();
        }
    }

    /** A step that takes the database away and brings it back. */
    @FunctionalInterface
    private interface Fault {
        void run() throws Exception;
    }

    @Test
    void theDatabaseRestartedOrAwayFor30SecondsIsServedAgainAndNothingAcknowledgedIsLost() throws Exception {
        sling = SlingInstance.builder("pg-restart").postgres(postgres.jdbcUrl(), postgres.passwordFile())
                .smallDemoTree()
                .start();
        other = SlingInstance.builder("pg-restart-b").postgres(postgres.jdbcUrl(), postgres.passwordFile())
                .smallDemoTree()
                .start();
        final long instancePid = sling.pid();
        final long otherPid = other.pid();
        assertThat(post(RUN + "/before").statusCode()).isEqualTo(201);

        final Outage restart = outage("restart", postgres::restart);
        // Oak's lease (120 s) outlasts this outage: it fails only after 90-100 s without renewal.
        final Outage away = outage("away for 30 s", () -> {
            postgres.stop();
            SlingInstance.sleep(30_000);
            postgres.startAgain();
        });

        assertThat(sling.pid()).as("the same instance, not restarted").isEqualTo(instancePid);
        assertThat(other.pid()).as("the other node, not restarted").isEqualTo(otherPid);
        for (SlingInstance node : new SlingInstance[] {sling, other}) {
            assertThat(node.get("/system/health/systemready.json").statusCode()).as("%s ready again", node.name())
                    .isEqualTo(200);
        }
        // Every acknowledged write is on the other node, which read nothing of it from the writer's memory.
        final java.util.Set<String> acknowledged = new java.util.HashSet<>();
        for (Outage outage : List.of(restart, away)) {
            outage.writes().stream().filter(Write::acknowledged).map(Write::path).forEach(acknowledged::add);
        }
        await(() -> children(other).containsAll(acknowledged), acknowledged.size()
                + " acknowledged writes on the other node", 60);
        final String one = acknowledged.iterator().next();
        assertThat(DemoServletsSupport.json(other.get(one + ".json")).path("title").asText()).isEqualTo(one);
    }

    /**
     * Two clients write (and one reads) until 20 writes are acknowledged, then {@code fault} runs, then until 40 more
     * are: every failed write ended while the database was away or just after, and no more failed than were sent then.
     */
    private Outage outage(String name, Fault fault) throws Exception {
        final Queue<Write> writes = new ConcurrentLinkedQueue<>();
        final AtomicBoolean writing = new AtomicBoolean(true);
        final AtomicInteger reads = new AtomicInteger();
        final AtomicInteger readsOk = new AtomicInteger();
        final ExecutorService load = Executors.newFixedThreadPool(3);
        final String prefix = RUN + "/" + name.replace(' ', '-');
        long began;
        long ended;
        try {
            for (int c = 0; c < 2; c++) {
                final int client = c;
                load.submit(() -> {
                    for (int i = 0; writing.get() && i < 50_000; i++) {
                        final String path = prefix + "-c" + client + "-" + i;
                        final long sent = System.currentTimeMillis();
                        int status;
                        try {
                            status = post(path).statusCode();
                        } catch (RuntimeException e) {
                            status = 0;
                        }
                        writes.add(new Write(path, sent, System.currentTimeMillis(), status));
                        if (status != 201) {
                            // A failure comes back at once while the database is away: no need to send thousands.
                            SlingInstance.sleep(20);
                        }
                    }
                });
            }
            load.submit(() -> {
                while (writing.get()) {
                    reads.incrementAndGet();
                    try {
                        if (sling.get(RUN + "/before.json").statusCode() == 200) {
                            readsOk.incrementAndGet();
                        }
                    } catch (RuntimeException e) {
                        // counted as not answered
                    }
                    SlingInstance.sleep(50);
                }
            });
            await(() -> acknowledged(writes) >= 20, "20 writes acknowledged before the " + name, 60);
            began = System.currentTimeMillis();
            fault.run();
            ended = System.currentTimeMillis();
            final long before = acknowledged(writes);
            await(() -> acknowledged(writes) >= before + 40, "40 writes acknowledged after the " + name, 120);
        } finally {
            writing.set(false);
            load.shutdown();
            assertThat(load.awaitTermination(60, TimeUnit.SECONDS)).as("load stopped").isTrue();
        }
        final List<Write> all = List.copyOf(writes);
        final long firstSuccessAfter = all.stream().filter(w -> w.acknowledged() && w.sentMillis() >= ended)
                .mapToLong(Write::endedMillis).min().orElseThrow();
        final Outage outage = new Outage(all, began, ended, firstSuccessAfter, readsOk.get(), reads.get());
        final List<Write> failed = outage.failed();
        System.out.printf("PostgreSQL %s: %d ms away (stop + start), first acknowledged write %d ms after it was back; "
                + "%d writes, %d failed (%s); reads answered 200: %d of %d%n", name, ended - began,
                firstSuccessAfter - ended, all.size(), failed.size(), failed.stream().map(Write::status).distinct()
                .toList(), outage.readsOk(), outage.reads());
        assertThat(failed).as("failed writes outside the outage (%d ms to %d ms)", began, firstSuccessAfter)
                .allSatisfy(w -> assertThat(w.endedMillis()).isBetween(began, firstSuccessAfter + SETTLE_MILLIS));
        assertThat(failed.size()).as("failed writes, at most those sent while the database was away")
                .isLessThanOrEqualTo((int) all.stream().filter(w -> w.sentMillis() <= firstSuccessAfter
                        && w.endedMillis() >= began).count());
        return outage;
    }

    /**
     * The paths of RUN's children as {@code node} sees them (one request: every write is a child of RUN). Before the
     * node has read the other cluster node's changes, RUN itself is not there yet (404): no children so far.
     */
    private static java.util.Set<String> children(SlingInstance node) {
        final HttpResponse<String> response = node.get(RUN + ".1.json");
        if (response.statusCode() == 404) {
            return java.util.Set.of();
        }
        assertThat(response.statusCode()).as("%s.1.json on %s", RUN, node.name()).isEqualTo(200);
        final java.util.Set<String> paths = new java.util.HashSet<>();
        DemoServletsSupport.json(response).fieldNames().forEachRemaining(name -> paths.add(RUN + "/" + name));
        return paths;
    }

    private HttpResponse<String> post(String path) {
        return sling.postForm(path, Map.of("title", path), true);
    }

    private static long acknowledged(Queue<Write> writes) {
        return writes.stream().filter(Write::acknowledged).count();
    }

    private static void await(BooleanSupplier condition, String what, int seconds) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("%s within %d s", what, seconds).isLessThan(deadline);
            Thread.sleep(100);
        }
    }
}
