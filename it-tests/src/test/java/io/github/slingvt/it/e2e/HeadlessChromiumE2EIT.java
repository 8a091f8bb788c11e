package io.github.slingvt.it.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link HeadlessChromium} against the JDK's HttpServer, no Sling: a page and a JSON endpoint behind HTTP Basic
 * auth (a 401 and a challenge without it) like the console's, whose script fetch()es the endpoint every 500 ms and
 * counts its updates in the DOM. Shows that the login header reaches the page load and the page's own fetch() calls,
 * that DOM updates by script can be awaited and read, that screenshots are PNGs and that close() leaves no process
 * behind. About 7 s; it fails (never skips) without a Chromium: ./sling-vt chromium installs one.
 */
class HeadlessChromiumE2EIT {

    private static final String AUTHORIZATION = "Basic "
            + Base64.getEncoder().encodeToString("admin:secret".getBytes(StandardCharsets.UTF_8));
    private static final String PAGE = """
            <!DOCTYPE html><html><head><title>updates</title></head>
            <body><h1 id="status" data-updates="0">waiting</h1><script>
            let updates = 0;
            async function update() {
              const answer = await fetch('/figures.json');
              const figures = await answer.json();
              updates++;
              const status = document.getElementById('status');
              status.dataset.updates = String(updates);
              status.textContent = 'served ' + figures.served + ' (HTTP ' + answer.status + ')';
            }
            update();
            setInterval(update, 500);
            </script></body></html>
            """;

    private final AtomicInteger figuresServed = new AtomicInteger();
    private HttpServer server;
    private String baseUrl;

    @BeforeEach
    void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/page.html", exchange -> answer(exchange, "text/html", PAGE));
        server.createContext("/figures.json", exchange -> answer(exchange, "application/json",
                "{\"served\":" + figuresServed.incrementAndGet() + "}"));
        server.start();
        baseUrl = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stopServer() {
        server.stop(0);
    }

    /** Every answer is behind Basic auth, as the console's are: without the header a 401 and a challenge. */
    private static void answer(HttpExchange exchange, String type, String body) throws IOException {
        try (exchange) {
            if (!AUTHORIZATION.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
                exchange.getResponseHeaders().add("WWW-Authenticate", "Basic realm=\"test\"");
                exchange.sendResponseHeaders(401, -1);
                return;
            }
            final byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", type + "; charset=utf-8");
            exchange.sendResponseHeaders(200, bytes.length);
            exchange.getResponseBody().write(bytes);
        }
    }

    @Test
    void aPageBehindBasicAuthUpdatesItsDomByScriptAndIsCaptured() throws Exception {
        final Path screenshot = Path.of(System.getProperty(SlingInstanceBuilder.E2E_DIR_PROPERTY, "target/e2e"))
                .resolve("screenshots").resolve("headless-chromium-self-check.png");
        final HeadlessChromium browser = HeadlessChromium.start();
        final Path profile;
        try (browser) {
            profile = Path.of(profileOf(browser.pid()));
            browser.extraHeaders(Map.of("Authorization", AUTHORIZATION));
            assertThat(browser.navigate(baseUrl + "/page.html")).as("HTTP status of the page").isEqualTo(200);

            browser.awaitTrue("Number(document.getElementById('status').dataset.updates) >= 2", Duration.ofSeconds(20));

            assertThat(Integer.parseInt(browser.evaluate("document.getElementById('status').dataset.updates")))
                    .as("updates by the page's script").isGreaterThanOrEqualTo(2);
            assertThat(browser.evaluate("document.getElementById('status').textContent"))
                    .as("text written by the page's script").matches("served \\d+ \\(HTTP 200\\)");
            assertThat(figuresServed.get()).as("fetch() calls that passed the Basic auth").isGreaterThanOrEqualTo(2);
            assertThat(browser.evaluate("1 + 1")).isEqualTo("2");
            assertThat(browser.evaluate("({a: [1, 'x']})")).isEqualTo("{\"a\":[1,\"x\"]}");
            assertThat(browser.evaluate("undefined")).isNull();
            assertThatThrownBy(() -> browser.evaluate("no.such.thing")).hasMessageContaining("ReferenceError");

            browser.screenshot(screenshot);
            assertThat(Files.readAllBytes(screenshot)).as("PNG signature of " + screenshot)
                    .startsWith(0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n');
        }
        assertThat(ProcessHandle.allProcesses().filter(p -> p.info().commandLine()
                .filter(line -> line.contains("--user-data-dir=" + profile)).isPresent()).toList())
                .as("Chromium processes of the profile " + profile + " after close()").isEmpty();
        assertThat(profile).as("the temporary profile after close()").doesNotExist();
    }

    @Test
    void withoutTheLoginTheLoadFailsAndAConditionThatStaysFalseFailsWithItsLastValue() throws Exception {
        try (HeadlessChromium browser = HeadlessChromium.start()) {
            assertThatThrownBy(() -> browser.navigate(baseUrl + "/page.html")).as("a 401 with a Basic challenge")
                    .hasMessageContaining("ERR_INVALID_AUTH_CREDENTIALS");

            browser.extraHeaders(Map.of("Authorization", AUTHORIZATION));
            assertThat(browser.navigate(baseUrl + "/page.html")).isEqualTo(200);
            assertThatThrownBy(() -> browser.awaitTrue("document.title === 'other'", Duration.ofMillis(500)))
                    .isInstanceOf(AssertionError.class).hasMessageContaining("document.title === 'other'")
                    .hasMessageContaining("last: false");
        }
    }

    /** The user-data-dir on the browser's command line: where its profile is. */
    private static String profileOf(long pid) {
        final String line = ProcessHandle.of(pid).flatMap(p -> p.info().commandLine()).orElseThrow();
        final int start = line.indexOf("--user-data-dir=") + "--user-data-dir=".length();
        return line.substring(start, line.indexOf(' ', start));
    }
}
