package io.github.slingvt.it.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue #12: a Sling instance on Oak's DocumentNodeStore in PostgreSQL ({@code sling-vt-postgres} feature) serves the
 * seeded demo on virtual threads, says which store and Oak cluster id it has, and its request threads wait for the
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
        sling = SlingInstance.builder("pg-single").postgres(postgres.jdbcUrl()).start();
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
            for (java.util.concurrent.Future<JsonNode> answer : answers) {
                assertThat(answer.get().at("/reads/nodes").asInt()).isEqualTo(200);
            }
        }
        JsonNode http = DemoServletsSupport.json(sling.get("/system/console/status-slingvt-http.json", true));
        System.out.printf("PostgreSQL store on Java %s: pinned events %s, pool %s%n", SlingInstanceBuilder.javaVersion(),
                http.path("pinnedEvents"), repository(sling).path("jdbcPool"));
        assertThat(http.path("pinnedEvents").asLong()).as("virtual threads pinned >= 20 ms: %s", http).isZero();
    }

}
