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
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue #29, a database fault under load: PostgreSQL restarted (fast shutdown, start on the same port) while two
 * clients write through the Sling POST servlet. The instance serves again without a restart of its own; the requests
 * that fail do so only while the database is away or just after; and every write it acknowledged (201) is there
 * afterwards. Runs on the build JDK (what it checks is Oak's, pgjdbc's and the pool's behaviour).
 */
class DatabaseRestartE2EIT extends PostgresTestSupport {

    private static final String RUN = "/content/pg-restart-" + Long.toString(System.nanoTime(), 36);
    /** After the database is back, the first success may follow failures of requests that were already waiting. */
    private static final long SETTLE_MILLIS = 5_000;

    private SlingInstance sling;

    @AfterEach
    void stopInstance() {
        if (sling != null) {
            sling.stop();
        }
    }

    /** One answered write: when it was sent and ended, and its status (0: no answer). */
    private record Write(String path, long sentMillis, long endedMillis, int status) {
        boolean acknowledged() {
            return status == 201;
        }
    }

    @Test
    void aRestartedDatabaseIsServedAgainAndNothingAcknowledgedIsLost() throws Exception {
        sling = SlingInstance.builder("pg-restart").postgres(postgres.jdbcUrl(), postgres.passwordFile())
                .start();
        final long instancePid = sling.pid();
        assertThat(post(RUN + "/before").statusCode()).isEqualTo(201);

        final Queue<Write> writes = new ConcurrentLinkedQueue<>();
        final AtomicBoolean writing = new AtomicBoolean(true);
        final ExecutorService load = Executors.newFixedThreadPool(2);
        long restartBegan;
        long restartEnded;
        try {
            for (int c = 0; c < 2; c++) {
                final int client = c;
                load.submit(() -> {
                    for (int i = 0; writing.get() && i < 20_000; i++) {
                        final String path = RUN + "/c" + client + "-" + i;
                        final long sent = System.currentTimeMillis();
                        int status;
                        try {
                            status = post(path).statusCode();
                        } catch (RuntimeException e) {
                            status = 0;
                        }
                        writes.add(new Write(path, sent, System.currentTimeMillis(), status));
                    }
                });
            }
            await(() -> acknowledged(writes) >= 20, "20 writes acknowledged before the restart", 60);
            restartBegan = System.currentTimeMillis();
            postgres.restart();
            restartEnded = System.currentTimeMillis();
            final long before = acknowledged(writes);
            await(() -> acknowledged(writes) >= before + 40, "40 writes acknowledged after the restart", 120);
        } finally {
            writing.set(false);
            load.shutdown();
            assertThat(load.awaitTermination(60, TimeUnit.SECONDS)).as("load stopped").isTrue();
        }

        final List<Write> all = List.copyOf(writes);
        final List<Write> failed = all.stream().filter(w -> !w.acknowledged()).toList();
        final long firstSuccessAfter = all.stream().filter(w -> w.acknowledged() && w.sentMillis() >= restartEnded)
                .mapToLong(Write::endedMillis).min().orElseThrow();
        System.out.printf("PostgreSQL restart: %d ms down (stop + start), first acknowledged write %d ms after it was "
                + "back; %d writes, %d failed (%s)%n", restartEnded - restartBegan, firstSuccessAfter - restartEnded,
                all.size(), failed.size(), failed.stream().map(Write::status).distinct().toList());
        assertThat(sling.pid()).as("the same instance, not restarted").isEqualTo(instancePid);
        assertThat(failed).as("failed writes outside the outage (%d ms to %d ms)", restartBegan, firstSuccessAfter)
                .allSatisfy(w -> assertThat(w.endedMillis()).isBetween(restartBegan, firstSuccessAfter + SETTLE_MILLIS));
        assertThat(failed.size()).as("failed writes, at most those sent while the database was away")
                .isLessThanOrEqualTo((int) all.stream().filter(w -> w.sentMillis() <= firstSuccessAfter
                        && w.endedMillis() >= restartBegan).count());
        assertThat(sling.get("/system/health/systemready.json").statusCode()).as("ready again").isEqualTo(200);
        for (Write w : all) {
            if (w.acknowledged()) {
                final HttpResponse<String> read = sling.get(w.path() + ".json");
                assertThat(read.statusCode()).as("acknowledged %s read back", w.path()).isEqualTo(200);
                assertThat(DemoServletsSupport.json(read).path("title").asText()).isEqualTo(w.path());
            }
        }
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
