package io.github.slingvt.it.e2e;

import static io.github.slingvt.it.e2e.DemoServletsSupport.WORK_JSON;
import static io.github.slingvt.it.e2e.DemoServletsSupport.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #7 in the launched instance: the pinning detector streams JFR from inside Sling (so {@code jdk.jfr}
 * resolves in OSGi), the status JSON carries {@code pinnedEvents} besides its older keys, the Felix health check
 * tagged {@code slingvt} answers OK on {@code /system/health}, and a blocking demo workload pins no virtual thread
 * for 20 ms or more on JDK 24+ (on JDK 21-23 only in Oak's segment reads, bounded).
 */
@ExtendWith(SharedSlingInstance.class)
class PinningHealthE2EIT {

    static final String STATUS_JSON = "/system/console/status-slingvt-http.json";
    static final String STATUS_TXT = "/system/console/status-slingvt-http.txt";
    static final String HEALTH_SLINGVT = "/system/health/slingvt.json";
    static final String WORKLOAD = WORK_JSON
            + "?reads=50&writes=2&fileLength=100000&idleDelay=20&fanout=2&fanoutDelay=10";
    private static final int REQUESTS = 200;
    private static final int CLIENTS = 20;
    /** JFR streams hand events over about once a second; wait longer before reading the count. */
    static final long JFR_FLUSH_MILLIS = 3000;

    private final SlingInstance sling;

    PinningHealthE2EIT(SlingInstance sling) {
        this.sling = sling;
    }

    @BeforeAll
    static void seeded(SlingInstance sling) throws InterruptedException {
        DemoServletsSupport.awaitSeeded(sling);
    }

    @Test
    void statusJsonHasPinnedEventsBesideTheExistingKeys() {
        final JsonNode status = status();
        assertThat(status.fieldNames()).toIterable().contains("mode", "inFlight", "peakInFlight", "admitted",
                "rejected", "completed", "virtualThreadsStarted", "queued", "pinnedEvents");
        assertThat(status.get("pinnedEvents").isIntegralNumber()).isTrue();
    }

    @Test
    void detectorStreamsJfrInsideTheInstance() {
        final HttpResponse<String> text = sling.get(STATUS_TXT, true);
        assertThat(text.statusCode()).isEqualTo(200);
        assertThat(text.body()).contains("detector: streaming jdk.VirtualThreadPinned >= 20 ms");
    }

    @Test
    void healthCheckTaggedSlingvtIsOk() {
        final JsonNode health = health();
        assertThat(health.path("overallResult").asText()).as("%s", health).isEqualTo("OK");
        assertThat(health.path("results")).as("%s", health)
                .anyMatch(r -> "Sling VT request threads".equals(r.path("name").asText()));
    }

    @Test
    void demoWorkloadPinsNoVirtualThreadFor20MsOrMore() throws Exception {
        final long before = status().get("pinnedEvents").asLong();
        final List<String> stacksBefore = stacks(sling.get(STATUS_TXT, true).body());
        final List<String> failures = new ArrayList<>();
        try (ExecutorService clients = Executors.newFixedThreadPool(CLIENTS)) {
            final List<Future<HttpResponse<String>>> futures = new ArrayList<>();
            for (int i = 0; i < REQUESTS; i++) {
                futures.add(clients.submit(() -> DemoServletsSupport.postAsAdmin(sling, WORKLOAD)));
            }
            for (Future<HttpResponse<String>> future : futures) {
                final HttpResponse<String> response = future.get(120, TimeUnit.SECONDS);
                if (response.statusCode() != 200) {
                    failures.add("HTTP " + response.statusCode() + ": " + response.body());
                }
            }
        }
        assertThat(failures).isEmpty();
        Thread.sleep(JFR_FLUSH_MILLIS);
        final long pinned = status().get("pinnedEvents").asLong() - before;
        final String text = sling.get(STATUS_TXT, true).body();
        if (Runtime.Version.parse(SlingInstanceBuilder.javaVersion()).feature() >= 24) {
            assertThat(pinned).as("pinned events >= 20 ms during %d work requests; %s", REQUESTS, text).isZero();
        } else {
            // JDK 21-23 pin a virtual thread that blocks inside synchronized (JEP 491 lifted that in JDK 24). Oak's
            // SegmentId.getSegment() reads a segment that is not cached while holding the id's monitor, and the
            // read waits for TarFiles' read lock while this workload's writes hold its write lock: upstream, in Oak
            // (docs/UPSTREAM.md). Measured: 0 in these 200 requests in nearly every run on JDK 21, 1 (37 ms) once;
            // 0 on JDK 25. Bounded, and every recorded stack must be that one.
            assertThat(pinned).as("pinned events on JDK < 24 (Oak's segment reads): %s", text)
                    .isLessThanOrEqualTo(5);
            // The instance is shared: only the stacks this workload added are judged.
            final List<String> added = new ArrayList<>(stacks(text));
            added.removeAll(stacksBefore);
            assertThat(added).as("pinned stacks added by the workload").allSatisfy(
                    stack -> assertThat(stack).contains("oak.segment.SegmentId.getSegment"));
        }
        // The health check lets one pin a minute pass (pinnedPerMinuteWarn 1); more of Oak's pins warn, as they should.
        assertThat(health().path("overallResult").asText()).isIn(pinned <= 1 ? List.of("OK") : List.of("OK", "WARN"));
    }

    /** The recorded pinned stacks of the text status, each without its headline (count and longest pin). */
    private static List<String> stacks(String text) {
        final List<String> stacks = new ArrayList<>();
        final String[] sections = text.split("Pinned stack #");
        for (int i = 1; i < sections.length; i++) {
            final StringBuilder frames = new StringBuilder();
            final String[] lines = sections[i].split("\n");
            for (int l = 1; l < lines.length && lines[l].startsWith(" "); l++) {
                frames.append(lines[l]).append('\n');
            }
            stacks.add(frames.toString());
        }
        return stacks;
    }

    private JsonNode status() {
        final HttpResponse<String> response = sling.get(STATUS_JSON, true);
        assertThat(response.statusCode()).as("GET %s: %s", STATUS_JSON, response.body()).isEqualTo(200);
        return json(response);
    }

    private JsonNode health() {
        final HttpResponse<String> response = sling.get(HEALTH_SLINGVT);
        assertThat(response.statusCode()).as("GET %s: %s", HEALTH_SLINGVT, response.body()).isEqualTo(200);
        return json(response);
    }
}
