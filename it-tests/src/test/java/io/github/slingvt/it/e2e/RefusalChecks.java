package io.github.slingvt.it.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.slingvt.it.e2e.ConfigFuzzPlan.Case;

/** What an operator must see after a configuration value was refused, and that the instance keeps serving. */
final class RefusalChecks {

    private static final ObjectMapper JSON = new ObjectMapper();
    static final Duration WAIT = Duration.ofSeconds(30);
    private static final String STATUS = "/system/console/status-slingvt-http.json";

    private RefusalChecks() {
    }

    /** Waits until error.log, after line {@code mark}, has an ERROR naming each case's PID, property and value. */
    static void awaitErrors(SlingInstance sling, String when, List<Case> cases, int mark) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        List<String> missing = cases.stream().map(RefusalChecks::expected).toList();
        List<String> refusals = List.of();
        while (!missing.isEmpty()) {
            List<String> lines = sling.errorLogLines();
            refusals = lines.subList(Math.min(mark, lines.size()), lines.size()).stream()
                    .filter(l -> l.contains("*ERROR*") && l.contains(" refused: ")).toList();
            List<String> found = refusals;
            missing = missing.stream().filter(m -> found.stream().noneMatch(l -> matches(l, m))).toList();
            if (System.nanoTime() > deadline) {
                fail("%s: no ERROR within %d s for %s%nrefusals logged: %s", when, WAIT.toSeconds(), missing, refusals);
            }
            Thread.sleep(100);
        }
    }

    /** Requests on virtual threads; status JSON, console page and health check name every refusal. */
    static void assertStillServing(SlingInstance sling, String when, List<Case> cases) throws Exception {
        JsonNode work = awaitOk(sling, DemoServletsSupport.WORK_JSON, false);
        assertThat(work.at("/thread/virtual").asBoolean()).as("%s: %s runs virtual: %s", when,
                DemoServletsSupport.WORK_JSON, work).isTrue();

        JsonNode status = awaitOk(sling, STATUS, true);
        assertThat(status.path("mode").asText()).as("%s: mode in %s", when, status).isEqualTo("virtual");
        List<String> listed = new ArrayList<>();
        status.path("configErrors").forEach(e -> listed.add(e.path("pid").asText() + " " + e.path("property").asText()
                + " = " + e.path("value").asText()));
        for (Case c : cases) {
            assertThat(listed).as("%s: configErrors of %s", when, STATUS)
                    .contains(c.property().pid() + " " + c.property().name() + " = " + c.shown());
        }

        HttpResponse<String> page = sling.get(DemoServletsSupport.CONSOLE_SLINGVT, true);
        assertThat(page.statusCode()).as("%s: console page", when).isEqualTo(200);
        assertThat(page.body()).contains("id='slingvt-config-errors'");
        cases.stream().map(c -> c.property().pid()).distinct()
                .forEach(pid -> assertThat(page.body()).as("%s: console page names %s", when, pid).contains(pid));

        HttpResponse<String> health = sling.get("/system/health/slingvt.json", true);
        assertThat(health.body()).as("%s: health check", when).contains("Configuration refused");
    }

    /** Waits until the status JSON lists no refused configuration (after good values were restored). */
    static void awaitNoConfigErrors(SlingInstance sling) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        JsonNode status;
        while (!(status = awaitOk(sling, STATUS, true)).path("configErrors").isEmpty()) {
            if (System.nanoTime() > deadline) {
                fail("configErrors still listed %d s after good values were restored: %s", WAIT.toSeconds(),
                        status.path("configErrors"));
            }
            Thread.sleep(100);
        }
    }

    /**
     * GETs a JSON path until it answers 200: the demo servlets are unregistered for a moment while their component
     * is reactivated with the settings that stay in force.
     */
    static JsonNode awaitOk(SlingInstance sling, String path, boolean admin) throws InterruptedException, IOException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        HttpResponse<String> response;
        while ((response = sling.get(path, admin)).statusCode() != 200) {
            if (System.nanoTime() > deadline) {
                fail("%s answered %d for %d s: %s", path, response.statusCode(), WAIT.toSeconds(), response.body());
            }
            Thread.sleep(100);
        }
        return JSON.readTree(response.body());
    }

    private static String expected(Case c) {
        return c.property().pid() + "\n" + "property '" + c.property().name() + "' = '" + c.shown() + "'";
    }

    private static boolean matches(String line, String expected) {
        int split = expected.indexOf('\n');
        return line.contains("Configuration " + expected.substring(0, split) + " refused: ")
                && line.contains(expected.substring(split + 1));
    }
}
