package io.github.slingvt.it.e2e;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A network between an instance and PostgreSQL: toxiproxy ({@code ./sling-vt toxiproxy} builds it once from its Go
 * module; {@code ./sling-vt test} does so before the tests run) on free 127.0.0.1 ports, one proxy in front of the
 * database that can delay each direction or be cut. Stopped by its PID.
 */
final class ToxiproxyServer implements AutoCloseable {

    private static final Path ROOT = Path.of(System.getProperty("slingvt.root", "..")).toAbsolutePath().normalize();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final Process process;
    private final String api;
    private final int port;

    private ToxiproxyServer(Process process, String api, int port) {
        this.process = process;
        this.api = api;
        this.port = port;
    }

    /** A toxiproxy with a proxy to 127.0.0.1:{@code upstreamPort}, no delay. */
    static ToxiproxyServer start(int upstreamPort) throws Exception {
        Path out = Files.createTempFile("slingvt-toxiproxy-", ".out");
        Process find = new ProcessBuilder(ROOT.resolve("sling-vt").toString(), "toxiproxy").directory(ROOT.toFile())
                .redirectErrorStream(false).redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (!find.waitFor(600, TimeUnit.SECONDS) || find.exitValue() != 0) {
            find.destroyForcibly();
            throw new IllegalStateException("./sling-vt toxiproxy failed: " + Files.readString(out));
        }
        String binary = Files.readString(out).strip();
        Files.delete(out);
        int apiPort = freePort();
        Process server = new ProcessBuilder(binary, "-host", "127.0.0.1", "-port", Integer.toString(apiPort))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        ToxiproxyServer proxy = new ToxiproxyServer(server, "http://127.0.0.1:" + apiPort, freePort());
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (true) {
                try {
                    proxy.call("GET", "/version", null);
                    break;
                } catch (IOException notYet) {
                    if (System.nanoTime() > deadline || !server.isAlive()) {
                        throw new IllegalStateException("toxiproxy did not answer within 30 s", notYet);
                    }
                    Thread.sleep(100);
                }
            }
            proxy.call("POST", "/proxies", "{\"name\":\"postgres\",\"listen\":\"127.0.0.1:" + proxy.port
                    + "\",\"upstream\":\"127.0.0.1:" + upstreamPort + "\",\"enabled\":true}");
        } catch (Exception e) {
            proxy.close();
            throw e;
        }
        return proxy;
    }

    /** The proxy's port: what a JDBC URL points at instead of the database's. */
    int port() {
        return port;
    }

    long pid() {
        return process.pid();
    }

    /** Every chunk in each direction waits {@code millis}: a round trip takes 2 x millis more. */
    void latency(int millis) throws Exception {
        for (String stream : new String[] {"upstream", "downstream"}) {
            call("POST", "/proxies/postgres/toxics", "{\"name\":\"latency_" + stream + "\",\"type\":\"latency\","
                    + "\"stream\":\"" + stream + "\",\"toxicity\":1.0,\"attributes\":{\"latency\":" + millis + "}}");
        }
    }

    void noLatency() throws Exception {
        for (String stream : new String[] {"upstream", "downstream"}) {
            call("DELETE", "/proxies/postgres/toxics/latency_" + stream, null);
        }
    }

    /** Cut ({@code false}: open connections closed, new ones refused) or restore the network. */
    void enabled(boolean enabled) throws Exception {
        call("POST", "/proxies/postgres", "{\"enabled\":" + enabled + "}");
    }

    private void call(String method, String path, String json) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(api + path)).timeout(Duration.ofSeconds(10));
        request.method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8));
        HttpResponse<String> response = HTTP.send(request.header("Content-Type", "application/json").build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 != 2) {
            throw new IllegalStateException(method + " " + path + ": " + response.statusCode() + " " + response.body());
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(15, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(15, TimeUnit.SECONDS);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }
}
