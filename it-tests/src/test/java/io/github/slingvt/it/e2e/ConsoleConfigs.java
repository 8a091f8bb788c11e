package io.github.slingvt.it.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * Reads and writes configurations the way an operator does in the web console's configuration manager
 * ({@code /system/console/configMgr}): the form the console page posts, with the admin login.
 */
final class ConsoleConfigs {

    /** NaN: the console writes a stored Double NaN as a bare NaN into its JSON. */
    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();
    private static final String AUTHORIZATION = "Basic "
            + Base64.getEncoder().encodeToString("admin:admin".getBytes(StandardCharsets.UTF_8));
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .followRedirects(HttpClient.Redirect.NEVER)
            .version(HttpClient.Version.HTTP_1_1)
            .build();

    private ConsoleConfigs() {
    }

    /** The console's description of a configuration: its metatype properties with their stored values. */
    static JsonNode describe(String baseUrl, String pid) {
        HttpResponse<String> response = post(baseUrl, "/system/console/configMgr/" + pid, "");
        if (response.statusCode() != 200) {
            throw new AssertionError("configMgr/" + pid + " answered " + response.statusCode() + ": " + response.body());
        }
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Saves the given properties (each with one or more values) as the console's Save button does. */
    static void apply(String baseUrl, String pid, Map<String, List<String>> values) {
        HttpResponse<String> response = post(baseUrl, "/system/console/configMgr/" + pid, form(values));
        // Felix web console 5.0.18 can answer 500 when a console plugin registers while the request starts
        // (ConcurrentModificationException in PluginHolder.getPlugins, docs/UPSTREAM.md): a saved configuration
        // restarts components that are or use console plugins. Saving the same values again is harmless; a 500 that
        // comes back three times is not this.
        for (int retry = 0; retry < 2 && response.statusCode() == 500; retry++) {
            SlingInstance.sleep(500);
            response = post(baseUrl, "/system/console/configMgr/" + pid, form(values));
        }
        if (response.statusCode() != 302 && response.statusCode() != 200) {
            throw new AssertionError("Saving " + pid + " answered " + response.statusCode() + ": " + response.body());
        }
    }

    /** Creates a factory configuration and answers its PID (the console's redirect names it). */
    static String createFactoryConfiguration(String baseUrl, String factoryPid,
            Map<String, List<String>> values) {
        HttpResponse<String> response = post(baseUrl, "/system/console/configMgr/" + factoryPid, "factoryPid=" + encode(factoryPid) + "&" + form(values));
        String location = response.headers().firstValue("Location").orElseThrow(() -> new AssertionError(
                "Creating a " + factoryPid + " answered " + response.statusCode() + " without a Location"));
        return location.substring(location.lastIndexOf('/') + 1);
    }

    /** Deletes a configuration as the console's Delete button does. */
    static void delete(String baseUrl, String pid) {
        HttpResponse<String> response = post(baseUrl, "/system/console/configMgr/" + pid, "apply=true&delete=true");
        if (response.statusCode() != 200 && response.statusCode() != 302) {
            throw new AssertionError("Deleting " + pid + " answered " + response.statusCode() + ": " + response.body());
        }
    }

    /**
     * How Sling VT quotes the stored value of a property: a list as {@code [a, b]}, anything else as its text. A
     * decimal the console converted is stored as a Double, which Java writes as {@code -5.0} where the console's JSON
     * says {@code -5}.
     */
    static String stored(JsonNode description, String property) {
        JsonNode p = description.path("properties").path(property);
        if (p.has("values")) {
            return ConfigFuzzPlan.shown(p.path("values"));
        }
        String text = p.path("value").asText();
        int type = p.path("type").asInt();
        if ((type == 7 || type == 8) && text.matches("-?\\d+(\\.\\d+)?([eE]-?\\d+)?")) {
            return Double.toString(Double.parseDouble(text));
        }
        return text;
    }

    private static String form(Map<String, List<String>> values) {
        List<String> pairs = new ArrayList<>(List.of("apply=true", "action=ajaxConfigManager",
                "propertylist=" + encode(String.join(",", values.keySet()))));
        values.forEach((name, list) -> list.forEach(v -> pairs.add(encode(name) + "=" + encode(v))));
        return String.join("&", pairs);
    }

    /** POSTs a form to a console path with the admin login. */
    static HttpResponse<String> post(String baseUrl, String path, String form) {
        return post(baseUrl, path, form, Map.of());
    }

    /** The same with extra headers, for example the {@code Origin} a browser sends. */
    static HttpResponse<String> post(String baseUrl, String path, String form, Map<String, String> headers) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", AUTHORIZATION)
                .header("Content-Type", "application/x-www-form-urlencoded");
        headers.forEach(builder::header);
        HttpRequest request = builder.POST(HttpRequest.BodyPublishers.ofString(form)).build();
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("POST " + request.uri(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted: POST " + request.uri(), e);
        }
    }

    /**
     * Installs (or, when a bundle of that symbolic name exists, updates) and starts the bundle in {@code jar} with the
     * web console's upload form, as an operator does; the console answers at once and installs in the background.
     */
    static HttpResponse<String> installBundle(String baseUrl, java.nio.file.Path jar) {
        String boundary = "slingvt-" + System.nanoTime();
        StringBuilder fields = new StringBuilder();
        for (String[] field : new String[][] {{"action", "install"}, {"bundlestart", "start"}}) {
            fields.append("--").append(boundary).append("\r\nContent-Disposition: form-data; name=\"").append(field[0])
                    .append("\"\r\n\r\n").append(field[1]).append("\r\n");
        }
        fields.append("--").append(boundary).append("\r\nContent-Disposition: form-data; name=\"bundlefile\"; filename=\"")
                .append(jar.getFileName()).append("\"\r\nContent-Type: application/java-archive\r\n\r\n");
        try {
            byte[] head = fields.toString().getBytes(StandardCharsets.UTF_8);
            byte[] body = java.nio.file.Files.readAllBytes(jar);
            byte[] tail = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8);
            HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + "/system/console/bundles"))
                    .timeout(Duration.ofSeconds(30))
                    .header("Authorization", AUTHORIZATION)
                    .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                    .POST(HttpRequest.BodyPublishers.ofByteArrays(List.of(head, body, tail)))
                    .build();
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("install " + jar, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted: install " + jar, e);
        }
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
