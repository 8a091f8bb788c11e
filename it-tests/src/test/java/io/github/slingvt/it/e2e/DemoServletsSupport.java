package io.github.slingvt.it.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Helpers for the end-to-end ITs of the demo servlets ({@code /bin/vt/*}): waiting for the seeded content, binary
 * downloads, the scratch folder as the repository shows it, and the live mode switch of the web console.
 */
final class DemoServletsSupport {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String WORK_JSON = "/bin/vt/work.json";
    static final String WORK_BIN = "/bin/vt/work.bin";
    static final String WORK_ASYNC_JSON = "/bin/vt/work-async.json";
    static final String STATUS_JSON = "/bin/vt/status.json";
    static final String SCRATCH = "/var/vt-demo/scratch";
    static final String CONSOLE_SLINGVT = "/system/console/slingvt";
    /** Properties of a seeded leaf: jcr:primaryType, title, index, folder, text, tags, weight, published. */
    static final int PROPERTIES_PER_LEAF = 8;

    private static final Duration SEEDING_TIMEOUT = Duration.ofSeconds(90);
    private static final HttpClient BYTES = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .followRedirects(HttpClient.Redirect.NEVER)
            .version(HttpClient.Version.HTTP_1_1)
            .build();

    private DemoServletsSupport() {
    }

    /** Waits until {@code status.json} reports {@code "seeded":true} (the seeder runs in the background). */
    static JsonNode awaitSeeded(SlingInstance sling) throws InterruptedException {
        final long deadline = System.nanoTime() + SEEDING_TIMEOUT.toNanos();
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            final HttpResponse<String> response = sling.get(STATUS_JSON);
            last = response.statusCode() + " " + response.body();
            if (response.statusCode() == 200) {
                final JsonNode status = json(response);
                if (status.path("seeded").asBoolean()) {
                    return status;
                }
            }
            Thread.sleep(250);
        }
        throw new AssertionError("Demo content not seeded within " + SEEDING_TIMEOUT.toSeconds() + " s; last "
                + STATUS_JSON + ": " + last);
    }

    static JsonNode json(HttpResponse<String> response) {
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new AssertionError("Not JSON (HTTP " + response.statusCode() + " " + response.uri() + "): "
                    + response.body(), e);
        }
    }

    /**
     * GET 200 as JSON as admin, failing with the body otherwise. Logged in: anonymous requests get light work only
     * (heavy work is a 403), and these tests use the servlets' full ranges.
     */
    static JsonNode getOk(SlingInstance sling, String pathAndQuery) {
        final HttpResponse<String> response = sling.get(pathAndQuery, true);
        assertThat(response.statusCode()).as("GET %s: %s", pathAndQuery, response.body()).isEqualTo(200);
        return json(response);
    }

    /**
     * POSTs the query of {@code pathAndQuery} as a form, logged in as admin: work with {@code writes} and the job
     * probe change state, so they are POST only, for a logged-in user.
     */
    static HttpResponse<String> postAsAdmin(SlingInstance sling, String pathAndQuery) {
        final int q = pathAndQuery.indexOf('?');
        final Map<String, String> form = new LinkedHashMap<>();
        if (q >= 0) {
            for (String pair : pathAndQuery.substring(q + 1).split("&")) {
                final int eq = pair.indexOf('=');
                form.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
        }
        return sling.postForm(q >= 0 ? pathAndQuery.substring(0, q) : pathAndQuery, form, true);
    }

    /** {@link #postAsAdmin}, asserting 200 and answering the JSON. */
    static JsonNode postOk(SlingInstance sling, String pathAndQuery) {
        final HttpResponse<String> response = postAsAdmin(sling, pathAndQuery);
        assertThat(response.statusCode()).as("POST %s as admin: %s", pathAndQuery, response.body()).isEqualTo(200);
        return json(response);
    }

    /** GET as admin with the body as bytes (work.bin, stored binaries), for the full ranges as {@link #getOk}. */
    static HttpResponse<byte[]> getBytes(SlingInstance sling, String pathAndQuery) {
        final HttpRequest request = HttpRequest.newBuilder(URI.create(sling.baseUrl() + pathAndQuery))
                .header("Authorization", SlingInstance.ADMIN_AUTHORIZATION).timeout(Duration.ofSeconds(60)).GET().build();
        try {
            return BYTES.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException("GET " + request.uri() + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted: GET " + request.uri(), e);
        }
    }

    /**
     * The child nodes of the scratch folder as the repository shows them to admin ({@code scratch.1.json}); fails
     * if the folder itself is missing.
     */
    static List<String> scratchChildren(SlingInstance sling) {
        final HttpResponse<String> response = sling.get(SCRATCH + ".1.json", true);
        assertThat(response.statusCode()).as("GET %s.1.json as admin: %s", SCRATCH, response.body())
                .isEqualTo(200);
        final JsonNode folder = json(response);
        assertThat(folder.path("jcr:primaryType").asText()).as("%s in %s", SCRATCH, response.body())
                .isEqualTo("sling:Folder");
        final List<String> children = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = folder.fields(); it.hasNext();) {
            final Map.Entry<String, JsonNode> field = it.next();
            if (field.getValue().isObject()) {
                children.add(field.getKey());
            }
        }
        return children;
    }

    /** Asserts that the node a work request wrote below is gone from the repository (admin view). */
    static void assertGoneFromRepository(SlingInstance sling, String path) {
        assertThat(path).as("writes.path").startsWith(SCRATCH + "/");
        final HttpResponse<String> response = sling.get(path + ".json", true);
        assertThat(response.statusCode()).as("GET %s.json as admin after the request: %s", path, response.body())
                .isEqualTo(404);
    }

    /** {@code POST /system/console/slingvt mode=...} as admin; returns the status JSON after the switch applied. */
    static JsonNode switchMode(SlingInstance sling, String mode) {
        final HttpResponse<String> response = sling.postForm(CONSOLE_SLINGVT, Map.of("mode", mode), true);
        assertThat(response.statusCode()).as("POST %s mode=%s: %s", CONSOLE_SLINGVT, mode, response.body())
                .isEqualTo(200);
        final JsonNode status = json(response);
        assertThat(status.path("mode").asText()).as("mode in %s", response.body()).isEqualTo(mode);
        return status;
    }

    /**
     * What the cpuIterations step must report, computed here from its description: a 256-byte block holding
     * 0..255, hashed with SHA-256 {@code iterations} times, each digest written over the first 32 bytes.
     */
    static String expectedDigest(int iterations) {
        try {
            final MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            final byte[] block = new byte[256];
            for (int i = 0; i < block.length; i++) {
                block[i] = (byte) i;
            }
            for (int i = 0; i < iterations; i++) {
                System.arraycopy(sha256.digest(block), 0, block, 0, 32);
            }
            return HexFormat.of().formatHex(block, 0, 32);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
