package io.github.slingvt.it.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The Sling VT states of {@link HostileClientsE2EIT}, applied live through the web console, with the background load
 * that keeps requests waiting in each, and the bookkeeping of one case: the counters before and after, requests of
 * the test's own status reads and of the background load taken out, so that what is left are the requests of the
 * case's clients that reached the admission gate.
 */
final class HostileStates {

    /** A Sling VT configuration, how the status JSON shows it in force, and its background load. */
    record State(String name, Map<String, List<String>> config, Predicate<JsonNode> inForce, String backgroundPath,
            int backgroundClients) {
    }

    /** Fixed cap 4 (queue timeout 20 s), 6 clients holding a slot 300 ms each: 2 or more requests always wait. */
    static final State VIRTUAL_CAP = new State("virtual, cap 4",
            Map.of("mode", List.of("virtual"), "maxConcurrentRequests", List.of("4"), "queueTimeout", List.of("20000")),
            s -> "virtual".equals(s.path("mode").asText()) && s.path("concurrencyLimit").asInt() == 4,
            DemoServletsSupport.WORK_JSON + "?idleDelay=300", 6);
    /** Kernel mode, 8 threads, 10 clients holding one 300 ms each: requests wait in kernel mode's queue. */
    static final State KERNEL_BUSY = new State("kernel, 8 threads busy",
            Map.of("mode", List.of("kernel"), "kernelMaxThreads", List.of("8")),
            s -> "kernel".equals(s.path("mode").asText()) && s.path("concurrencyLimit").asInt() == 8,
            DemoServletsSupport.WORK_JSON + "?idleDelay=300", 10);
    /**
     * Adaptive admission ({@code auto}, its floor lowered to 4) while 12 clients keep the carriers busy with CPU-bound
     * requests: the limit steps down and requests wait.
     */
    static final State AUTO_SATURATED = new State("auto, carriers saturated",
            Map.of("mode", List.of("virtual"), "maxConcurrentRequests", List.of("auto"), "adaptiveMinLimit",
                    List.of("4")),
            s -> "virtual".equals(s.path("mode").asText()) && "auto".equals(s.path("maxConcurrentRequests").asText()),
            DemoServletsSupport.WORK_JSON + "?cpuIterations=20000", 12);
    static final List<State> STATES = List.of(VIRTUAL_CAP, KERNEL_BUSY, AUTO_SATURATED);

    /** Answers of Jetty's parser, which never reach the admission gate. */
    static final Set<Integer> PARSER_STATUSES = Set.of(400, 408, 413, 414, 431, 501, 505);

    /** The start of a TLS 1.2 ClientHello record, as a browser sends it to an https URL on the plain port. */
    static final byte[] CLIENT_HELLO = {0x16, 0x03, 0x01, 0x00, 0x2f, 0x01, 0x00, 0x00, 0x2b, 0x03, 0x03, 0x11, 0x22,
        0x33, 0x44, 0x55, 0x66, 0x77, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15,
        0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f, 0x00, 0x00, 0x02, 0x00, 0x2f, 0x01, 0x00};

    private static final Duration IDLE_WAIT = Duration.ofSeconds(30);
    private static final Duration THREADS_WAIT = Duration.ofSeconds(45);
    private static final int THREAD_SLACK = 5;

    private HostileStates() {
    }

    /** What one case left on the server: requests of its clients that reached the gate, as the counters say. */
    record Closed(long backgroundSent, long arrivedFromClients, String counters) {
    }

    /** Sling VT in one state: entered once, then one {@link Window} per case. */
    static final class Server {
        private final SlingInstance sling;
        private final State state;
        /** Unknown until {@link #enter()} has measured it. */
        private int idleThreads = Integer.MAX_VALUE - THREAD_SLACK;

        Server(SlingInstance sling, State state) {
            this.sling = sling;
            this.state = state;
        }

        SlingInstance sling() {
            return sling;
        }

        State state() {
            return state;
        }

        /** Applies the state, waits until it is in force, warms it up with its load and takes the idle threads. */
        void enter() throws InterruptedException {
            ConsoleConfigs.apply(sling.baseUrl(), OverloadSupport.HTTP_PID, state.config());
            final long deadline = System.nanoTime() + IDLE_WAIT.toNanos();
            JsonNode status = OverloadSupport.counters(sling);
            while (!state.inForce().test(status)) {
                assertThat(System.nanoTime()).as("%s in force within %s: %s", state.name(), IDLE_WAIT, status)
                        .isLessThan(deadline);
                Thread.sleep(100);
                status = OverloadSupport.counters(sling);
            }
            open(true).close();
            int max = 0;
            for (int i = 0; i < 4; i++) {
                max = Math.max(max, OverloadSupport.osThreads(sling.pid()));
                Thread.sleep(100);
            }
            idleThreads = max;
        }

        /** Waits until idle, takes the counters, and starts the background load if {@code background}. */
        Window open(boolean background) throws InterruptedException {
            final int[] reads = new int[1];
            final JsonNode before = awaitIdle(reads);
            reads[0] = 0;
            final KeepAliveLoad load = background
                    ? new KeepAliveLoad(sling.baseUrl(), state.backgroundPath(), state.backgroundClients(), 300)
                    : null;
            if (load != null) {
                // The case starts once requests wait for admission.
                final long deadline = System.nanoTime() + IDLE_WAIT.toNanos();
                JsonNode now = counters(reads);
                while (now.path("queued").asLong() < 1) {
                    assertThat(System.nanoTime()).as("%s: requests waiting within %s under the background load: "
                            + "%s", state.name(), IDLE_WAIT, now).isLessThan(deadline);
                    Thread.sleep(50);
                    now = counters(reads);
                }
            }
            return new Window(before, load, reads);
        }

        /** One case's time on the server. */
        final class Window {
            private final JsonNode before;
            private final KeepAliveLoad load;
            private final int[] reads;

            private Window(JsonNode before, KeepAliveLoad load, int[] reads) {
                this.before = before;
                this.load = load;
                this.reads = reads;
            }

            /**
             * Stops the background load, waits until nothing is in flight or queued, checks the counters and the
             * OS threads, and answers how many of the clients' requests reached the gate.
             */
            Closed close() throws InterruptedException {
                long backgroundSent = 0;
                if (load != null) {
                    load.close();
                    // A failure is an answer other than 200 (a 5xx included) or a connection that broke.
                    assertThat(load.failed()).as("%s: background requests that failed: %s", state.name(), load)
                            .isZero();
                    backgroundSent = load.ok();
                }
                final JsonNode after = awaitIdle(reads);
                final Map<String, Long> delta = new LinkedHashMap<>();
                for (String counter : List.of("admitted", "rejected", "abandoned", "completed")) {
                    delta.put(counter, after.path(counter).asLong() - before.path(counter).asLong());
                }
                final String shown = "delta " + delta + ", background " + backgroundSent + ", status reads "
                        + reads[0] + ", after " + after;
                // The status read that answered 'after' is in flight, counted as admitted, not yet completed.
                assertThat(after.path("completed").asLong()).as("%s: completed = admitted (%s)", state.name(), shown)
                        .isEqualTo(after.path("admitted").asLong() - 1);
                awaitThreads();
                final long arrived = delta.get("admitted") + delta.get("rejected") + delta.get("abandoned")
                        - backgroundSent - reads[0];
                return new Closed(backgroundSent, arrived, shown);
            }
        }

        /** The counters once only the status read itself is in flight and nothing is queued. */
        private JsonNode awaitIdle(int[] reads) throws InterruptedException {
            final long deadline = System.nanoTime() + IDLE_WAIT.toNanos();
            JsonNode counters = counters(reads);
            while (counters.path("inFlight").asLong() != 1 || counters.path("queued").asLong() != 0) {
                assertThat(System.nanoTime()).as("%s: in flight 1 (this read) and queued 0 within %s: %s",
                        state.name(), IDLE_WAIT, counters).isLessThan(deadline);
                Thread.sleep(50);
                counters = counters(reads);
            }
            return counters;
        }

        private JsonNode counters(int[] reads) {
            reads[0]++;
            return OverloadSupport.counters(sling);
        }

        private void awaitThreads() throws InterruptedException {
            final long deadline = System.nanoTime() + THREADS_WAIT.toNanos();
            int threads = OverloadSupport.osThreads(sling.pid());
            while (threads > idleThreads + THREAD_SLACK) {
                assertThat(System.nanoTime()).as("%s: OS threads %d back to idle %d + %d within %s: %s",
                        state.name(), threads, idleThreads, THREAD_SLACK, THREADS_WAIT,
                        OverloadSupport.osThreadNames(sling.pid())).isLessThan(deadline);
                Thread.sleep(200);
                threads = OverloadSupport.osThreads(sling.pid());
            }
        }
    }

    /** The Felix HTTP configuration of the feature with a short idle timeout (as SlowClientsE2EIT writes it). */
    static Path felixIdleTimeout(Path dir, int idleTimeoutMillis) throws IOException {
        final Map<String, Object> felix = new LinkedHashMap<>();
        felix.put("org.apache.felix.http.host", "127.0.0.1");
        felix.put("org.apache.felix.jetty.relativeredirectallowed", false);
        felix.put("org.apache.felix.http.jetty.virtualthreads.enable", false);
        felix.put("org.apache.felix.http.timeout", idleTimeoutMillis);
        return OverloadSupport.configFile(dir, OverloadSupport.FELIX_HTTP_PID, felix);
    }

    /**
     * Waits (60 s at most) until {@code path} answers 200 twenty times in a row: a Felix HTTP configuration that
     * arrives after the start rebuilds Jetty, and Sling's servlets register again for a moment after that.
     */
    static void awaitServing(SlingInstance sling, String path) throws InterruptedException {
        final long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        String last = "no answer";
        for (int inARow = 0; inARow < 20;) {
            assertThat(System.nanoTime()).as("%s serves %s 20 times in a row within 60 s; last %s", sling.name(),
                    path, last).isLessThan(deadline);
            try {
                final int status = OverloadSupport.get(OverloadSupport.port(sling), path, false,
                        Duration.ofSeconds(10)).status();
                inARow = status == 200 ? inARow + 1 : 0;
                last = "HTTP " + status;
            } catch (IOException e) {
                inARow = 0;
                last = e.toString();
            }
            if (inARow == 0) {
                Thread.sleep(200);
            }
        }
    }

    /** Waits (90 s at most) until a connection that sends nothing is closed within the idle timeout + 3 s. */
    static void awaitIdleTimeoutInForce(int port, int idleTimeoutMillis) throws InterruptedException {
        final long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        String last = "no probe";
        while (System.nanoTime() < deadline) {
            try (Socket probe = new Socket()) {
                probe.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
                probe.setSoTimeout(idleTimeoutMillis + 3_000);
                if (probe.getInputStream().read() < 0) {
                    return;
                }
                last = "read a byte";
            } catch (IOException e) {
                last = e.toString();
            }
            Thread.sleep(500);
        }
        throw new AssertionError("Idle timeout of " + idleTimeoutMillis + " ms not in force on port " + port + ": "
                + last);
    }
}
