package io.github.slingvt.it.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * End-to-end checks of the assembled feature (shared instance, see {@link SharedSlingInstance}): Sling serves
 * content, the POST servlet writes to Oak, the web console is protected and every bundle is active, the instance
 * runs on Java 21+, and its startup log has no unexpected errors.
 */
@ExtendWith(SharedSlingInstance.class)
class FoundationE2EIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String BUNDLES_JSON = "/system/console/bundles.json";
    private static final String SYSTEM_PROPERTIES = "/system/console/status-System%20Properties.txt";
    private static final String FRAMEWORK_PROPERTIES = "/system/console/status-Framework%20Properties.txt";

    private final SlingInstance sling;

    FoundationE2EIT(SlingInstance sling) {
        this.sling = sling;
    }

    @Test
    void anonymousGetOfRootJsonAnswersWithTheRootNode() throws IOException {
        final HttpResponse<String> response = sling.get("/.json");

        assertThat(response.statusCode()).as("GET /.json: %s", response.body()).isEqualTo(200);
        assertThat(JSON.readTree(response.body()).path("jcr:primaryType").asText())
                .as("jcr:primaryType of / in %s", response.body())
                .isNotBlank();
    }

    @Test
    void nodeCreatedByAdminWithThePostServletReadsBackWithItsProperty() throws IOException {
        final String path = "/content/e2e-foundation-" + UUID.randomUUID();
        final String value = "value-" + UUID.randomUUID();

        final HttpResponse<String> created = sling.postForm(path, Map.of("e2eProperty", value), true);
        assertThat(created.statusCode()).as("POST %s as admin: %s", path, created.body()).isEqualTo(201);

        final HttpResponse<String> read = sling.get(path + ".json");
        assertThat(read.statusCode()).as("GET %s.json: %s", path, read.body()).isEqualTo(200);
        final JsonNode node = JSON.readTree(read.body());
        assertThat(node.path("e2eProperty").asText()).as("e2eProperty in %s", read.body()).isEqualTo(value);
        assertThat(node.path("jcr:createdBy").asText()).as("jcr:createdBy in %s", read.body()).isEqualTo("admin");
    }

    @Test
    void anonymousPostIsRefusedAndCreatesNothing() {
        final String path = "/content/e2e-foundation-anonymous-" + UUID.randomUUID();

        final HttpResponse<String> post = sling.postForm(path, Map.of("e2eProperty", "anonymous"), false);
        assertThat(post.statusCode()).as("anonymous POST %s: %s", path, post.body())
                .matches(status -> status < 200 || status > 299, "is not a 2xx status");

        final HttpResponse<String> read = sling.get(path + ".json", true);
        assertThat(read.statusCode()).as("GET %s.json as admin after the refused POST", path).isEqualTo(404);
    }

    @Test
    void webConsoleNeedsCredentialsAndReportsEveryBundleActiveOrFragment() throws IOException {
        assertThat(sling.get(BUNDLES_JSON).statusCode()).as("GET %s without credentials", BUNDLES_JSON)
                .isIn(302, 401, 403);

        final HttpResponse<String> response = sling.get(BUNDLES_JSON, true);
        assertThat(response.statusCode()).as("GET %s as admin", BUNDLES_JSON).isEqualTo(200);
        final JsonNode bundles = JSON.readTree(response.body());
        final JsonNode data = bundles.path("data");
        assertThat(data.size()).as("bundles listed (status: %s)", bundles.path("status").asText())
                .isPositive()
                .isEqualTo(bundles.path("s").path(0).asInt());
        final List<String> offenders = new ArrayList<>();
        for (JsonNode bundle : data) {
            if (!bundle.path("fragment").asBoolean() && !"Active".equals(bundle.path("state").asText())) {
                offenders.add(bundle.path("symbolicName").asText() + " " + bundle.path("version").asText()
                        + " (id " + bundle.path("id").asText() + "): " + bundle.path("state").asText());
            }
        }
        assertThat(offenders).as("bundles neither active nor fragments (status: %s)",
                bundles.path("status").asText()).isEmpty();
    }

    @Test
    void instanceRunsOnJava21OrNewerFromTheConfiguredJdk() {
        final HttpResponse<String> response = sling.get(SYSTEM_PROPERTIES, true);
        assertThat(response.statusCode()).as("GET %s as admin", SYSTEM_PROPERTIES).isEqualTo(200);
        final Matcher javaVersion = Pattern.compile("(?m)^java\\.version = (\\S+)$").matcher(response.body());
        assertThat(javaVersion.find()).as("java.version line in %s", SYSTEM_PROPERTIES).isTrue();

        final String version = javaVersion.group(1);
        assertThat(Runtime.Version.parse(version).feature()).as("Java feature version of %s", version)
                .isGreaterThanOrEqualTo(21);
        assertThat(version).as("the instance runs on %s", SlingInstanceBuilder.javaHome())
                .isEqualTo(SlingInstanceBuilder.javaVersion());
    }

    @Test
    void fileInstallerWatchesTheInstallFolderThatSlingInstanceFillsForSeparateInstances() {
        final HttpResponse<String> response = sling.get(FRAMEWORK_PROPERTIES, true);
        assertThat(response.statusCode()).as("GET %s as admin", FRAMEWORK_PROPERTIES).isEqualTo(200);
        assertThat(response.body().lines())
                .as("framework properties")
                .contains("sling.fileinstall.dir = " + sling.installDir());
    }

    /**
     * The feature sizes Felix Event Admin (4 + 2 threads instead of 20 + 10) and the health check executor (4
     * instead of up to 25), whose threads otherwise stand idle (issue #13). Counted by name in /proc.
     */
    @Test
    void eventAdminAndHealthChecksKeepFewPlatformThreads() {
        final Map<String, Long> names = OverloadSupport.osThreadNames(sling.pid());
        assertThat(count(names, "EventAdminThrea")).as("Event Admin delivery threads in %s", names)
                .isLessThanOrEqualTo(4);
        assertThat(count(names, "EventAdminAsync")).as("Event Admin async threads in %s", names)
                .isLessThanOrEqualTo(2);
        assertThat(count(names, "HealthCheck") + count(names, "hc-thread")).as("health check threads in %s", names)
                .isBetween(1L, 4L);
    }

    private static long count(Map<String, Long> names, String prefix) {
        return names.entrySet().stream().filter(e -> e.getKey().startsWith(prefix)).mapToLong(Map.Entry::getValue)
                .sum();
    }

    @Test
    void startupLogHasNoUnexpectedErrors() {
        final ErrorLogAllowlist allowlist = ErrorLogAllowlist.load();
        final List<String> startupLog = sling.startupLogLines();
        assertThat(startupLog).as("error.log lines at the end of the startup of %s", sling.home()).isNotEmpty();

        final List<String> unexpected = allowlist.unexpectedErrors(startupLog);
        assertThat(unexpected)
                .as("*ERROR* lines in %s/logs/error.log during startup that %s (%d regexes) does not allow:%n%s",
                        sling.home(), ErrorLogAllowlist.RESOURCE, allowlist.size(), String.join("\n", unexpected))
                .isEmpty();
    }
}
