package io.github.slingvt.it.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue #12: a Sling instance on Oak's DocumentNodeStore in PostgreSQL ({@code sling-vt-postgres} feature), with
 * caches small enough that reads go to the database, serves the seeded demo on virtual threads, says which store and
 * Oak cluster id it has, counts each request's database round trips, and its request threads wait for the
 * database without pinning a carrier for 20 ms or more (Sling VT's JFR detector; pgjdbc 42.7 locks with
 * ReentrantLock, which matters before JDK 24). PostgreSQL is started by {@code ./sling-vt postgres start} on a free
 * port in a temp folder and stopped by its PID at the end. Runs on both JDKs.
 */
class PostgresStoreE2EIT extends PostgresTestSupport {

    private SlingInstance sling;

    @AfterEach
    void stopInstance() {
        if (sling != null) {
            sling.stop();
        }
    }

    @Test
    void anInstanceOnPostgresServesTheSeededDemoOnVirtualThreads() throws Exception {
        // A repository whose reads miss Oak's caches (16 MB in memory, no persistent node cache), as
        // ./sling-vt run --store postgres --var ... starts it: each node read waits for PostgreSQL.
        sling = SlingInstance.builder("pg-single").postgres(postgres.jdbcUrl(), postgres.passwordFile()).variable("oak.cache.mb", "16")
                .variable("oak.persistentCache", "cache,-nodes,-children").start();
        DemoServletsSupport.awaitSeeded(sling);
        assertThat(sling.get("/.json").statusCode()).isEqualTo(200);
        JsonNode work = DemoServletsSupport.getOk(sling, DemoServletsSupport.WORK_JSON + "?reads=200");
        assertThat(work.at("/thread/virtual").asBoolean()).as("thread in %s", work).isTrue();
        assertThat(work.at("/reads/nodes").asInt()).isEqualTo(200);
        JsonNode repository = repository(sling);
        assertThat(repository.path("store").asText()).as("repository %s", repository).isEqualTo("postgres");
        assertThat(repository.path("clusterId").asInt()).as("repository %s", repository).isPositive();
        assertThat(repository.at("/jdbcPool/url").asText()).isEqualTo(postgres.jdbcUrl());
        assertThat(repository.at("/jdbcPool/borrowed").asLong()).as("connections borrowed from the pool").isPositive();
        assertThat(repository.path("dbRoundTrips").asLong()).as("round trips counted in front of the pool")
                .isPositive();

        // The request's own round trips, counted on its thread: writes commit to PostgreSQL.
        JsonNode write = DemoServletsSupport.postOk(sling, DemoServletsSupport.WORK_JSON + "?writes=5&reads=50");
        System.out.printf("PostgreSQL store: POST writes=5&reads=50 caused %s database round trips; reads=200 %s%n",
                write.at("/db/roundTrips"), work.at("/db/roundTrips"));
        assertThat(write.at("/db/roundTrips").asLong()).as("db.roundTrips of 5 writes: %s", write).isGreaterThanOrEqualTo(5);

        // 8 clients reading 200 nodes each, 10 times: the request threads wait for PostgreSQL (cache misses).
        try (java.util.concurrent.ExecutorService clients = java.util.concurrent.Executors.newFixedThreadPool(8)) {
            java.util.List<java.util.concurrent.Future<JsonNode>> answers = new java.util.ArrayList<>();
            for (int i = 0; i < 80; i++) {
                answers.add(clients.submit(() -> DemoServletsSupport.getOk(sling,
                        DemoServletsSupport.WORK_JSON + "?reads=200")));
            }
            long roundTrips = 0;
            for (java.util.concurrent.Future<JsonNode> answer : answers) {
                assertThat(answer.get().at("/reads/nodes").asInt()).isEqualTo(200);
                roundTrips += answer.get().at("/db/roundTrips").asLong();
            }
            // A read that misses the small cache is one round trip; reads of recently seeded or read nodes hit it.
            // Measured: 141-203 per request of 200 reads once the seeding is done, 0 for a range just seeded.
            System.out.printf("PostgreSQL store: 80 requests of 200 cold reads made %d database round trips%n",
                    roundTrips);
            assertThat(roundTrips).as("database round trips of 80 x 200 reads").isGreaterThanOrEqualTo(80 * 25);
        }
        // The console page "Virtual Threads" shows the store and the pool an operator sizes the request cap by.
        final String page = sling.get("/system/console/slingvt", true).body();
        assertThat(page).contains("id='slingvt-repository'").contains("<td>Store</td><td>postgres</td>")
                .contains("<td>Connections active / idle / max</td>")
                .containsPattern("<td>Threads waiting for a connection</td><td>\\d+</td>");
        JsonNode http = DemoServletsSupport.json(sling.get("/system/console/status-slingvt-http.json", true));
        System.out.printf("PostgreSQL store on Java %s: pinned events %s, pool %s%n", SlingInstanceBuilder.javaVersion(),
                http.path("pinnedEvents"), repository(sling).path("jdbcPool"));
        final long pinned = http.path("pinnedEvents").asLong();
        if (Runtime.Version.parse(SlingInstanceBuilder.javaVersion()).feature() >= 24) {
            assertThat(pinned).as("virtual threads pinned >= 20 ms: %s", http).isZero();
        } else {
            // JDK 21-23 pin a virtual thread that blocks inside synchronized (JEP 491 lifted that in JDK 24). Oak's
            // CacheLIRS loads a missing document while holding its segment's monitor (CacheLIRS$Segment.load), so a
            // cache miss that waits for PostgreSQL can pin its carrier. Upstream, in Oak; measured: 2 to 5 pinned
            // events in these 80 requests on JDK 21 (and 1 in 750 requests under wrk -c8). Bounded, and every
            // recorded stack must be that one.
            assertThat(pinned).as("pinned events on JDK < 24 (Oak's cache loads): %s", http).isLessThanOrEqualTo(20);
            final String text = sling.get("/system/console/status-slingvt-http.txt", true).body();
            final String[] stacks = text.split("Pinned stack #");
            for (int i = 1; i < stacks.length; i++) {
                assertThat(stacks[i]).as("pinned stack #%d", i).contains("CacheLIRS$Segment.load");
            }
        }
    }

}
