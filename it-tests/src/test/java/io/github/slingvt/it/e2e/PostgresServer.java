package io.github.slingvt.it.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A PostgreSQL server for one test class, started the way a user starts one: {@code ./sling-vt postgres start} with a
 * data folder of its own under the system temp folder (which the user {@code postgres} can reach when the tests run
 * as root) and a free port; stopped by its PID ({@code data/postmaster.pid}) at the end.
 */
final class PostgresServer implements AutoCloseable {

    private final Path dir;
    private final int port;
    private final long pid;

    private PostgresServer(Path dir, int port, long pid) {
        this.dir = dir;
        this.port = port;
        this.pid = pid;
    }

    static PostgresServer start() throws IOException, InterruptedException {
        final Path root = Path.of(System.getProperty("slingvt.root", "..")).toAbsolutePath().normalize();
        final Path dir = Files.createTempDirectory("slingvt-pg-");
        final int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = socket.getLocalPort();
        }
        final Process script = new ProcessBuilder(root.resolve("sling-vt").toString(), "postgres", "start",
                "--dir", dir.toString(), "--port", Integer.toString(port))
                .redirectErrorStream(true).start();
        final String output = new String(script.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!script.waitFor(180, TimeUnit.SECONDS) || script.exitValue() != 0) {
            script.destroyForcibly();
            throw new IllegalStateException("./sling-vt postgres start failed: " + output);
        }
        final long pid = Long.parseLong(Files.readAllLines(dir.resolve("data/postmaster.pid")).get(0).trim());
        return new PostgresServer(dir, port, pid);
    }

    String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/oak";
    }

    long pid() {
        return pid;
    }

    @Override
    public String toString() {
        return "PostgreSQL (PID " + pid + ", 127.0.0.1:" + port + ", " + dir + ")";
    }

    /** Stops the server by its PID: SIGTERM (PostgreSQL's smart shutdown), then SIGKILL after 30 s. */
    @Override
    public void close() {
        ProcessHandle.of(pid).ifPresent(server -> {
            server.destroy();
            try {
                server.onExit().get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                server.destroyForcibly();
            }
        });
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }
}
