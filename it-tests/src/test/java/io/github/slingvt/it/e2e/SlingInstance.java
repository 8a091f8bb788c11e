package io.github.slingvt.it.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;


import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Sling instance launched from the assembled feature ({@code feature-model/target}) by
 * {@link SlingInstanceBuilder} as {@code ./sling-vt run} does: its own JVM (the JDK of the test JVM), a free port on
 * 127.0.0.1 and a fresh home folder {@code target/e2e/<name>-<random>}. It is ready once {@code GET /.json} answers
 * 200 (within 180 s) and the bundle start has settled; {@link #stop()} ends the JVM by its PID, {@link #close()}
 * starts that stop and leaves it to run while the next instance starts.
 * A JVM shutdown hook stops it as well, so no Sling process outlives the test JVM.
 * <p>
 * Most tests share one instance through {@link SharedSlingInstance}; a test that needs extra framework properties
 * or extra files in the installer folder starts its own: {@code try (SlingInstance sling =
 * SlingInstance.builder("x").frameworkProperty("k", "v").installFile(file).start()) { ... }}.
 */
public final class SlingInstance implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SlingInstance.class);
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(180);
    private static final Duration BUNDLES_SETTLE_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
    /**
     * A startup probe's own timeout: Felix restarts Jetty right after its first start, and a probe that lands in that
     * moment gets no answer at all; the next probe, not the request timeout, should find the restarted server.
     */
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(3);
    private static final int LOG_TAIL_LINES = 40;
    private static final int MAX_ERRORS_SHOWN = 5;
    /** The feature's admin login, admin/admin. */
    static final String ADMIN_AUTHORIZATION = "Basic "
            + Base64.getEncoder().encodeToString("admin:admin".getBytes(StandardCharsets.UTF_8));

    private final String name;
    private final Path home;
    private final int port;
    private final Process process;
    private final Thread shutdownHook;
    private final HttpClient http = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .followRedirects(HttpClient.Redirect.NEVER)
            .version(HttpClient.Version.HTTP_1_1)
            .build();
    private volatile List<String> startupLog = List.of();

    SlingInstance(String name, Path home, int port, Process process) {
        this.name = name;
        this.home = home;
        this.port = port;
        this.process = process;
        this.shutdownHook = new Thread(this::stopQuietly, "stop-sling-" + name);
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** Options for a new instance of the assembled feature; {@link SlingInstanceBuilder#start()} launches it. */
    public static SlingInstanceBuilder builder(String name) {
        return new SlingInstanceBuilder(name);
    }

    /** The file installer folder: the launcher sets the feature's sling.home to its -p folder (see FoundationE2EIT). */
    static Path installDir(Path home) {
        return home.resolve("launcher").resolve("install");
    }

    /** Felix health checks tagged systemready (healthcheck.json); 503 until they pass. */
    static final String READINESS_PATH = "/system/health/systemready.json";
    /**
     * How long the systemready checks must stay green before the first Sling request: the service user mapper
     * restarts every ServiceUserMapped service (and so the servlet resolver) asynchronously right after the JCR
     * system user validator, which systemready waits for, binds; a request inside that restart fails with an NPE.
     */
    static final Duration READINESS_HOLD = Duration.ofSeconds(1);

    /**
     * Waits until the systemready health checks pass and still pass {@link #READINESS_HOLD} later (all bundles
     * active, Sling's resolver and GET/POST servlets registered: an earlier Sling request logs "Cannot find servlet"
     * errors) and {@code GET /.json} answers 200, then (up to 60 s) until the console reports every bundle active or
     * a fragment, and keeps the error.log lines of that moment. Stops the instance and fails with the log tails if it
     * exits or is not ready within 180 s.
     */
    SlingInstance awaitReady() {
        final long start = System.nanoTime();
        final long deadline = start + STARTUP_TIMEOUT.toNanos();
        String last = "no answer yet";
        Long greenSince = null;
        while (true) {
            if (!process.isAlive()) {
                throw failStartup("exited during startup with code " + process.exitValue());
            }
            if (System.nanoTime() > deadline) {
                throw failStartup("did not answer GET /.json with 200 within " + STARTUP_TIMEOUT.toSeconds()
                        + " s (last: " + last + ")");
            }
            try {
                final int ready = probe(READINESS_PATH);
                final long now = System.nanoTime();
                greenSince = ready != 200 ? null : greenSince == null ? Long.valueOf(now) : greenSince;
                // Green on its own is not enough: see READINESS_HOLD.
                final boolean held = greenSince != null && now - greenSince >= READINESS_HOLD.toNanos();
                final int status = held ? probe("/.json") : -1;
                if (status == 200) {
                    break;
                }
                last = held ? "/.json HTTP " + status : READINESS_PATH + " HTTP " + ready;
            } catch (UncheckedIOException e) {
                last = String.valueOf(e.getCause());
            }
            sleep(250);
        }
        final long answered = System.nanoTime();
        final long settleDeadline = answered + BUNDLES_SETTLE_TIMEOUT.toNanos();
        String bundles;
        while (!(bundles = ConsoleBundles.settled(this)).startsWith("settled") && System.nanoTime() < settleDeadline) {
            sleep(500);
        }
        startupLog = errorLogLines();
        LOG.info("Sling '{}' (PID {}) answers on {} after {} ms; bundles {} after {} ms", name, pid(), baseUrl(),
                TimeUnit.NANOSECONDS.toMillis(answered - start), bundles,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        return this;
    }

    private IllegalStateException failStartup(String problem) {
        final List<String> errors = ErrorLogAllowlist.parse(List.of()).unexpectedErrors(errorLogLines());
        final String message = "Sling '" + name + "' (PID " + pid() + ", " + baseUrl() + ") " + problem
                + "\n--- first *ERROR* entries of " + home.resolve("logs/error.log") + " (" + errors.size() + ") ---\n"
                + String.join("\n", errors.subList(0, Math.min(errors.size(), MAX_ERRORS_SHOWN)))
                + "\n--- tail of " + home.resolve("logs/error.log") + " ---\n" + tail("error.log")
                + "\n--- tail of " + home.resolve("logs/stdout.log") + " ---\n" + tail("stdout.log");
        stopQuietly();
        return new IllegalStateException(message);
    }

    private String tail(String logFile) {
        final List<String> lines = readLines(home.resolve("logs").resolve(logFile));
        return String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
    }

    public String name() {
        return name;
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    public long pid() {
        return process.pid();
    }

    public Path home() {
        return home;
    }

    public Path installDir() {
        return installDir(home);
    }

    /** Anonymous GET of a path ({@code /content.json}); redirects are not followed. */
    public HttpResponse<String> get(String path) {
        return get(path, false);
    }

    /** GET with the admin login (admin/admin, preemptive basic authentication) if {@code admin}, else anonymous. */
    public HttpResponse<String> get(String path, boolean admin) {
        return send(request(path, admin).GET().build());
    }

    /** POSTs the parameters as {@code application/x-www-form-urlencoded} (for example to the Sling POST servlet). */
    public HttpResponse<String> postForm(String path, Map<String, String> parameters, boolean admin) {
        return postForm(path, parameters, admin, Map.of());
    }

    /** The same with extra headers, for example the {@code Origin} a browser page sends. */
    public HttpResponse<String> postForm(String path, Map<String, String> parameters, boolean admin,
            Map<String, String> headers) {
        final String form = parameters.entrySet().stream()
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        final HttpRequest.Builder request = request(path, admin);
        headers.forEach(request::header);
        return send(request.header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build());
    }

    /** All lines of {@code logs/error.log} now. */
    public List<String> errorLogLines() {
        return readLines(home.resolve("logs/error.log"));
    }

    /** The lines of {@code logs/error.log} at the end of the startup ({@link SlingInstanceBuilder#start()}). */
    public List<String> startupLogLines() {
        return startupLog;
    }

    /** An anonymous GET's status code, answered within {@link #PROBE_TIMEOUT}. */
    private int probe(String path) {
        return send(request(path, false).timeout(PROBE_TIMEOUT).GET().build()).statusCode();
    }

    private HttpRequest.Builder request(String path, boolean admin) {
        final HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl() + path))
                .timeout(REQUEST_TIMEOUT);
        return admin ? request.header("Authorization", ADMIN_AUTHORIZATION) : request;
    }

    private HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(request.method() + " " + request.uri() + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted: " + request.method() + " " + request.uri(), e);
        }
    }

    private static List<String> readLines(Path file) {
        try {
            return Files.exists(file) ? new String(Files.readAllBytes(file), StandardCharsets.UTF_8).lines().toList()
                    : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Ends the instance: SIGTERM to its PID, up to 30 s for a clean shutdown, then SIGKILL; fails if the process is
     * still alive afterwards. Does nothing if it has already stopped.
     */
    public synchronized void stop() {
        if (process.isAlive()) {
            final long start = System.nanoTime();
            LOG.info("Stopping Sling '{}' (PID {})", name, pid());
            process.destroy();
            if (!waitFor(STOP_TIMEOUT)) {
                LOG.warn("Sling '{}' (PID {}) did not stop within {} s; killing it", name, pid(),
                        STOP_TIMEOUT.toSeconds());
                process.destroyForcibly();
                waitFor(Duration.ofSeconds(10));
            }
            if (process.isAlive() || ProcessHandle.of(pid()).map(ProcessHandle::isAlive).orElse(false)) {
                throw new IllegalStateException("Sling '" + name + "' (PID " + pid() + ") is still running");
            }
            LOG.info("Sling '{}' (PID {}) stopped after {} ms, exit code {}", name, pid(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start), process.exitValue());
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // The JVM is shutting down: this runs in the hook itself.
        }
    }

    /**
     * Ends the instance without waiting for it ({@link BackgroundStops}): for try-with-resources at the end of a test.
     * {@link #stop()} waits.
     */
    @Override
    public void close() {
        BackgroundStops.stop(this);
    }

    private void stopQuietly() {
        try {
            stop();
        } catch (RuntimeException e) {
            LOG.error("Could not stop Sling '{}' (PID {})", name, pid(), e);
        }
    }

    private boolean waitFor(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }

    /** Sleeps; an interrupt is restored and ends the test. */
    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting", e);
        }
    }
}
