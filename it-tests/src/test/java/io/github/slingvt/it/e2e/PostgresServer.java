package io.github.slingvt.it.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A PostgreSQL server for one test class, started the way a user starts one: {@code ./sling-vt postgres start} with a
 * data folder of its own under the system temp folder (which the user {@code postgres} can reach when the tests run
 * as root) and a free port; stopped by its PID ({@code data/postmaster.pid}) at the end.
 */
final class PostgresServer implements AutoCloseable {

    /** Installing Debian's postgresql on a new machine included; a start alone takes a few seconds. */
    static final long START_TIMEOUT_SECONDS = Long.getLong("slingvt.pg.startTimeoutSeconds", 180);

    private final Path dir;
    private final int port;
    /** Changes when {@link #restart()} starts a new server on the same folder and port. */
    private volatile long pid;

    private PostgresServer(Path dir, int port, long pid) {
        this.dir = dir;
        this.port = port;
        this.pid = pid;
    }

    static PostgresServer start() throws IOException, InterruptedException {
        final Path dir = Files.createTempDirectory("slingvt-pg-");
        final int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = socket.getLocalPort();
        }
        return new PostgresServer(dir, port, script(dir, port, "start"));
    }

    /**
     * A database restart as an operator does one: {@code ./sling-vt postgres stop} (fast shutdown: clients are
     * disconnected, nothing committed is lost), then {@code start} on the same folder and port.
     */
    void restart() throws IOException, InterruptedException {
        stop();
        startAgain();
    }

    /** {@code ./sling-vt postgres stop}: the database is away (connections refused) until {@link #startAgain()}. */
    void stop() throws IOException, InterruptedException {
        script(dir, port, "stop");
        pid = 0;
    }

    /** {@code ./sling-vt postgres start} on the same folder and port. */
    void startAgain() throws IOException, InterruptedException {
        pid = script(dir, port, "start");
    }

    /** Runs {@code ./sling-vt postgres ACTION} on the folder; answers the server's PID afterwards (0 when stopped). */
    private static long script(Path dir, int port, String action) throws IOException, InterruptedException {
        final Path root = Path.of(System.getProperty("slingvt.root", "..")).toAbsolutePath().normalize();
        // Output to a file, not a pipe: the test reads it after the script ended or was killed, so a script that
        // hangs (or a server that kept the pipe open) cannot hang the suite past the timeout.
        final Path log = Files.createTempFile("slingvt-pg-" + action + "-", ".log");
        try {
            final List<String> command = new ArrayList<>(List.of(root.resolve("sling-vt").toString(), "postgres",
                    action, "--dir", dir.toString()));
            if (action.equals("start")) {
                command.addAll(List.of("--port", Integer.toString(port)));
            }
            final Process script = new ProcessBuilder(command)
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            final boolean ended = script.waitFor(START_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (!ended) {
                script.descendants().forEach(ProcessHandle::destroyForcibly);
                script.destroyForcibly();
            }
            if (!ended || script.exitValue() != 0) {
                throw new IllegalStateException("./sling-vt postgres " + action + (ended ? " failed (exit "
                        + script.exitValue() + ")" : " did not end within " + START_TIMEOUT_SECONDS + " s and was killed")
                        + ": " + Files.readString(log, StandardCharsets.UTF_8));
            }
        } finally {
            Files.deleteIfExists(log);
        }
        if (!action.equals("start")) {
            return 0;
        }
        return Long.parseLong(Files.readAllLines(dir.resolve("data/postmaster.pid")).get(0).trim());
    }

    String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/oak";
    }

    /** The role oak's password, which the server keeps in its folder (mode 0600). */
    Path passwordFile() {
        return dir.resolve("oak-password");
    }

    Path dir() {
        return dir;
    }

    int port() {
        return port;
    }

    long pid() {
        return pid;
    }

    /** What psql answered: its exit code and its output (standard error included). */
    record PsqlResult(int exitCode, String output) {
    }

    /**
     * Runs one SQL statement as the role oak over TCP, as Oak's pool connects: with {@code password} in psql's
     * environment ({@code PGPASSWORD}), or none ({@code null}); psql never prompts ({@code -w}).
     */
    PsqlResult psqlAsOak(String sql, String password) throws IOException, InterruptedException {
        final ProcessBuilder builder = new ProcessBuilder(psql().toString(), "-w", "-X", "-h", "127.0.0.1", "-p",
                Integer.toString(port), "-U", "oak", "-d", "oak", "-tAc", sql).redirectErrorStream(true);
        builder.environment().remove("PGPASSWORD");
        if (password != null) {
            builder.environment().put("PGPASSWORD", password);
        }
        final Process process = builder.start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("psql did not end within 60 s: " + sql);
        }
        return new PsqlResult(process.exitValue(), output);
    }

    /** Debian's psql of the newest installed server, or the one on the PATH. */
    private static Path psql() {
        try (var versions = Files.list(Path.of("/usr/lib/postgresql"))) {
            final java.util.Optional<Path> newest = versions.map(v -> v.resolve("bin/psql")).filter(Files::isExecutable)
                    .max(java.util.Comparator.comparing(Path::toString));
            if (newest.isPresent()) {
                return newest.get();
            }
        } catch (IOException e) {
            // no Debian layout: the PATH's
        }
        return Path.of("psql");
    }

    @Override
    public String toString() {
        return "PostgreSQL (PID " + pid + ", 127.0.0.1:" + port + ", " + dir + ")";
    }

    /** Stops the server by its PID: SIGTERM (PostgreSQL's smart shutdown), then SIGKILL after 30 s. */
    @Override
    public void close() {
        ProcessHandle.of(pid).filter(server -> pid > 0).ifPresent(server -> {
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
