package io.github.slingvt.it.e2e;

import static io.github.slingvt.it.e2e.DemoServletsSupport.CONSOLE_SLINGVT;
import static io.github.slingvt.it.e2e.DemoServletsSupport.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #7, the console page "Virtual Threads" in the launched instance (shared instance): it shows the HTTP mode,
 * the virtual-thread scheduler figures (JDK 24+ MXBean) and the Sling thread pools of commons-threads-virtual; its
 * {@code poolsMode} switch moves every pool to kernel and back through the pools' configuration; bad values answer
 * 400; the HTTP status JSON carries the scheduler figures. The pools are always switched back to virtual, since
 * other test classes share the instance.
 */
@ExtendWith(SharedSlingInstance.class)
class ConsolePageE2EIT {

    private static final String HTTP_STATUS = "/system/console/status-slingvt-http.json";
    private static final String POOLS_STATUS = "/system/console/status-slingvt-threadpools.json";
    /** The Sling Scheduler's pool, which exists soon after startup. */
    private static final String POOL = "default";
    private static final Duration WAIT = Duration.ofSeconds(60);

    private final SlingInstance sling;

    ConsolePageE2EIT(SlingInstance sling) {
        this.sling = sling;
    }

    /** The scheduler MXBean exists from JDK 24 on; before, the figures say so instead. */
    private static final boolean SCHEDULER_BEAN = Runtime.Version.parse(SlingInstanceBuilder.javaVersion()).feature() >= 24;
    private static final String NOT_AVAILABLE = "not available (needs JDK 24+)";

    @Test
    void statusJsonCarriesTheSchedulerFigures() {
        final JsonNode status = httpStatus();
        assertThat(status.fieldNames()).toIterable().contains("mode", "inFlight", "peakInFlight", "admitted",
                "rejected", "completed", "virtualThreadsStarted", "queued", "pinnedEvents", "scheduler");
        final JsonNode scheduler = status.path("scheduler");
        assertThat(scheduler.path("available").asBoolean()).as("scheduler in %s (instance on Java %s)", status,
                SlingInstanceBuilder.javaVersion()).isEqualTo(SCHEDULER_BEAN);
        if (!SCHEDULER_BEAN) {
            assertThat(scheduler.path("reason").asText()).isEqualTo(NOT_AVAILABLE);
            return;
        }
        // The instance runs on this machine: its carriers are as many as this JVM's processors.
        assertThat(scheduler.path("parallelism").asInt()).as("%s", scheduler)
                .isEqualTo(Runtime.getRuntime().availableProcessors());
        for (String figure : new String[] {"poolSize", "mountedVirtualThreadCount", "queuedVirtualThreadCount"}) {
            assertThat(scheduler.path(figure).isIntegralNumber()).as("%s in %s", figure, scheduler).isTrue();
        }
    }

    /**
     * The figures are live: while clients keep request threads busy (anonymous repository reads, on virtual threads
     * in virtual mode) a reading shows a carrier and a mounted virtual thread, and the completed count grows. The
     * console's own request runs on a platform thread, so an idle instance may read 0 mounted.
     */
    @Test
    void schedulerFiguresMoveUnderLoad() throws Exception {
        awaitPoolMode("virtual");
        if (!SCHEDULER_BEAN) {
            assertThat(httpStatus().path("scheduler").path("reason").asText()).isEqualTo(NOT_AVAILABLE);
            return;
        }
        final long completedBefore = httpStatus().path("completed").asLong();
        final java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        final java.util.List<Thread> clients = new java.util.ArrayList<>();
        JsonNode busy = null;
        try {
            for (int i = 0; i < 8; i++) {
                clients.add(Thread.ofPlatform().daemon().start(() -> {
                    final long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
                    while (!stop.get() && System.nanoTime() < end) {
                        sling.get("/bin/vt/work.json?reads=1000&cpuIterations=1000");
                    }
                }));
            }
            final long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
            while (busy == null && System.nanoTime() < deadline) {
                final JsonNode scheduler = httpStatus().path("scheduler");
                if (scheduler.path("mountedVirtualThreadCount").asLong() >= 1) {
                    busy = scheduler;
                }
                Thread.sleep(20);
            }
        } finally {
            stop.set(true);
            for (Thread client : clients) {
                client.join(Duration.ofSeconds(30));
            }
        }
        assertThat(busy).as("a reading with a mounted virtual thread while 8 clients read the repository").isNotNull();
        assertThat(busy.path("poolSize").asLong()).as("%s", busy).isGreaterThanOrEqualTo(1);
        assertThat(httpStatus().path("completed").asLong()).as("completed requests")
                .isGreaterThan(completedBefore + 8);
    }

    @Test
    void pageShowsHttpModeSchedulerAndSlingPools() throws Exception {
        awaitPoolMode("virtual");
        final int parallelism = httpStatus().path("scheduler").path("parallelism").asInt();
        final HttpResponse<String> page = sling.get(CONSOLE_SLINGVT, true);
        assertThat(page.statusCode()).as("GET %s as admin", CONSOLE_SLINGVT).isEqualTo(200);
        if (SCHEDULER_BEAN) {
            assertThat(page.body()).contains("<tr><td>Parallelism</td><td>" + parallelism + "</td></tr>")
                    .contains("<tr><td>Pool size (carrier threads)</td><td>")
                    .contains("<tr><td>Queued virtual threads</td><td>");
        } else {
            assertThat(page.body()).contains("<tr><td>Scheduler</td><td>" + NOT_AVAILABLE + "</td></tr>");
        }
        assertThat(page.body())
                .contains("<tr><td>Mode</td><td>virtual</td></tr>")
                .contains("<tr><td>" + POOL + "</td><td>virtual</td>")
                .contains(">Switch all Sling thread pools to kernel</button>")
                .contains("/system/console/configMgr/io.github.slingvt.threads.VirtualThreadPools")
                .contains("Pinned virtual threads")
                // segment-tar: the repository section names the store and has no JDBC pool
                .contains("<tr><td>Store</td><td>segment</td></tr>")
                .doesNotContain("Threads waiting for a connection");
    }

    @Test
    void poolsModeSwitchesEverySlingPoolAndBack() throws Exception {
        awaitPoolMode("virtual");
        try {
            final HttpResponse<String> kernel = switchPools("kernel");
            assertThat(kernel.statusCode()).as("POST poolsMode=kernel: %s", kernel.body()).isEqualTo(202);
            assertThat(json(kernel).path("defaultMode").asText()).isEqualTo("kernel");
            assertThat(awaitPoolMode("kernel")).as("pool %s after poolsMode=kernel", POOL).isEqualTo("kernel");
            assertThat(sling.get(CONSOLE_SLINGVT, true).body()).contains("<tr><td>" + POOL + "</td><td>kernel</td>");
            assertThat(httpStatus().path("mode").asText()).as("HTTP threads untouched").isEqualTo("virtual");
        } finally {
            final HttpResponse<String> virtual = switchPools("virtual");
            assertThat(virtual.statusCode()).as("POST poolsMode=virtual: %s", virtual.body()).isEqualTo(202);
            assertThat(awaitPoolMode("virtual")).as("pool %s restored", POOL).isEqualTo("virtual");
        }
    }

    @Test
    void badModesAnswer400NamingTheParameter() throws Exception {
        final HttpResponse<String> pools = switchPools("bogus");
        assertThat(pools.statusCode()).as("POST poolsMode=bogus: %s", pools.body()).isEqualTo(400);
        assertThat(json(pools).path("error").asText())
                .isEqualTo("poolsMode='bogus' is not supported; set poolsMode to 'virtual' or 'kernel'");
        final HttpResponse<String> http = sling.postForm(CONSOLE_SLINGVT, Map.of("mode", "bogus"), true);
        assertThat(http.statusCode()).as("POST mode=bogus: %s", http.body()).isEqualTo(400);
        assertThat(json(http).path("error").asText()).contains("mode='bogus'", "'virtual' or 'kernel'");
        assertThat(awaitPoolMode("virtual")).as("pools untouched by the refused value").isEqualTo("virtual");
        assertThat(httpStatus().path("mode").asText()).isEqualTo("virtual");
    }

    private HttpResponse<String> switchPools(String mode) {
        return sling.postForm(CONSOLE_SLINGVT, Map.of("poolsMode", mode), true);
    }

    /** Polls the pools' status JSON until {@link #POOL} exists in {@code mode}; returns its mode at the end. */
    private String awaitPoolMode(String mode) throws InterruptedException {
        final long deadline = System.nanoTime() + WAIT.toNanos();
        String current = poolMode();
        while (!mode.equals(current) && System.nanoTime() < deadline) {
            Thread.sleep(200);
            current = poolMode();
        }
        return current;
    }

    private String poolMode() {
        final HttpResponse<String> response = sling.get(POOLS_STATUS, true);
        assertThat(response.statusCode()).as("GET %s: %s", POOLS_STATUS, response.body()).isEqualTo(200);
        return json(response).path(POOL).path("mode").asText("");
    }

    private JsonNode httpStatus() {
        final HttpResponse<String> response = sling.get(HTTP_STATUS, true);
        assertThat(response.statusCode()).as("GET %s: %s", HTTP_STATUS, response.body()).isEqualTo(200);
        return json(response);
    }

    @Test
    void aModeSwitchPostedByAnotherSiteIsRefusedAndOneFromTheConsoleWorks() throws Exception {
        HttpResponse<String> crossSite = ConsoleConfigs.post(sling.baseUrl(), CONSOLE_SLINGVT, "mode=kernel",
                Map.of("Origin", "http://evil.example"));
        assertThat(crossSite.statusCode()).as("cross-site POST: %s", crossSite.body()).isEqualTo(403);
        assertThat(crossSite.body()).contains("Origin 'http://evil.example' is not this server");
        assertThat(httpStatus().path("mode").asText()).as("mode untouched").isEqualTo("virtual");

        HttpResponse<String> sameSite = ConsoleConfigs.post(sling.baseUrl(), CONSOLE_SLINGVT, "mode=virtual",
                Map.of("Origin", sling.baseUrl()));
        assertThat(sameSite.statusCode()).as("POST from the console's own origin: %s", sameSite.body()).isEqualTo(200);
    }
}
