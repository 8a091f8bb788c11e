package io.github.slingvt.it.e2e;

import static io.github.slingvt.it.e2e.DemoServletsSupport.CONSOLE_SLINGVT;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #28, the console page's live chart in a real browser (headless Chromium, shared instance): logged in as
 * admin, under load, the page updates its charts from the bundle's series without a reload, the data moves between
 * updates, and a mode switch shows as a mark. Saves a screenshot under {@code target/e2e*}/screenshots (the one in
 * docs/operating comes from this test).
 */
@ExtendWith(SharedSlingInstance.class)
class LiveChartBrowserE2EIT {

    private static final String LIVE = "document.getElementById('slingvt-live')";
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** Bounds the background load whatever happens to the assertions. */
    private static final Duration MAX_LOAD = Duration.ofSeconds(90);

    private final SlingInstance sling;

    LiveChartBrowserE2EIT(SlingInstance sling) {
        this.sling = sling;
    }

    @Test
    void theChartUpdatesUnderLoadWithoutReloadAndMarksAModeSwitch() throws Exception {
        Path screenshot = Path.of(System.getProperty(SlingInstanceBuilder.E2E_DIR_PROPERTY, "target/e2e"))
                .resolve("screenshots").resolve("console-live-chart.png");
        DemoServletsSupport.awaitSeeded(sling);
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> clients = new ArrayList<>();
        long end = System.nanoTime() + MAX_LOAD.toNanos();
        for (int i = 0; i < 4; i++) {
            clients.add(Thread.ofPlatform().daemon().start(() -> {
                while (!stop.get() && System.nanoTime() < end) {
                    sling.get("/bin/vt/work.json?reads=20&cpuIterations=200");
                }
            }));
        }
        try (HeadlessChromium browser = HeadlessChromium.start()) {
            browser.extraHeaders(Map.of("Authorization", SlingInstance.ADMIN_AUTHORIZATION));
            assertThat(browser.navigate(sling.baseUrl() + CONSOLE_SLINGVT)).as("console page").isEqualTo(200);

            browser.awaitTrue("Number(" + LIVE + ".dataset.updates) >= 1", WAIT);
            JsonNode first = state(browser);
            int firstUpdates = first.path("updates").asInt();
            browser.awaitTrue("Number(" + LIVE + ".dataset.updates) >= " + (firstUpdates + 2), WAIT);
            JsonNode second = state(browser);

            assertThat(second.path("serverUpdates").asLong()).as("new points between two page updates")
                    .isGreaterThan(first.path("serverUpdates").asLong());
            assertThat(second.path("last").path("t").asLong()).as("the last point moved on")
                    .isGreaterThan(first.path("last").path("t").asLong());
            assertThat(second.path("charts").asInt()).as("charts drawn").isEqualTo(4);
            assertThat(second.path("admittedPoints").asInt()).as("points of the admitted/s line")
                    .isGreaterThanOrEqualTo(2);
            assertThat(browser.evaluate("document.getElementById('slingvt-live-status').textContent"))
                    .startsWith("updated ");
            browser.awaitTrue(LIVE + ".dataset.last && JSON.parse(" + LIVE + ".dataset.last).admittedPerSecond > 0",
                    WAIT);

            // Other classes of the shared instance may have switched within the chart's five minutes: only a mark
            // of this switch counts.
            long switched = System.currentTimeMillis() - 1000;
            DemoServletsSupport.switchMode(sling, "kernel");
            try {
                browser.awaitTrue("Array.from(document.querySelectorAll('#slingvt-live .slingvt-mode-mark')).filter("
                        + "m => m.dataset.mode === 'kernel' && Number(m.dataset.t) >= " + switched + ").length === 4",
                        WAIT);
                assertThat(browser.evaluate("JSON.parse(" + LIVE + ".dataset.last).mode")).isEqualTo("kernel");
            } finally {
                DemoServletsSupport.switchMode(sling, "virtual");
            }
            browser.awaitTrue("JSON.parse(" + LIVE + ".dataset.last).mode === 'virtual'", WAIT);
            browser.screenshot(screenshot);
        } finally {
            stop.set(true);
            for (Thread t : clients) {
                t.join(Duration.ofSeconds(60));
            }
        }
        assertThat(Files.size(screenshot)).as("screenshot " + screenshot).isGreaterThan(10_000);
    }

    /** What the page shows now, read from its DOM. */
    private static JsonNode state(HeadlessChromium browser) throws Exception {
        String json = browser.evaluate("JSON.stringify({updates: Number(" + LIVE + ".dataset.updates), "
                + "serverUpdates: Number(" + LIVE + ".dataset.serverUpdates), "
                + "last: JSON.parse(" + LIVE + ".dataset.last || '{}'), "
                + "charts: document.querySelectorAll('#slingvt-live svg.slingvt-chart').length, "
                + "admittedPoints: (document.querySelector(\"#slingvt-live polyline[data-series='admittedPerSecond']\")"
                + ".getAttribute('points') || '').trim().split(' ').filter(p => p).length})");
        return DemoServletsSupport.JSON.readTree(json);
    }
}
