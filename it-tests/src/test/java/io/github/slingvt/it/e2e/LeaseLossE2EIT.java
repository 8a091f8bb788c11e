package io.github.slingvt.it.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue #29, a network between the instance and PostgreSQL ({@link ToxiproxyServer}): its latency reaches every
 * database round trip of a request; cut for longer than Oak's lease, Oak stops its document store by design (a node
 * that may have been declared dead by the others must never write again), and Sling VT reports it where an operator
 * and a load balancer look: readiness ({@code /system/health/systemready.json}) 503 with the check "Oak document
 * store" naming the lease and the remedy, and every content request answered 503 with {@code Retry-After}, not 404 or
 * 500. The store does not come back by itself when the network does; starting its bundle again (the remedy the check
 * names, short of an instance restart) brings the node back with its content.
 * <p>
 * The instance runs with a lease of {@value #LEASE_SECONDS} s (Oak renews every 10 s and fails the lease 20 s before
 * its end, so 10-20 s into an outage) instead of 120 s. Runs on the build JDK (Oak's behaviour, no JDK's).
 */
class LeaseLossE2EIT extends PostgresTestSupport {

    private static final int LEASE_SECONDS = 40;
    private static final String RUN = "/content/pg-lease-" + Long.toString(System.nanoTime(), 36);
    private static final String READY = "/system/health/systemready.json";
    private static final int LATENCY_MILLIS = 5;

    private SlingInstance sling;
    private ToxiproxyServer network;

    @AfterEach
    void stopInstance() throws Exception {
        if (sling != null) {
            sling.stop();
        }
        if (network != null) {
            network.close();
            assertThat(ProcessHandle.of(network.pid()).map(ProcessHandle::isAlive).orElse(false))
                    .as("toxiproxy stopped").isFalse();
        }
    }

    @Test
    void aLostLeaseIsReportedAnswered503AndTheStoreComesBackWhenStartedAgain() throws Exception {
        network = ToxiproxyServer.start(postgres.port());
        sling = SlingInstance.builder("pg-lease")
                .postgres("jdbc:postgresql://127.0.0.1:" + network.port() + "/oak", postgres.passwordFile())
                .jvmOption("-Doak.documentMK.leaseDurationSeconds=" + LEASE_SECONDS).smallDemoTree()
                .functionalChecksOnly().start();
        assertThat(post(RUN).statusCode()).isEqualTo(201);
        assertThat(sling.get(READY).body()).contains("Oak's document store runs");

        // The network's latency reaches every database round trip of a request.
        network.latency(LATENCY_MILLIS);
        long sent = System.nanoTime();
        JsonNode write = DemoServletsSupport.postOk(sling, DemoServletsSupport.WORK_JSON + "?writes=5");
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent);
        long roundTrips = write.at("/db/roundTrips").asLong();
        System.out.printf("Lease lost: with %d ms each way, a POST of 5 writes made %d round trips in %d ms%n",
                LATENCY_MILLIS, roundTrips, tookMillis);
        assertThat(roundTrips).as("round trips of 5 writes: %s", write).isGreaterThanOrEqualTo(5);
        assertThat(tookMillis).as("a request of %d round trips across %d ms each way", roundTrips, LATENCY_MILLIS)
                .isGreaterThanOrEqualTo(roundTrips * 2 * LATENCY_MILLIS);
        network.noLatency();

        // The network to the database cut for longer than the lease.
        long away = System.currentTimeMillis();
        network.enabled(false);
        await(() -> sling.get(READY).body().contains("cluster lease"), "the check names the lost lease", 90);
        long reported = System.currentTimeMillis();
        HttpResponse<String> ready = sling.get(READY);
        assertThat(ready.statusCode()).as("readiness: %s", ready.body()).isEqualTo(503);
        assertThat(ready.body()).contains("Oak document store").contains("CRITICAL").contains("restarted");
        await(() -> sling.get(RUN + ".json").statusCode() == 503, "content answered 503", 30);
        HttpResponse<String> content = sling.get(RUN + ".json");
        assertThat(content.headers().firstValue("Retry-After")).isPresent();
        assertThat(content.body()).contains("repository is not available");
        assertThat(post(RUN + "/while-away").statusCode()).as("a write while the store is stopped").isEqualTo(503);
        assertThat(sling.get("/system/console/bundles.json", true).statusCode()).as("the web console still answers")
                .isEqualTo(200);

        network.enabled(true);
        SlingInstance.sleep(2_000);
        assertThat(sling.get(READY).statusCode()).as("Oak does not start the store again by itself").isEqualTo(503);

        HttpResponse<String> start = ConsoleConfigs.post(sling.baseUrl(),
                "/system/console/bundles/org.apache.jackrabbit.oak-store-document", "action=start");
        assertThat(start.statusCode()).as("start the bundle: %s", start.body()).isEqualTo(200);
        await(() -> sling.get(READY).statusCode() == 200, "ready again after the store's start", 120);
        System.out.printf("Lease lost: network cut at 0 ms, reported by readiness after %d ms; back after the "
                + "store's bundle was started%n", reported - away);
        HttpResponse<String> again = sling.get(RUN + ".json");
        assertThat(again.statusCode()).as("content written before the outage: %s", again.body()).isEqualTo(200);
        assertThat(post(RUN + "/after").statusCode()).isEqualTo(201);
    }

    private HttpResponse<String> post(String path) {
        return sling.postForm(path, Map.of("title", path), true);
    }

    private static void await(BooleanSupplier condition, String what, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("%s within %d s", what, seconds).isLessThan(deadline);
            Thread.sleep(250);
        }
    }
}
