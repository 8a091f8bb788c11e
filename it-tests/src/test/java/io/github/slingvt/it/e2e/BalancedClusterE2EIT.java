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
import java.util.function.BooleanSupplier;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #29, parts 3 and 4: {@code ./sling-vt cluster} runs two nodes on one Oak DocumentNodeStore in PostgreSQL behind
 * HAProxy. Under a load of writes (POST) and reads (GET) through the balancer: a rolling restart
 * ({@code ./sling-vt cluster restart}) fails no request; a node that answers 503 (Sling VT's admission, here a cap of
 * one request) has its GETs served by the other node, while a POST is never replayed; and a {@code kill -9} of a node
 * fails at most the writes that were in flight on it, every write acknowledged before is read back on the other node
 * once Oak's recovery has run.
 * <p>
 * Runs on the build JDK only (excluded from the JDK 21 run in the pom): what it checks is HAProxy's, Oak's and the
 * script's behaviour. The nodes run with an Oak lease of {@value #LEASE_SECONDS} s instead of 120 s (system property
 * {@code oak.documentMK.leaseDurationSeconds}), so that the other node recovers the killed one's last writes within
 * about 40 s; Oak still renews every 10 s and fails a lease only after 20 s without renewal. The nodes run with the
 * JIT's first tier only (as {@link SlingInstanceBuilder#functionalChecksOnly()}): the test counts failures, not speed.
 */
class BalancedClusterE2EIT extends PostgresTestSupport {

    private static final int LEASE_SECONDS = 40;
    /** Between two requests of one client: a steady load that leaves the 2 cores room for a node's restart. */
    private static final long PAUSE_MILLIS = 25;
    private static final String HTTP_PID = "io.github.slingvt.http.VirtualThreads";
    private static final String RUN = "/content/lb-" + Long.toString(System.nanoTime(), 36);

    /** One request of the load: what, its answer (0: none, then {@code error} says why), and when. */
    private record Outcome(String method, String path, int status, String error, long sentMillis, long endedMillis) {
        boolean ok() {
            return status / 100 == 2;
        }
    }

    @Test
    void rollingRestartRedispatchAndKillBehindTheBalancer(@TempDir Path work) throws Exception {
        try (ClusterRun cluster = ClusterRun.start(work, postgres, 2, "-Doak.documentMK.leaseDurationSeconds="
                + LEASE_SECONDS + " " + SlingInstanceBuilder.FUNCTIONAL_CHECKS_ONLY)) {
            HttpEndpoint lb = cluster.balancer();
            int idA = repository(cluster.node(1)).path("clusterId").asInt();
            int idB = repository(cluster.node(2)).path("clusterId").asInt();
            assertThat(idA).as("cluster ids").isPositive().isNotEqualTo(idB);
            Map<String, JsonNode> balancer = cluster.status();
            assertThat(balancer.keySet()).containsExactly("node-1", "node-2");
            assertThat(balancer.values()).allSatisfy(row -> assertThat(row.path("status").asText()).isEqualTo("UP"));
            assertThat(lb.postForm(RUN, Map.of("title", "parent"), true).statusCode()).isEqualTo(201);
            for (int n = 1; n <= 2; n++) {
                HttpEndpoint node = cluster.node(n);
                await(() -> node.get(RUN + ".json", false).statusCode() == 200, "node " + n + " reads the parent", 30);
            }

            // A rolling restart under load: no request fails.
            long[] pidsBefore = {cluster.nodePid(1), cluster.nodePid(2)};
            long restartBegan = System.currentTimeMillis();
            List<Outcome> restart = underLoad(lb, 2, () -> cluster.rollingRestart(300));
            long restartMillis = System.currentTimeMillis() - restartBegan;
            assertThat(restart.stream().filter(o -> !o.ok()).toList()).as("failed requests during the rolling restart")
                    .isEmpty();
            assertThat(new long[] {cluster.nodePid(1), cluster.nodePid(2)}).as("both nodes restarted")
                    .doesNotContain(pidsBefore);
            assertThat(restart.size()).as("requests served during the rolling restart").isGreaterThan(300);

            // Node 1 admits one request at a time and refuses the rest at once: its GETs go to node 2, POSTs do not.
            ConsoleConfigs.apply(cluster.node(1).baseUrl(), HTTP_PID, Map.of("maxConcurrentRequests", List.of("1"),
                    "maxQueuedRequests", List.of("0")));
            long redispatchedBefore = redispatches(cluster);
            List<Outcome> refused = underLoad(lb, 8, () -> {
                SlingInstance.sleep(2_000);
                return "";
            }, "/bin/vt/work.json?idleDelay=100");
            ConsoleConfigs.delete(cluster.node(1).baseUrl(), HTTP_PID);
            assertThat(refused.stream().filter(o -> o.method().equals("GET") && !o.ok()).toList())
                    .as("GETs the client saw fail while node 1 refused").isEmpty();
            assertThat(redispatches(cluster) - redispatchedBefore).as("GETs HAProxy sent to the other node")
                    .isPositive();
            assertThat(refused.stream().filter(o -> o.method().equals("POST") && !o.ok()).toList())
                    .as("POSTs answered 503 (not replayed on the other node)")
                    .isNotEmpty().allSatisfy(o -> assertThat(o.status()).isEqualTo(503));

            // kill -9 of node 2 under load: at most the writes in flight on it fail, no read.
            long pidB = cluster.nodePid(2);
            long[] killedAt = new long[2];
            List<Outcome> kill = underLoad(lb, 2, () -> {
                SlingInstance.sleep(2_000);
                killedAt[0] = System.currentTimeMillis();
                ProcessHandle.of(pidB).ifPresent(ProcessHandle::destroyForcibly);
                await(() -> !ProcessHandle.of(pidB).map(ProcessHandle::isAlive).orElse(false), "node 2 dead", 30);
                killedAt[1] = System.currentTimeMillis();
                SlingInstance.sleep(5_000);
                return "";
            });
            List<Outcome> failed = kill.stream().filter(o -> !o.ok()).toList();
            System.out.printf("Balanced cluster: %d requests during the rolling restart (%d ms), none failed; %d "
                    + "requests while node 1 refused (%d POSTs refused, GETs redispatched); %d requests around kill -9 "
                    + "of node 2, %d failed %s%n", restart.size(), restartMillis, refused.size(),
                    refused.stream().filter(o -> !o.ok()).count(), kill.size(), failed.size(), failed);
            assertThat(failed).as("requests failed by the kill: POSTs in flight on node 2 only (2 writers)")
                    .hasSizeLessThanOrEqualTo(2)
                    .allSatisfy(o -> assertThat(o.method()).isEqualTo("POST"))
                    .allSatisfy(o -> assertThat(o.sentMillis()).as("sent before node 2 was dead")
                            .isLessThanOrEqualTo(killedAt[1]))
                    .allSatisfy(o -> assertThat(o.endedMillis()).as("ended once the kill began")
                            .isGreaterThanOrEqualTo(killedAt[0]));
            assertThat(kill.stream().filter(o -> o.ok() && o.sentMillis() > killedAt[0] + 2_000).count())
                    .as("requests served after the kill").isGreaterThan(20);

            // Every acknowledged write, also those node 2 had not yet made visible, is read on node 1 after recovery.
            List<String> acknowledged = java.util.stream.Stream.of(restart, refused, kill).flatMap(List::stream)
                    .filter(o -> o.method().equals("POST") && o.status() == 201).map(Outcome::path).toList();
            HttpEndpoint a = cluster.node(1);
            await(() -> children(a).containsAll(acknowledged), acknowledged.size()
                    + " acknowledged writes visible on node 1", 120);
            System.out.printf("Balanced cluster: all %d acknowledged writes visible on node 1 %d ms after the kill%n",
                    acknowledged.size(), System.currentTimeMillis() - killedAt[0]);
        }
    }

    /** A step that returns when the load may stop. */
    @FunctionalInterface
    private interface Step {
        String run() throws Exception;
    }

    /** Runs {@code step} while {@code clients} writers and as many readers go through the balancer; all outcomes. */
    private static List<Outcome> underLoad(HttpEndpoint lb, int clients, Step step) throws Exception {
        return underLoad(lb, clients, step, RUN + ".json");
    }

    private static List<Outcome> underLoad(HttpEndpoint lb, int clients, Step step, String readPath) throws Exception {
        Queue<Outcome> outcomes = new ConcurrentLinkedQueue<>();
        AtomicBoolean running = new AtomicBoolean(true);
        ExecutorService load = Executors.newFixedThreadPool(2 * clients);
        String batch = Long.toString(System.nanoTime(), 36);
        try {
            for (int c = 0; c < clients; c++) {
                String writer = RUN + "/" + batch + "-w" + c + "-";
                load.submit(() -> {
                    for (int i = 0; running.get() && i < 50_000; i++) {
                        String path = writer + i;
                        attempt(outcomes, "POST", path, () -> lb.postForm(path, Map.of("title", path), true));
                        SlingInstance.sleep(PAUSE_MILLIS);
                    }
                });
                load.submit(() -> {
                    for (int i = 0; running.get() && i < 200_000; i++) {
                        attempt(outcomes, "GET", readPath, () -> lb.get(readPath, false));
                        SlingInstance.sleep(PAUSE_MILLIS);
                    }
                });
            }
            step.run();
        } finally {
            running.set(false);
            load.shutdown();
            assertThat(load.awaitTermination(60, TimeUnit.SECONDS)).as("load stopped").isTrue();
        }
        return List.copyOf(outcomes);
    }

    private static void attempt(Queue<Outcome> outcomes, String method, String path,
            java.util.function.Supplier<HttpResponse<String>> request) {
        long sent = System.currentTimeMillis();
        int status;
        String error = null;
        try {
            status = request.get().statusCode();
        } catch (RuntimeException e) {
            status = 0;
            error = e.getCause() != null ? e.getCause().toString() : e.toString();
        }
        outcomes.add(new Outcome(method, path, status, error, sent, System.currentTimeMillis()));
    }

    /** The paths of RUN's children as node {@code node} sees them (one request: the writes are RUN's children). */
    private static java.util.Set<String> children(HttpEndpoint node) {
        HttpResponse<String> response = node.get(RUN + ".1.json", false);
        assertThat(response.statusCode()).as("%s.1.json", RUN).isEqualTo(200);
        java.util.Set<String> paths = new java.util.HashSet<>();
        DemoServletsSupport.json(response).fieldNames().forEachRemaining(name -> paths.add(RUN + "/" + name));
        return paths;
    }

    private static long redispatches(ClusterRun cluster) throws Exception {
        return cluster.status().values().stream().mapToLong(row -> row.path("redispatches").asLong()).sum();
    }

    private static JsonNode repository(HttpEndpoint node) {
        HttpResponse<String> response = node.get("/system/console/status-slingvt-repository.json", true);
        assertThat(response.statusCode()).as("repository status: %s", response.body()).isEqualTo(200);
        return DemoServletsSupport.json(response);
    }

    private static void await(BooleanSupplier condition, String what, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("%s within %d s", what, seconds).isLessThan(deadline);
            Thread.sleep(200);
        }
    }
}
