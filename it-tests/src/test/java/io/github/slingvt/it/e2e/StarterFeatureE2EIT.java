package io.github.slingvt.it.e2e;

import static io.github.slingvt.it.e2e.DemoServletsSupport.json;
import static io.github.slingvt.it.e2e.DemoServletsSupport.switchMode;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue #14 on the starter feature (the default of {@code ./sling-vt run} and of the shared instance): the Sling
 * Starter's start page at {@code /}, the demo application's HTL page with its Sling Model on the request thread of
 * each HTTP mode, the content loader's bundle initial content, the POST servlet's versioning, import and ordering
 * (which need the content loader), WebDAV and DavEx, and no pinned virtual thread while pages render under load.
 */
@ExtendWith(SharedSlingInstance.class)
class StarterFeatureE2EIT {

    static final String PAGE = "/content/vt-demo/page.html";
    private static final Pattern DD = Pattern.compile("<dd id=\"([a-z-]+)\">([^<]*)</dd>");
    private static final Pattern LI = Pattern.compile("<li>([^<]*)</li>");
    /** Below /content, where everyone may read and admin may write; removed after the class. */
    private static final String SCRATCH = "/content/starter-e2e-" + UUID.randomUUID().toString().substring(0, 8);
    private static final int LOAD_REQUESTS = 400;
    private static final int LOAD_CLIENTS = 40;

    private final SlingInstance sling;

    StarterFeatureE2EIT(SlingInstance sling) {
        this.sling = sling;
    }

    @AfterEach
    void restoreVirtualMode() {
        switchMode(sling, "virtual");
    }

    @AfterAll
    static void removeScratch(SlingInstance sling) {
        sling.postForm(SCRATCH, Map.of(":operation", "delete"), true);
    }

    @ParameterizedTest
    @ValueSource(strings = {"virtual", "kernel"})
    void rootRedirectsToTheStarterStartPage(String mode) {
        switchMode(sling, mode);
        final HttpResponse<String> root = sling.get("/");
        assertThat(root.statusCode()).as("GET /: %s", root.body()).isEqualTo(302);
        assertThat(root.headers().firstValue("Location")).as("Location of GET /").isPresent().get().asString()
                .endsWith("/starter.html");
        final HttpResponse<String> start = sling.get("/starter.html");
        assertThat(start.statusCode()).as("GET /starter.html").isEqualTo(200);
        assertThat(start.body()).contains("<title>Welcome to the Apache Sling Starter</title>");
    }

    @Test
    void pageRendersItsModelsDataOnVirtualThreadsAndOnPlatformThreadsInKernelMode() {
        switchMode(sling, "virtual");
        final Map<String, String> virtual = renderPage("?reads=12&delay=20");
        assertThat(virtual).containsEntry("reads", "12").containsEntry("delay", "20")
                .containsEntry("thread-kind", "virtual");

        switchMode(sling, "kernel");
        final Map<String, String> kernel = renderPage("?reads=3");
        assertThat(kernel).containsEntry("reads", "3").containsEntry("delay", "0")
                .containsEntry("thread-kind", "platform");
        assertThat(kernel.get("thread-name")).isNotBlank();

        switchMode(sling, "virtual");
        assertThat(renderPage("")).containsEntry("reads", "0").containsEntry("thread-kind", "virtual");
    }

    @Test
    void pageRefusesBadParametersWith400AndHeavyAnonymousWorkWith403() {
        final HttpResponse<String> notANumber = sling.get(PAGE + "?reads=lots");
        assertThat(notANumber.statusCode()).isEqualTo(400);
        assertThat(notANumber.body()).contains("reads=lots").contains("0 to 10000");
        final HttpResponse<String> tooLong = sling.get(PAGE + "?delay=10001");
        assertThat(tooLong.statusCode()).isEqualTo(400);
        assertThat(tooLong.body()).contains("delay=10001").contains("0 to 10000");
        final HttpResponse<String> negative = sling.get(PAGE + "?reads=-1");
        assertThat(negative.statusCode()).isEqualTo(400);

        final HttpResponse<String> heavy = sling.get(PAGE + "?reads=5000");
        assertThat(heavy.statusCode()).as("anonymous reads=5000: %s", heavy.body()).isEqualTo(403);
        assertThat(heavy.body()).contains("reads=5000").contains("anonymous limit 200");
        final HttpResponse<String> asAdmin = sling.get(PAGE + "?reads=5000", true);
        assertThat(asAdmin.statusCode()).as("admin reads=5000").isEqualTo(200);
        assertThat(fields(asAdmin.body())).containsEntry("reads", "5000");
    }

    @ParameterizedTest
    @ValueSource(strings = {"virtual", "kernel"})
    void bundleInitialContentIsLoaded(String mode) {
        switchMode(sling, mode);
        final JsonNode page = json(sling.get("/content/vt-demo/page.1.json"));
        assertThat(page.path("sling:resourceType").asText()).isEqualTo("slingvt/components/page");
        final JsonNode items = json(sling.get("/content/vt-demo/page/items.1.json"));
        assertThat(childNames(items)).hasSize(100).startsWith("item-0", "item-1");
        final HttpResponse<String> script = sling.get("/apps/slingvt/components/page/page.html.json", true);
        assertThat(script.statusCode()).as("the page's script as admin: %s", script.body()).isEqualTo(200);
        // The Sling Starter's own content bundle.
        assertThat(json(sling.get("/content/starter.json")).path("sling:resourceType").asText())
                .isEqualTo("sling/starter/home");
    }

    @ParameterizedTest
    @ValueSource(strings = {"virtual", "kernel"})
    void postServletChecksAVersionableNodeInAndOut(String mode) {
        switchMode(sling, mode);
        final String doc = SCRATCH + "/versioned-" + mode;
        created(sling.postForm(doc, Map.of("jcr:mixinTypes", "mix:versionable", "title", "first"), true));
        final HttpResponse<String> checkin = sling.postForm(doc, Map.of(":operation", "checkin"), true);
        assertThat(checkin.statusCode()).as("checkin: %s", checkin.body()).isEqualTo(200);
        final JsonNode checkedIn = json(sling.get(doc + ".json", true));
        assertThat(checkedIn.path("jcr:isCheckedOut").asBoolean(true)).as("%s", checkedIn).isFalse();
        assertThat(checkedIn.path("jcr:baseVersion").asText()).isNotBlank();

        final HttpResponse<String> changeWhileIn = sling.postForm(doc, Map.of("title", "second"), true);
        assertThat(changeWhileIn.statusCode()).as("a change of a checked-in node: %s", changeWhileIn.body())
                .isGreaterThanOrEqualTo(400);
        final HttpResponse<String> checkout = sling.postForm(doc, Map.of(":operation", "checkout"), true);
        assertThat(checkout.statusCode()).as("checkout: %s", checkout.body()).isEqualTo(200);
        assertThat(sling.postForm(doc, Map.of("title", "second"), true).statusCode()).isEqualTo(200);
        final JsonNode checkedOut = json(sling.get(doc + ".json", true));
        assertThat(checkedOut.path("jcr:isCheckedOut").asBoolean(false)).as("%s", checkedOut).isTrue();
        assertThat(checkedOut.path("title").asText()).isEqualTo("second");
    }

    @ParameterizedTest
    @ValueSource(strings = {"virtual", "kernel"})
    void postServletImportsJsonAndOrdersTheImportedNodes(String mode) {
        switchMode(sling, mode);
        final String imported = SCRATCH + "/imported-" + mode;
        final String content = "{\"jcr:primaryType\":\"nt:unstructured\",\"a\":{\"title\":\"A\"},"
                + "\"b\":{\"title\":\"B\"},\"c\":{\"title\":\"C\"}}";
        created(sling.postForm(SCRATCH, Map.of(":operation", "import", ":contentType", "json", ":name",
                "imported-" + mode, ":content", content), true));
        final JsonNode tree = json(sling.get(imported + ".1.json", true));
        assertThat(childNames(tree)).containsExactly("a", "b", "c");
        assertThat(tree.at("/b/title").asText()).isEqualTo("B");

        final HttpResponse<String> order = sling.postForm(imported + "/c", Map.of(":order", "first"), true);
        assertThat(order.statusCode()).as(":order=first: %s", order.body()).isEqualTo(200);
        assertThat(childNames(json(sling.get(imported + ".1.json", true)))).containsExactly("c", "a", "b");
    }

    @ParameterizedTest
    @ValueSource(strings = {"virtual", "kernel"})
    void webDavAndDavExServeTheRepository(String mode) {
        switchMode(sling, mode);
        final HttpResponse<String> davex = sling.get("/server/", true);
        assertThat(davex.statusCode()).as("GET /server/ (DavEx): %s", davex.body()).isEqualTo(200);
        final HttpResponse<String> dav = sling.get("/dav/default/content/vt-demo/page/items/item-7/", true);
        assertThat(dav.statusCode()).as("GET a folder over WebDAV: %s", dav.body()).isEqualTo(200);
        assertThat(dav.body()).contains("item-7");
    }

    @Test
    void renderingPagesUnderLoadPinsNoVirtualThreadFor20MsOrMore() throws Exception {
        switchMode(sling, "virtual");
        final int logMark = sling.errorLogLines().size();
        final long before = pinnedEvents();
        final List<String> failures = new ArrayList<>();
        try (ExecutorService clients = Executors.newFixedThreadPool(LOAD_CLIENTS)) {
            final List<Future<HttpResponse<String>>> futures = new ArrayList<>();
            for (int i = 0; i < LOAD_REQUESTS; i++) {
                final String query = "?reads=" + (10 + i % 40) + "&delay=" + (i % 3 == 0 ? 20 : 0);
                futures.add(clients.submit(() -> sling.get(PAGE + query)));
            }
            for (Future<HttpResponse<String>> future : futures) {
                final HttpResponse<String> response = future.get(120, TimeUnit.SECONDS);
                if (response.statusCode() != 200 || !"virtual".equals(fields(response.body()).get("thread-kind"))) {
                    failures.add("HTTP " + response.statusCode() + ": " + response.body());
                }
            }
        }
        assertThat(failures).as("pages not rendered on a virtual thread").isEmpty();
        Thread.sleep(PinningHealthE2EIT.JFR_FLUSH_MILLIS);
        assertThat(pinnedEvents() - before).as("pinned events >= 20 ms while rendering %d pages; %s", LOAD_REQUESTS,
                sling.get(PinningHealthE2EIT.STATUS_TXT, true).body()).isZero();
        final List<String> logged = sling.errorLogLines();
        assertThat(ErrorLogAllowlist.load().unexpectedErrors(logged.subList(logMark, logged.size())))
                .as("ERROR lines while rendering pages").isEmpty();
    }

    private Map<String, String> renderPage(String query) {
        final HttpResponse<String> response = sling.get(PAGE + query);
        assertThat(response.statusCode()).as("GET %s%s: %s", PAGE, query, response.body()).isEqualTo(200);
        assertThat(response.body()).contains("<title>Sling VT demo page</title>");
        final List<String> items = new ArrayList<>();
        final Matcher li = LI.matcher(response.body());
        while (li.find()) {
            items.add(li.group(1));
        }
        final int reads = Integer.parseInt(fields(response.body()).get("reads"));
        final List<String> expected = new ArrayList<>();
        for (int i = 0; i < Math.min(reads, 10); i++) {
            expected.add("Item " + i);
        }
        assertThat(items).as("the titles the model read").isEqualTo(expected);
        return fields(response.body());
    }

    static Map<String, String> fields(String html) {
        final Map<String, String> fields = new java.util.LinkedHashMap<>();
        final Matcher dd = DD.matcher(html);
        while (dd.find()) {
            fields.put(dd.group(1), dd.group(2));
        }
        return fields;
    }

    private long pinnedEvents() {
        return OverloadSupport.counters(sling).get("pinnedEvents").asLong();
    }

    private static List<String> childNames(JsonNode node) {
        final List<String> names = new ArrayList<>();
        node.fields().forEachRemaining(field -> {
            if (field.getValue().isObject()) {
                names.add(field.getKey());
            }
        });
        return names;
    }

    private static void created(HttpResponse<String> response) {
        assertThat(response.statusCode()).as("POST: %s", response.body()).isIn(200, 201);
    }
}
