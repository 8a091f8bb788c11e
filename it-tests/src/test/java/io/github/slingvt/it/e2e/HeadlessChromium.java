package io.github.slingvt.it.e2e;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A real headless Chromium for end-to-end ITs of pages whose JavaScript fills the DOM after the load (console pages
 * that fetch their figures): loads a page with extra request headers (the admin's Basic login), waits until a
 * JavaScript condition holds, reads values with JavaScript and takes PNG screenshots. It drives the browser over the
 * Chrome DevTools protocol on a WebSocket of the JDK's HttpClient: no WebDriver, no browser download.
 * <p>
 * The binary: system property {@value #BINARY_PROPERTY} ({@code ./sling-vt test} passes it), else the environment
 * variable {@code SLING_VT_CHROMIUM}, else {@code chromium} or {@code chromium-browser} on the PATH; without one the
 * test fails, it is never skipped. Each browser has its own temporary profile. {@link #close()} ends the browser and
 * every process it started, by PID, and deletes the profile; a JVM shutdown hook does the same if the JVM ends first.
 * HeadlessChromiumE2EIT shows the use: extraHeaders, navigate, awaitTrue, evaluate, screenshot in try-with-resources.
 */
public final class HeadlessChromium implements AutoCloseable {

    static final String BINARY_PROPERTY = "slingvt.chromium";
    private static final String MISSING = "run ./sling-vt chromium or set SLING_VT_CHROMIUM";
    private static final List<String> FLAGS = List.of("--headless=new", "--no-sandbox", "--disable-gpu",
            "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check",
            "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", "--window-size=1280,1000");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration LOAD_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(5);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final Path profile;
    private final Thread shutdownHook = new Thread(this::close, "stop-headless-chromium");
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private volatile DevToolsConnection devTools;
    private volatile boolean closed;

    private HeadlessChromium(Process process, Path profile) {
        this.process = process;
        this.profile = profile;
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** Starts a browser on about:blank and connects to its page; if that fails, nothing of it is left behind. */
    public static HeadlessChromium start() throws IOException {
        final Path binary = binary();
        final Path profile = Files.createTempDirectory("slingvt-chromium-");
        final Path log = profile.resolve("chromium.log");
        final List<String> command = Stream.of(List.of(binary.toString(), "--user-data-dir=" + profile), FLAGS,
                List.of("about:blank")).flatMap(List::stream).toList();
        final HeadlessChromium browser;
        try {
            // Output to a file, not a pipe: nobody reads a pipe during a test, and a full one would block the browser.
            browser = new HeadlessChromium(new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start(), profile);
        } catch (IOException e) {
            deleteTree(profile);
            throw new IllegalStateException("cannot start " + binary + ": " + e.getMessage() + "; " + MISSING, e);
        }
        try {
            browser.connect();
            return browser;
        } catch (RuntimeException | Error e) {
            e.addSuppressed(new IllegalStateException("output of " + binary + ":\n" + tail(log)));
            browser.close();
            throw e;
        }
    }

    /** The configured binary, else chromium or chromium-browser on the PATH; fails (and the test with it) if none. */
    static Path binary() {
        String configured = System.getProperty(BINARY_PROPERTY, "");
        String from = "system property " + BINARY_PROPERTY;
        if (configured.isBlank()) {
            configured = System.getenv().getOrDefault("SLING_VT_CHROMIUM", "");
            from = "SLING_VT_CHROMIUM";
        }
        if (!configured.isBlank()) {
            if (!executable(Path.of(configured))) {
                throw new IllegalStateException(from + "=" + configured + " is not an executable file; " + MISSING);
            }
            return Path.of(configured);
        }
        final String[] path = System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator);
        return Stream.of("chromium", "chromium-browser")
                .flatMap(name -> Stream.of(path).map(dir -> Path.of(dir.isEmpty() ? "." : dir, name)))
                .filter(HeadlessChromium::executable).findFirst().orElseThrow(() -> new IllegalStateException(
                        "no Chromium: neither system property " + BINARY_PROPERTY + " nor SLING_VT_CHROMIUM is set,"
                        + " and no chromium or chromium-browser is on the PATH; " + MISSING));
    }

    private static boolean executable(Path file) {
        return Files.isRegularFile(file) && Files.isExecutable(file);
    }

    /** The browser's PID; its renderers and helpers are its descendants. */
    public long pid() {
        return process.pid();
    }

    /** Sends these headers with every request of the page from now on: the page load and its own fetch() calls. */
    public void extraHeaders(Map<String, String> headers) {
        send("Network.enable", Map.of());
        send("Network.setExtraHTTPHeaders", Map.of("headers", headers));
    }

    /**
     * Loads {@code url} and waits (up to 60 s) for its load event; fails with the browser's error when it loads no
     * document: connection refused, or a 401 with a Basic challenge (net::ERR_INVALID_AUTH_CREDENTIALS: headless, it
     * asks nobody for a login). Returns the document's HTTP status (0 if the browser does not tell), e.g. 404 or 500.
     */
    public int navigate(String url) {
        send("Page.enable", Map.of()); // page events, the load event among them; a no-op when they are on already
        devTools.awaitEvent("Page.loadEventFired", () -> {
            final JsonNode result = send("Page.navigate", Map.of("url", url));
            if (result.hasNonNull("errorText")) {
                throw new IllegalStateException("loading " + url + " failed: " + result.get("errorText").asText());
            }
        }, LOAD_TIMEOUT);
        final String status = evaluate("performance.getEntriesByType('navigation')[0]?.responseStatus ?? 0");
        return status == null ? 0 : Integer.parseInt(status);
    }

    /**
     * Evaluates a JavaScript expression in the page (awaiting it if it is a promise) and returns its value: a string
     * as it is, other values as JSON text, null for null and undefined. Throws with the exception if it throws.
     */
    public String evaluate(String expression) {
        final JsonNode result = send("Runtime.evaluate",
                Map.of("expression", expression, "returnByValue", true, "awaitPromise", true));
        final JsonNode thrown = result.get("exceptionDetails");
        if (thrown != null) {
            throw new IllegalStateException("JavaScript `" + expression + "` threw: "
                    + thrown.path("exception").path("description").asText(thrown.path("text").asText()));
        }
        final JsonNode value = result.path("result");
        if (value.has("unserializableValue")) { // NaN, Infinity, -0 and bigints have no JSON
            return value.get("unserializableValue").asText();
        }
        final JsonNode v = value.get("value");
        return v == null || v.isNull() ? null : v.isTextual() ? v.asText() : v.toString();
    }

    /**
     * Evaluates {@code condition} every 200 ms until it is {@code true}; fails after {@code timeout} with the
     * condition and its last value. A condition that throws (an element not there yet) is not true.
     */
    public void awaitTrue(String condition, Duration timeout) {
        final long deadline = System.nanoTime() + timeout.toNanos();
        String last;
        while (true) {
            try {
                last = evaluate(condition);
                if ("true".equals(last)) {
                    return;
                }
            } catch (IllegalStateException e) {
                last = e.getMessage();
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("`" + condition + "` is not true after " + timeout.toMillis() + " ms (last: "
                        + last + "; page " + evaluate("location.href") + ")");
            }
            SlingInstance.sleep(200);
        }
    }

    /** A PNG of the page's viewport as it is now. */
    public byte[] screenshot() {
        final JsonNode result = send("Page.captureScreenshot", Map.of("format", "png"));
        return Base64.getDecoder().decode(result.path("data").asText());
    }

    /** Saves {@link #screenshot()} to {@code file}, creating its folder. */
    public void screenshot(Path file) throws IOException {
        final byte[] png = screenshot();
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.write(file, png);
    }

    /** Ends the browser (asking it first, then by PID with all its descendants) and deletes its profile. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        // Taken while the browser runs: once it has exited, its orphaned children are no longer its descendants.
        final List<ProcessHandle> processes = new ArrayList<>(process.descendants().toList());
        if (devTools != null) {
            try {
                devTools.send("Browser.close", Map.of(), EXIT_TIMEOUT);
            } catch (IllegalStateException ignored) {
                // Gone already, or not answering: it is ended by PID below in either case.
            }
            devTools.close();
            exits(process.toHandle()); // its own exit, asked for above, ends its helpers in order
        }
        processes.addAll(process.descendants().toList());
        processes.add(process.toHandle());
        processes.forEach(ProcessHandle::destroy);
        processes.stream().filter(p -> !exits(p)).forEach(ProcessHandle::destroyForcibly);
        http.shutdownNow();
        deleteTree(profile);
        if (Thread.currentThread() != shutdownHook) {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        }
    }

    /** Reads the DevTools port the browser chose, finds its page in /json/list and opens a WebSocket to it. */
    private void connect() {
        final long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        final Path portFile = profile.resolve("DevToolsActivePort");
        String last = "no " + portFile;
        while (process.isAlive() && System.nanoTime() < deadline) {
            try {
                // The file may be read half written, and the page may be listed a moment after the port is open.
                final List<String> lines = Files.exists(portFile) ? Files.readAllLines(portFile) : List.of();
                if (lines.size() >= 2) {
                    final String list = "http://127.0.0.1:" + Integer.parseInt(lines.get(0).trim()) + "/json/list";
                    final HttpResponse<String> targets = http.send(HttpRequest.newBuilder(URI.create(list))
                            .timeout(COMMAND_TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
                    for (JsonNode target : JSON.readTree(targets.body())) {
                        if ("page".equals(target.path("type").asText()) && target.hasNonNull("webSocketDebuggerUrl")) {
                            devTools = DevToolsConnection.open(http,
                                    URI.create(target.get("webSocketDebuggerUrl").asText()), COMMAND_TIMEOUT);
                            return;
                        }
                    }
                    last = "no page in " + list + ": " + targets.body();
                }
            } catch (IOException | RuntimeException e) {
                last = String.valueOf(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while Chromium started", e);
            }
            SlingInstance.sleep(50);
        }
        throw new IllegalStateException(process.isAlive() ? "Chromium offered no page within "
                + START_TIMEOUT.toSeconds() + " s (last: " + last + ")"
                : "Chromium exited with code " + process.exitValue() + " while starting");
    }

    private JsonNode send(String method, Map<String, ?> params) {
        if (closed || devTools == null) {
            throw new IllegalStateException("the browser is closed");
        }
        return devTools.send(method, params, COMMAND_TIMEOUT);
    }

    /** Whether the process has exited or exits within {@link #EXIT_TIMEOUT} (onExit() is a new future per call). */
    private static boolean exits(ProcessHandle process) {
        return process.onExit().completeOnTimeout(null, EXIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).join() != null;
    }

    private static String tail(Path log) {
        try {
            final List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no output: " + e + ")";
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException | RuntimeException ignored) {
            // A profile left in the temp folder is harmless.
        }
    }
}
