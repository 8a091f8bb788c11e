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
import java.util.Base64;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Requests to a base URL that no {@link SlingInstance} stands for: a load balancer, or a node that {@code ./sling-vt}
 * started. Anonymous, or with the admin login (admin/admin, preemptive basic authentication).
 */
record HttpEndpoint(String baseUrl) {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final String ADMIN = "Basic "
            + Base64.getEncoder().encodeToString("admin:admin".getBytes(StandardCharsets.UTF_8));

    static HttpEndpoint local(int port) {
        return new HttpEndpoint("http://127.0.0.1:" + port);
    }

    HttpResponse<String> get(String path, boolean admin) {
        return send(request(path, admin).GET().build());
    }

    HttpResponse<String> postForm(String path, Map<String, String> parameters, boolean admin) {
        String form = parameters.entrySet().stream()
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        return send(request(path, admin).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build());
    }

    private HttpRequest.Builder request(String path, boolean admin) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(30));
        return admin ? request.header("Authorization", ADMIN) : request;
    }

    private static HttpResponse<String> send(HttpRequest request) {
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(request.method() + " " + request.uri() + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted: " + request.method() + " " + request.uri(), e);
        }
    }
}
