package io.github.slingvt.it.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/**
 * Issue #11, item 2: the HTTP bundle goes into and out of a running instance under load without a failed request.
 * Before the fix, installing it restarted Felix's connectors (every keep-alive connection was reset and the console
 * POST that installed it got no answer), and stopping it left its handlers in Felix's chain: requests stayed on
 * virtual threads of a stopped bundle. Clients on plain keep-alive sockets count every reset (see {@link KeepAliveLoad}).
 */
class HotInstallE2EIT extends OwnInstanceTestSupport {

    private static final String SYMBOLIC_NAME = "http-virtual-threadpool";
    private static final String LOAD = DemoServletsSupport.WORK_JSON + "?reads=1&idleDelay=2";
    private static final int CLIENTS = 4;
    /**
     * The web console's bundle list, read while this bundle stops, updates or uninstalls, can answer 500: Felix web
     * console 5.0.18 walks its plugin map unlocked while the observability bundle's console plugins that follow this
     * bundle unregister or register (docs/UPSTREAM.md: three back-to-back readers over 30 such cycles, 0 of 8,787
     * reads failed on a fresh instance, 4 of 7,219 where more components came and went; a bundle no console page
     * follows, 0 of 5,775). This test reads about every 100 ms during one cycle, and those reads only tell it when a
     * step is done; the requests under test are the load's and the console's actions, whose failures are not
     * tolerated. At most this many failed reads, each printed with its body and the last {@value #LOG_LINES} lines of
     * error.log.
     */
    private static final int MAX_FAILED_CONSOLE_READS = 2;
    private static final int LOG_LINES = 40;
    private static final String CONSOLE_PAGE = "/system/console/slingvt";

    private final List<String> failedConsoleReads = new ArrayList<>();

    @Test
    void theHttpBundleStopsStartsUpdatesUninstallsAndInstallsUnderLoadWithoutAFailedRequest() throws Exception {
        startSeeded(SlingInstance.builder("hot-install").smallDemoTree().functionalChecksOnly());
        Path jar = Path.of(System.getProperty("slingvt.bundle.http"));
        assertThat(Files.isRegularFile(jar)).as("the HTTP bundle built by this reactor: %s", jar).isTrue();
        long id = bundleId();

        try (KeepAliveLoad load = new KeepAliveLoad(sling.baseUrl(), LOAD, CLIENTS, 300)) {
            awaitProgress(load);

            assertAnswered(bundleAction(id, "stop"), "stop");
            awaitThreads(false, "after stop: Felix's own platform threads");
            // The operator's page stays (with the pools' switch and the pinned stacks) and says what is missing.
            HttpResponse<String> page = sling.get(CONSOLE_PAGE, true);
            assertThat(page.statusCode()).as("console page while stopped").isEqualTo(200);
            assertThat(page.body()).contains("Not available: the bundle http-virtual-threadpool is not active.")
                    .contains("Switch all Sling thread pools to kernel");
            assertThat(sling.get(CONSOLE_PAGE + ".json", true).statusCode()).as("HTTP status while stopped")
                    .isEqualTo(503);
            awaitProgress(load);

            assertAnswered(bundleAction(id, "start"), "start");
            awaitThreads(true, "after start");
            assertThat(sling.get(CONSOLE_PAGE, true).body()).contains("Switch HTTP requests to kernel");
            awaitProgress(load);

            // Same symbolic name: the console updates the installed bundle in place (new revision, same id).
            String before = lastModified(id);
            assertAnswered(ConsoleConfigs.installBundle(sling.baseUrl(), jar), "update");
            await(() -> consoleRead(() -> !lastModified(id).equals(before) && isActive(id)),
                    "the updated bundle is active");
            awaitThreads(true, "after update");
            awaitProgress(load);

            assertAnswered(bundleAction(id, "uninstall"), "uninstall");
            await(() -> consoleRead(() -> bundle(SYMBOLIC_NAME) == null), "the bundle is gone");
            awaitThreads(false, "after uninstall");
            awaitProgress(load);

            assertAnswered(ConsoleConfigs.installBundle(sling.baseUrl(), jar), "install");
            await(() -> consoleRead(() -> bundle(SYMBOLIC_NAME) != null && isActive(bundleId())),
                    "the installed bundle is active");
            awaitThreads(true, "after a fresh install");
            awaitProgress(load);

            System.out.printf("HTTP bundle stop/start/update/uninstall/install under %d keep-alive clients: %s%n",
                    CLIENTS, load);
            assertThat(load.failed()).as("failed requests: %s", load.failures()).isZero();
            assertThat(load.connections()).as("connections opened (none was reset)").isEqualTo(CLIENTS);
        }
    }

    private HttpResponse<String> bundleAction(long id, String action) {
        return ConsoleConfigs.post(sling.baseUrl(), "/system/console/bundles/" + id, "action=" + action);
    }

    /** The console's answer arrived (before the fix, the connection carrying it was reset by the install). */
    private static void assertAnswered(HttpResponse<String> response, String what) {
        assertThat(response.statusCode()).as("console %s: %s", what, response.body()).isBetween(200, 399);
    }

    /** Requests are served on the kind of thread named: virtual with the bundle, platform without it. */
    private void awaitThreads(boolean virtual, String when) throws InterruptedException {
        await(() -> DemoServletsSupport.json(sling.get(DemoServletsSupport.WORK_JSON)).at("/thread/virtual").asBoolean()
                == virtual, "requests on " + (virtual ? "virtual" : "platform") + " threads " + when);
    }

    /** Every client finishes more requests (bounded wait), so each step happens under load. */
    private static void awaitProgress(KeepAliveLoad load) throws InterruptedException {
        long target = load.ok() + 50;
        await(() -> load.ok() >= target, "50 more requests served (" + load + ")");
    }

    private long bundleId() {
        JsonNode bundle = bundle(SYMBOLIC_NAME);
        assertThat(bundle).as("bundle %s installed", SYMBOLIC_NAME).isNotNull();
        return bundle.path("id").asLong();
    }

    private boolean isActive(long id) {
        JsonNode data = bundleJson("/system/console/bundles/" + id + ".json").path("data");
        return data.size() == 1 && "Active".equals(data.get(0).path("state").asText());
    }

    /** Changes with every update of the bundle (the console lists "Last Modification" among its properties). */
    private String lastModified(long id) {
        for (JsonNode prop : bundleJson("/system/console/bundles/" + id + ".json").at("/data/0/props")) {
            if ("Last Modification".equals(prop.path("key").asText())) {
                return prop.path("value").asText();
            }
        }
        throw new AssertionError("no Last Modification for bundle " + id);
    }

    private JsonNode bundle(String symbolicName) {
        for (JsonNode bundle : bundleJson("/system/console/bundles.json").path("data")) {
            if (symbolicName.equals(bundle.path("symbolicName").asText())) {
                return bundle;
            }
        }
        return null;
    }

    private JsonNode bundleJson(String path) {
        HttpResponse<String> response = sling.get(path, true);
        if (response.statusCode() != 200) {
            throw new ConsoleReadFailed(path, response);
        }
        return DemoServletsSupport.json(response);
    }

    /**
     * A condition read from the console's bundle list while a bundle changes state: a failed read counts as "not
     * yet", is printed with the last {@value #LOG_LINES} lines of error.log, and is counted
     * ({@link #MAX_FAILED_CONSOLE_READS}).
     */
    private boolean consoleRead(java.util.function.BooleanSupplier condition) {
        try {
            return condition.getAsBoolean();
        } catch (ConsoleReadFailed e) {
            List<String> log = sling.errorLogLines();
            String report = e.getMessage() + "\nlast lines of error.log:\n" + String.join("\n",
                    log.subList(Math.max(0, log.size() - LOG_LINES), log.size()));
            System.out.println("Hot install: " + report);
            failedConsoleReads.add(report);
            assertThat(failedConsoleReads).as("failed reads of the console's bundle list").hasSizeLessThanOrEqualTo(
                    MAX_FAILED_CONSOLE_READS);
            return false;
        }
    }

    /** A read of the console that was not answered 200. */
    private static final class ConsoleReadFailed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ConsoleReadFailed(String path, HttpResponse<String> response) {
            super("GET " + path + " answered " + response.statusCode() + ": " + response.body());
        }
    }

    private static void await(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("%s within 60 s", what).isLessThan(deadline);
            Thread.sleep(100);
        }
    }
}
