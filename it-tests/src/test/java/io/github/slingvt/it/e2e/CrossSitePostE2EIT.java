package io.github.slingvt.it.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Cross-site request forgery against Sling itself (shared instance): a page on another site can make the browser of a
 * logged-in admin POST to the instance with the stored login. Sling's Referrer filter ({@code org.apache.sling.security}
 * in the feature) must refuse such a POST to the Sling POST servlet before it changes anything, while the instance's
 * own pages and clients that are not browsers keep working.
 */
@ExtendWith(SharedSlingInstance.class)
class CrossSitePostE2EIT {

    /** Sling's filter checks requests whose User-Agent says Mozilla or Opera: every browser's does. */
    static final String BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0";

    private final SlingInstance sling;

    CrossSitePostE2EIT(SlingInstance sling) {
        this.sling = sling;
    }

    /** The headers a browser sends with a form POST from the page {@code referer}. */
    static Map<String, String> browserFrom(String referer) {
        final java.net.URI page = java.net.URI.create(referer);
        final String origin = page.getScheme() + "://" + page.getRawAuthority();
        return Map.of("User-Agent", BROWSER, "Referer", referer, "Origin", origin);
    }

    @Test
    void aCrossSitePostToTheSlingPostServletWithTheAdminLoginChangesNothing() {
        final String path = "/content/slingvt-csrf-" + System.nanoTime();
        final Map<String, String> node = Map.of("jcr:primaryType", "nt:unstructured", "marker", "forged");

        final HttpResponse<String> forged = sling.postForm(path, node, true, browserFrom("https://evil.example/x"));
        assertThat(forged.statusCode()).as("cross-site POST to %s: %s", path, forged.body()).isEqualTo(403);
        assertThat(sling.get(path + ".json", true).statusCode()).as("no node was created").isEqualTo(404);

        final HttpResponse<String> noReferer = sling.postForm(path, node, true,
                Map.of("User-Agent", BROWSER, "Origin", "https://evil.example"));
        assertThat(noReferer.statusCode()).as("a browser POST without Referer (no-referrer policy)").isEqualTo(403);
        assertThat(sling.get(path + ".json", true).statusCode()).as("still no node").isEqualTo(404);
    }

    @Test
    void theInstancesOwnPagesAndNonBrowserClientsStillWrite() {
        final String path = "/content/slingvt-csrf-own-" + System.nanoTime();
        try {
            final HttpResponse<String> own = sling.postForm(path, Map.of("jcr:primaryType", "nt:unstructured",
                    "marker", "own"), true, browserFrom(sling.baseUrl() + "/content/vt-demo/page.html"));
            assertThat(own.statusCode()).as("same-origin browser POST: %s", own.body()).isEqualTo(201);
            assertThat(sling.get(path + ".json", true).body()).contains("\"marker\":\"own\"");

            final HttpResponse<String> curl = sling.postForm(path, Map.of("marker", "curl"), true);
            assertThat(curl.statusCode()).as("POST from a client that is no browser: %s", curl.body()).isEqualTo(200);
            assertThat(sling.get(path + ".json", true).body()).contains("\"marker\":\"curl\"");
        } finally {
            sling.postForm(path, Map.of(":operation", "delete"), true);
        }
        assertThat(sling.get(path + ".json", true).statusCode()).as("deleted again").isEqualTo(404);
    }
}
