package io.github.slingvt.it.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Helpers of the overload and slow-client E2E tests: one-shot raw HTTP/1.0 requests (a new connection each, closed by
 * the server after the answer, so no pooled connection can be reused after the server closed it), the server's
 * request counters, its live OS threads and RSS from {@code /proc}, and the out-of-memory check.
 */
final class OverloadSupport {

    static final String HTTP_PID = "io.github.slingvt.http.VirtualThreads";
    static final String FELIX_HTTP_PID = "org.apache.felix.http";
    static final String STATUS_JSON = "/system/console/status-slingvt-http.json";
    static final String STATUS_TXT = "/system/console/status-slingvt-http.txt";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ADMIN = "Basic "
            + Base64.getEncoder().encodeToString("admin:admin".getBytes(StandardCharsets.UTF_8));
    private static final int MAX_BODY = 1 << 20;
    /**
     * New connections opened at once, then {@link #CONNECT_PAUSE_MS}: Jetty's listen backlog is the JDK's 50 unless
     * {@code org.apache.felix.http.jetty.acceptQueueSize} says otherwise, and Linux drops the last step of a handshake
     * that finds it full. The client believes it is connected and sends its request, which the server accepts only when
     * a retry finds room: seconds later, in one CI run more than a minute (a read timeout). A test of threads or
     * admission measures those, not how fast the kernel accepts a burst.
     */
    private static final int CONNECT_BATCH = 50;
    private static final long CONNECT_PAUSE_MS = 50;

    private OverloadSupport() {
    }

    /** One answer: status, headers (names in lower case), body (at most 1 MiB kept) and total body length. */
    record Answer(int status, Map<String, String> headers, String body, long bodyLength) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    static int port(SlingInstance sling) {
        return URI.create(sling.baseUrl()).getPort();
    }

    /**
     * {@code GET path HTTP/1.0} on a new connection to 127.0.0.1; reads until the server closes. Throws
     * {@link IOException} for a refused, reset or timed-out connection or an answer without a status line.
     */
    static Answer get(int port, String path, boolean admin, Duration timeout) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), (int) Math.min(timeout.toMillis(), 30_000));
            socket.setSoTimeout((int) timeout.toMillis());
            final String request = "GET " + path + " HTTP/1.0\r\nHost: 127.0.0.1:" + port + "\r\n"
                    + (admin ? "Authorization: " + ADMIN + "\r\n" : "") + "\r\n";
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            final InputStream in = socket.getInputStream();
            final ByteArrayOutputStream head = new ByteArrayOutputStream();
            int c;
            int matched = 0;
            while (matched < 4 && (c = in.read()) >= 0) {
                head.write(c);
                matched = (c == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (c == '\r' ? 1 : 0);
            }
            final List<String> lines = head.toString(StandardCharsets.ISO_8859_1).lines().toList();
            if (matched < 4 || lines.isEmpty() || !lines.get(0).matches("HTTP/1\\.[01] \\d{3}.*")) {
                throw new IOException("no complete HTTP answer to GET " + path + ": '" + head + "'");
            }
            final Map<String, String> headers = new LinkedHashMap<>();
            for (String line : lines.subList(1, lines.size())) {
                final int colon = line.indexOf(':');
                if (colon > 0) {
                    headers.put(line.substring(0, colon).strip().toLowerCase(Locale.ROOT),
                            line.substring(colon + 1).strip());
                }
            }
            final ByteArrayOutputStream body = new ByteArrayOutputStream();
            final byte[] buffer = new byte[16384];
            long length = 0;
            int n;
            while ((n = in.read(buffer)) >= 0) {
                length += n;
                if (body.size() < MAX_BODY) {
                    body.write(buffer, 0, Math.min(n, MAX_BODY - body.size()));
                }
            }
            return new Answer(Integer.parseInt(lines.get(0).substring(9, 12)), headers,
                    body.toString(StandardCharsets.UTF_8), length);
        }
    }

    /** A GET that must not fail at the socket level. */
    static Answer getOrFail(SlingInstance sling, String path, boolean admin) {
        try {
            return get(port(sling), path, admin, Duration.ofSeconds(60));
        } catch (IOException e) {
            throw new UncheckedIOException("GET " + path + " on " + sling.baseUrl(), e);
        }
    }

    /** Sling VT's request counters ({@code inFlight}, {@code admitted}, ...); this request is itself counted. */
    static JsonNode counters(SlingInstance sling) {
        final Answer answer = getOrFail(sling, STATUS_JSON, true);
        assertThat(answer.status()).as("GET %s: %s", STATUS_JSON, answer.body()).isEqualTo(200);
        try {
            return JSON.readTree(answer.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits (up to {@code timeout}) until the text status printer contains {@code expected}, e.g. the cap. */
    static void awaitStatusText(SlingInstance sling, String expected, Duration timeout) throws InterruptedException {
        final long deadline = System.nanoTime() + timeout.toNanos();
        String text = "";
        while (System.nanoTime() < deadline) {
            text = getOrFail(sling, STATUS_TXT, true).body();
            if (text.contains(expected)) {
                return;
            }
            Thread.sleep(500);
        }
        assertThat(text).as("%s after %d s", STATUS_TXT, timeout.toSeconds()).contains(expected);
    }

    /** Called before opening connection number {@code opened} (from 0) of a burst: paces it (see CONNECT_BATCH). */
    static void paceConnects(int opened) throws InterruptedException {
        if (opened > 0 && opened % CONNECT_BATCH == 0) {
            Thread.sleep(CONNECT_PAUSE_MS);
        }
    }

    /**
     * Handshakes this host's kernel dropped because a listen backlog was full ({@code ListenOverflows} of
     * {@code /proc/net/netstat}, all processes), -1 where not readable: printed by burst tests so that a slow answer
     * can be told from a dropped connection.
     */
    static long listenOverflows() {
        try {
            final List<String> tcpExt = Files.readAllLines(Path.of("/proc/net/netstat")).stream()
                    .filter(line -> line.startsWith("TcpExt:")).toList();
            if (tcpExt.size() < 2) {
                return -1;
            }
            final List<String> names = List.of(tcpExt.get(0).split("\\s+"));
            final String[] values = tcpExt.get(1).split("\\s+");
            final int at = names.indexOf("ListenOverflows");
            return at < 0 || at >= values.length ? -1 : Long.parseLong(values[at]);
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    /** Live OS threads of a process: the entries of {@code /proc/<pid>/task} (virtual threads are not among them). */
    static int osThreads(long pid) {
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            return (int) tasks.count();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list the threads of PID " + pid + " (Linux /proc needed)", e);
        }
    }

    /**
     * Live OS threads of a process by name ({@code /proc/<pid>/task/<tid>/comm}, digits folded into {@code #}),
     * most frequent first: what a thread count consists of.
     */
    static Map<String, Long> osThreadNames(long pid) {
        final Map<String, Long> names = new java.util.TreeMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            tasks.forEach(task -> {
                try {
                    names.merge(Files.readString(task.resolve("comm")).strip().replaceAll("\\d+", "#"), 1L,
                            Long::sum);
                } catch (IOException e) {
                    // the thread ended meanwhile
                }
            });
        } catch (IOException e) {
            return Map.of();
        }
        final Map<String, Long> sorted = new LinkedHashMap<>();
        names.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> sorted.put(e.getKey(), e.getValue()));
        return sorted;
    }

    /** Resident set size in MiB ({@code VmRSS} of {@code /proc/<pid>/status}), -1 if not readable. */
    static long rssMib(long pid) {
        try {
            return Files.readAllLines(Path.of("/proc", Long.toString(pid), "status")).stream()
                    .filter(line -> line.startsWith("VmRSS:"))
                    .mapToLong(line -> Long.parseLong(line.replaceAll("\\D", "")) / 1024).findFirst().orElse(-1);
        } catch (IOException e) {
            return -1;
        }
    }

    /** Writes {@code PID.cfg.json} with the given properties (strings quoted, numbers and booleans as they are). */
    static Path configFile(Path dir, String pid, Map<String, Object> properties) throws IOException {
        return Files.writeString(dir.resolve(pid + ".cfg.json"), JSON.writeValueAsString(properties));
    }

    /**
     * A demo configuration without anonymous limits (the full parameter ranges), for a lab instance whose load must
     * not pay a login per request, as the benchmark's instances do. By default heavy anonymous work is a 403.
     */
    static Path demoWithoutAnonymousLimits(Path dir) throws IOException {
        return configFile(dir, "io.github.slingvt.demo.DemoServlets", Map.of("anonymousMaxReads", 100_000,
                "anonymousMaxIdleDelay", 60_000, "anonymousMaxFileLength", 104_857_600, "anonymousMaxCpuIterations",
                1_000_000, "anonymousMaxFanout", 100));
    }

    /**
     * The instance survived: its process is alive, neither log mentions an {@code OutOfMemoryError}, and its
     * error.log has no ERROR entry beyond the known harmless ones ({@link ErrorLogAllowlist}).
     */
    static void assertAliveWithoutOutOfMemoryOrErrors(SlingInstance sling) throws IOException {
        assertAliveWithoutOutOfMemoryOrErrors(sling, List.of());
    }

    /** As above, but ERROR entries (with their stack lines) that contain one of {@code tolerated} are let pass. */
    static void assertAliveWithoutOutOfMemoryOrErrors(SlingInstance sling, List<String> tolerated)
            throws IOException {
        assertThat(ProcessHandle.of(sling.pid()).map(ProcessHandle::isAlive).orElse(false))
                .as("Sling process %d alive", sling.pid()).isTrue();
        for (String log : List.of("error.log", "stdout.log")) {
            final Path file = sling.home().resolve("logs").resolve(log);
            final String text = Files.exists(file) ? Files.readString(file, StandardCharsets.ISO_8859_1) : "";
            assertThat(text).as("%s", file).doesNotContain("OutOfMemoryError");
        }
        assertThat(ErrorLogAllowlist.load().unexpectedErrors(sling.errorLogLines()).stream()
                .filter(entry -> tolerated.stream().noneMatch(entry::contains)).toList())
                .as("unexpected ERROR entries in %s/logs/error.log", sling.home()).isEmpty();
    }
}
