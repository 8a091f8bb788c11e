package io.github.slingvt.it.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #28, the Prometheus endpoint {@code /system/slingvt/metrics} of the launched instance (shared instance): it
 * refuses anonymous scrapes by default and lets them in once configured; under load its request counts and latency
 * grow with the status JSON's; Sling's and Oak's registries and the JVM are there, labelled; every metric the
 * Grafana dashboard of docs/operating queries exists (the carriers' ones exactly on the JDKs that have them).
 */
@ExtendWith(SharedSlingInstance.class)
class MetricsE2EIT {

    static final String METRICS = "/system/slingvt/metrics";
    private static final String PROMETHEUS_PID = "io.github.slingvt.observability.Prometheus";
    private static final String HTTP_STATUS = "/system/console/status-slingvt-http.json";
    private static final Path ROOT = Path.of(System.getProperty("slingvt.root", "..")).toAbsolutePath().normalize();
    private static final Path DASHBOARD = ROOT.resolve("docs/operating/sling-vt-grafana-dashboard.json");
    private static final boolean CARRIER_FIGURES =
            Runtime.Version.parse(SlingInstanceBuilder.javaVersion()).feature() >= 24;
    private static final Duration WAIT = Duration.ofSeconds(30);

    private final SlingInstance sling;

    MetricsE2EIT(SlingInstance sling) {
        this.sling = sling;
    }

    @Test
    void anonymousScrapesAreRefusedByDefaultAndLetInWhenConfigured() throws Exception {
        HttpResponse<String> anonymous = sling.get(METRICS);
        assertThat(anonymous.statusCode()).as("anonymous: %s", anonymous.body()).isEqualTo(401);
        assertThat(anonymous.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(
                v -> assertThat(v).startsWith("Basic "));
        assertThat(anonymous.body()).contains("anonymousAccess").doesNotContain("slingvt_http");
        HttpResponse<String> admin = sling.get(METRICS, true);
        assertThat(admin.statusCode()).isEqualTo(200);
        assertThat(admin.headers().firstValue("Content-Type")).hasValueSatisfying(
                v -> assertThat(v).startsWith("text/plain").contains("version=0.0.4"));

        ConsoleConfigs.apply(sling.baseUrl(), PROMETHEUS_PID, Map.of("anonymousAccess", List.of("true"),
                "jvmMetrics", List.of("true")));
        try {
            awaitStatus(false, 200);
            assertThat(sling.get(METRICS).body()).contains("slingvt_http_inFlight{registry=\"slingvt\",}");
        } finally {
            ConsoleConfigs.delete(sling.baseUrl(), PROMETHEUS_PID);
        }
        awaitStatus(false, 401);
    }

    /**
     * Read in this order: status, scrape, load, scrape, status. Between the two scrapes the endpoint's completed
     * count grows by the load, and it differs from the status's growth by the few console and scrape requests that
     * end between the readings (each reading is one request; none other runs meanwhile).
     */
    @Test
    void countsAndLatencyGrowUnderLoadAndMatchTheStatus() throws Exception {
        final int requests = 200;
        DemoServletsSupport.awaitSeeded(sling);
        JsonNode statusBefore = status();
        String before = scrape();
        AtomicInteger ok = new AtomicInteger();
        Set<Integer> statuses = java.util.concurrent.ConcurrentHashMap.newKeySet();
        List<Thread> clients = new ArrayList<>();
        for (int c = 0; c < 8; c++) {
            clients.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < requests / 8; i++) {
                    int code = sling.get("/bin/vt/work.json?reads=1").statusCode();
                    statuses.add(code);
                    if (code == 200) {
                        ok.incrementAndGet();
                    }
                }
            }));
        }
        for (Thread t : clients) {
            t.join(Duration.ofSeconds(120));
        }
        assertThat(ok.get()).as("the load's answers (statuses %s)", statuses).isEqualTo(requests);
        String after = scrape();
        JsonNode statusAfter = status();

        long scraped = value(after, "slingvt_http_completed_total{registry=\"slingvt\",}")
                - value(before, "slingvt_http_completed_total{registry=\"slingvt\",}");
        long counted = statusAfter.path("completed").asLong() - statusBefore.path("completed").asLong();
        assertThat(scraped).as("completed between the scrapes").isGreaterThanOrEqualTo(requests);
        assertThat(counted - scraped).as("status %s vs scrapes %s", counted, scraped).isBetween(0L, 4L);
        assertThat(value(after, "slingvt_http_admitted_total{registry=\"slingvt\",}")
                - value(before, "slingvt_http_admitted_total{registry=\"slingvt\",}")).isGreaterThanOrEqualTo(requests);

        String kind = "virtual".equals(statusAfter.path("mode").asText()) ? "virtual" : "platform";
        String count = "slingvt_http_requests_count{registry=\"slingvt\",kind=\"" + kind + "\",}";
        assertThat(value(after, count) - value(before, count)).as("%s requests timed", kind)
                .isGreaterThanOrEqualTo(requests);
        double p99 = decimal(after, "slingvt_http_requests{registry=\"slingvt\",kind=\"" + kind
                + "\",quantile=\"0.99\",}");
        assertThat(p99).as("p99 in seconds").isGreaterThan(0).isLessThan(30);
    }

    @Test
    void slingsAndOaksRegistriesAndTheJvmAreThereLabelled() {
        String text = scrape();
        assertThat(text).contains("registry=\"sling\"").contains("registry=\"oak\"").contains("registry=\"slingvt\"");
        assertThat(text).contains("\njvm_threads_current ").contains("\njvm_memory_bytes_used{area=\"heap\",}")
                .contains("\nprocess_cpu_seconds_total ");
        assertThat(text).contains("slingvt_pools_active{registry=\"slingvt\",pool=\"default\",}");
        if (CARRIER_FIGURES) {
            assertThat(value(text, "slingvt_carriers_parallelism{registry=\"slingvt\",}"))
                    .isEqualTo(Runtime.getRuntime().availableProcessors());
        } else {
            assertThat(text).as("JDK %s has no carrier figures", SlingInstanceBuilder.javaVersion())
                    .doesNotContain("slingvt_carriers_");
        }
    }

    @Test
    void everyMetricTheGrafanaDashboardQueriesExists() throws IOException {
        Set<String> queried = dashboardMetrics(Files.readString(DASHBOARD));
        assertThat(queried).as("metrics in %s", DASHBOARD).hasSizeGreaterThan(15)
                .contains("slingvt_http_requests", "slingvt_http_completed_total", "jvm_threads_current");
        Set<String> exposed = exposedNames(scrape());
        for (String name : queried) {
            if (name.startsWith("slingvt_carriers_") && !CARRIER_FIGURES) {
                assertThat(exposed).as("JDK %s has no carrier figures", SlingInstanceBuilder.javaVersion())
                        .doesNotContain(name);
            } else {
                assertThat(exposed).as("%s, queried by the dashboard", name).contains(name);
            }
        }
    }

    /** The metric names of the dashboard's queries: a name is what stands before a label selector. */
    static Set<String> dashboardMetrics(String dashboard) throws IOException {
        JsonNode root = DemoServletsSupport.JSON.readTree(dashboard);
        Set<String> names = new TreeSet<>();
        Pattern selector = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)\\{");
        List<String> queries = new ArrayList<>();
        root.path("panels").forEach(p -> p.path("targets").forEach(t -> queries.add(t.path("expr").asText())));
        root.path("templating").path("list").forEach(v -> queries.add(v.path("definition").asText()
                .replaceAll("label_values\\(([a-zA-Z_:][a-zA-Z0-9_:]*),.*", "$1{")));
        for (String query : queries) {
            Matcher m = selector.matcher(query);
            while (m.find()) {
                names.add(m.group(1));
            }
        }
        return names;
    }

    private static Set<String> exposedNames(String text) {
        Set<String> names = new TreeSet<>();
        for (String line : text.split("\n")) {
            if (!line.isEmpty() && !line.startsWith("#")) {
                names.add(line.split("[{ ]", 2)[0]);
            }
        }
        return names;
    }

    private String scrape() {
        HttpResponse<String> response = sling.get(METRICS, true);
        assertThat(response.statusCode()).as("scrape: %s", response.body()).isEqualTo(200);
        return response.body();
    }

    private JsonNode status() {
        return DemoServletsSupport.json(sling.get(HTTP_STATUS, true));
    }

    private void awaitStatus(boolean admin, int status) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        int last;
        while ((last = sling.get(METRICS, admin).statusCode()) != status) {
            assertThat(System.nanoTime()).as("HTTP %s within %s (last %s)", status, WAIT, last).isLessThan(deadline);
            Thread.sleep(200);
        }
    }

    private static long value(String text, String series) {
        return Math.round(decimal(text, series));
    }

    private static double decimal(String text, String series) {
        int at = text.indexOf("\n" + series + " ");
        assertThat(at).as("%s in the scrape", series).isNotNegative();
        int start = at + series.length() + 2;
        int end = text.indexOf('\n', start);
        return Double.parseDouble(text.substring(start, end < 0 ? text.length() : end).trim());
    }
}
