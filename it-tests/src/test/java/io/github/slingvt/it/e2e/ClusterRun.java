package io.github.slingvt.it.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A cluster that {@code ./sling-vt cluster} runs: its nodes on a PostgreSQL of the test ({@code --db-url}, the
 * password from {@code SLING_VT_DB_PASSWORD_FILE}) behind HAProxy. {@link #close()} stops it as Ctrl-C would (the
 * script's trap stops the nodes and HAProxy) and checks that none of their processes is left.
 */
final class ClusterRun implements AutoCloseable {

    private static final Path ROOT = Path.of(System.getProperty("slingvt.root", "..")).toAbsolutePath().normalize();

    private final Process script;
    private final Path dir;
    private final int port;
    private final int nodes;
    private final List<Long> pids = new ArrayList<>();

    private ClusterRun(Process script, Path dir, int port, int nodes) {
        this.script = script;
        this.dir = dir;
        this.port = port;
        this.nodes = nodes;
    }

    /**
     * Starts {@code nodes} lean-feature nodes with the JVM options given and waits for the script's announcement. Each
     * node's home gets the small demo tree ({@link SlingInstanceBuilder#smallDemoTree()}) in its install folder first:
     * a folder with {@code launcher} in it is a lean home to the script, as the cluster's nodes are.
     */
    static ClusterRun start(Path dir, PostgresServer postgres, int nodes, String jvmOptions) throws Exception {
        int port = freePorts(nodes + 1);
        for (int n = 1; n <= nodes; n++) {
            SlingInstanceBuilder.writeSmallDemoTree(
                    Files.createDirectories(dir.resolve("cluster").resolve("node-" + n).resolve("launcher/install")));
        }
        Path output = dir.resolve("cluster.out");
        ProcessBuilder builder = new ProcessBuilder(ROOT.resolve("sling-vt").toString(), "cluster", "--nodes",
                Integer.toString(nodes), "--port", Integer.toString(port), "--dir", dir.resolve("cluster").toString(),
                "--feature", "lean", "--db-url", postgres.jdbcUrl(), "--db-user", "oak", "--java",
                SlingInstanceBuilder.javaHome().toString())
                .directory(ROOT.toFile()).redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().putAll(Map.of("SLING_VT_DB_PASSWORD_FILE", postgres.passwordFile().toString(),
                "SLING_VT_JVM_OPTS", jvmOptions));
        builder.environment().remove("SLING_VT_DB_PASSWORD");
        ClusterRun cluster = new ClusterRun(builder.start(), dir.resolve("cluster"), port, nodes);
        try {
            String announced = ScriptRuns.awaitAnnouncement(cluster.script, output);
            assertThat(announced).contains("Sling cluster of " + nodes + " nodes up behind HAProxy:  "
                    + cluster.balancer().baseUrl() + "/");
        } catch (Throwable t) {
            cluster.close();
            throw t;
        }
        return cluster;
    }

    HttpEndpoint balancer() {
        return HttpEndpoint.local(port);
    }

    /** Node 1 ... N, directly. */
    HttpEndpoint node(int n) {
        return HttpEndpoint.local(port + n);
    }

    /** The PID of node n's JVM, as its {@code ./sling-vt run} recorded it. */
    long nodePid(int n) throws IOException {
        long pid = Long.parseLong(Files.readAllLines(dir.resolve("node-" + n).resolve("sling.pid")).get(0).trim());
        pids.add(pid);
        return pid;
    }

    /** {@code ./sling-vt cluster restart}: its output; fails unless it ends well within {@code seconds}. */
    String rollingRestart(int seconds) throws Exception {
        return script(seconds, "restart");
    }

    /** {@code ./sling-vt cluster status}: the balancer's view of each node, by node name. */
    Map<String, JsonNode> status() throws Exception {
        JsonNode rows = DemoServletsSupport.JSON.readTree(script(30, "status"));
        Map<String, JsonNode> byNode = new java.util.TreeMap<>();
        rows.forEach(row -> byNode.put(row.path("node").asText(), row));
        return byNode;
    }

    private String script(int seconds, String command) throws Exception {
        Process p = new ProcessBuilder(ROOT.resolve("sling-vt").toString(), "cluster", command, "--dir", dir.toString())
                .directory(ROOT.toFile()).redirectErrorStream(false).start();
        Path err = Files.createTempFile(dir.getParent(), command, ".err");
        Thread stderr = Thread.ofPlatform().start(() -> {
            try {
                Files.write(err, p.getErrorStream().readAllBytes());
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        boolean done = p.waitFor(seconds, TimeUnit.SECONDS);
        if (!done) {
            p.destroyForcibly();
        }
        stderr.join(5_000);
        String log = Files.readString(err);
        assertThat(done).as("cluster %s ended within %d s: %s", command, seconds, log).isTrue();
        assertThat(p.exitValue()).as("cluster %s: %s%s", command, out, log).isZero();
        return out + log;
    }

    @Override
    public void close() throws Exception {
        for (int n = 1; n <= nodes; n++) {
            if (Files.exists(dir.resolve("node-" + n).resolve("sling.pid"))) {
                nodePid(n);
            }
        }
        Path haproxyPid = dir.resolve("haproxy.pid");
        if (Files.exists(haproxyPid)) {
            pids.add(Long.parseLong(Files.readString(haproxyPid).trim()));
        }
        script.destroy();
        boolean stopped = script.waitFor(120, TimeUnit.SECONDS);
        if (!stopped) {
            script.destroyForcibly();
        }
        List<Long> left = pids.stream().filter(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                .toList();
        left.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
        assertThat(stopped).as("./sling-vt cluster stopped within 120 s").isTrue();
        assertThat(left).as("processes of the cluster left running").isEmpty();
    }

    /** A port whose next {@code count - 1} ports are free as well (the balancer's and the nodes'). */
    private static int freePorts(int count) throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            int first;
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
                first = socket.getLocalPort();
            }
            if (first + count > 65535) {
                continue;
            }
            boolean free = true;
            for (int p = first + 1; p < first + count && free; p++) {
                try (ServerSocket probe = new ServerSocket(p, 1, InetAddress.getByName("127.0.0.1"))) {
                    free = probe.getLocalPort() == p;
                } catch (IOException taken) {
                    free = false;
                }
            }
            if (free) {
                return first;
            }
        }
        throw new IOException("no " + count + " consecutive free ports on 127.0.0.1");
    }
}
