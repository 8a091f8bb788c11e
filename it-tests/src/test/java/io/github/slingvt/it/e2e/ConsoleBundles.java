package io.github.slingvt.it.e2e;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The web console's bundle actions, sent the way an operator sends them with curl (README, "Installing into an
 * existing Sling"): a multipart install, and form posts for uninstall and refresh.
 */
final class ConsoleBundles {

    static final String BUNDLES = "/system/console/bundles";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private ConsoleBundles() {
    }

    /** {@code curl -F action=install -F bundlestart=start -F bundlestartlevel=N -F bundlefile=@jar}. */
    static int install(SlingInstance sling, Path jar, int startLevel) {
        String boundary = "slingvt-" + UUID.randomUUID();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        try {
            for (Map.Entry<String, String> field : Map.of("action", "install", "bundlestart", "start",
                    "bundlestartlevel", Integer.toString(startLevel)).entrySet()) {
                write(body, "--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + field.getKey()
                        + "\"\r\n\r\n" + field.getValue() + "\r\n");
            }
            write(body, "--" + boundary + "\r\nContent-Disposition: form-data; name=\"bundlefile\"; filename=\""
                    + jar.getFileName() + "\"\r\nContent-Type: application/java-archive\r\n\r\n");
            body.write(Files.readAllBytes(jar));
            write(body, "\r\n--" + boundary + "--\r\n");
            HttpRequest request = HttpRequest.newBuilder(URI.create(sling.baseUrl() + BUNDLES))
                    .header("Authorization", SlingInstance.ADMIN_AUTHORIZATION)
                    .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                    .timeout(Duration.ofSeconds(60))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())).build();
            return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            throw new UncheckedIOException("installing " + jar, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while installing " + jar, e);
        }
    }

    /** {@code curl -d action=uninstall .../bundles/<symbolic name>}. */
    static int uninstall(SlingInstance sling, String symbolicName) {
        return sling.postForm(BUNDLES + "/" + symbolicName, Map.of("action", "uninstall"), true).statusCode();
    }

    /** {@code curl -d action=refreshPackages .../bundles}. */
    static int refreshPackages(SlingInstance sling) {
        return sling.postForm(BUNDLES, Map.of("action", "refreshPackages"), true).statusCode();
    }

    /** The state of a bundle by symbolic name ("Active", "Resolved", ...), or "absent". */
    static String state(SlingInstance sling, String symbolicName) {
        for (JsonNode b : bundles(sling).path("data")) {
            if (b.path("symbolicName").asText().equals(symbolicName)) {
                return b.path("state").asText();
            }
        }
        return "absent";
    }

    /** {@code bundles.json}: "s" is [total, active, fragments, resolved, installed]. */
    static JsonNode bundles(SlingInstance sling) {
        return DemoServletsSupport.json(sling.get(BUNDLES + ".json", true));
    }

    /** "settled: ..." once all bundles are active or fragments, else what the web console reports. */
    static String settled(SlingInstance sling) {
        try {
            final HttpResponse<String> response = sling.get(BUNDLES + ".json", true);
            if (response.statusCode() != 200) {
                return "unknown (web console: HTTP " + response.statusCode() + ")";
            }
            final JsonNode counts = JSON.readTree(response.body()).path("s");
            final int total = counts.path(0).asInt(-1);
            final boolean settled = total > 0 && counts.path(1).asInt() + counts.path(2).asInt() == total;
            return (settled ? "settled: " : "not settled: ") + counts;
        } catch (IOException | UncheckedIOException e) {
            return "unknown (" + e + ")";
        }
    }

    private static void write(ByteArrayOutputStream out, String text) {
        out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
    }
}
