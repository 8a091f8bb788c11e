package io.github.slingvt.it.e2e;

import static io.github.slingvt.it.e2e.OverloadSupport.FELIX_HTTP_PID;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Slowloris, in both modes: an own instance whose Felix HTTP idle timeout ({@code org.apache.felix.http.timeout},
 * Jetty's connector idle timeout) is 5 s, set by an {@code org.apache.felix.http} configuration in the install folder.
 * 1,000 connections send a partial request (request line and part of a header); half then stop, half send one more
 * header byte every 7 s, slower than the idle timeout. A normal request answers 200 while they are held. In virtual
 * mode every slow connection is closed by the server within the idle timeout + 20 s of its last byte and the server's
 * OS threads grow by at most 50 (an idle instance has about 100; no thread waits for a partial header: Jetty parses
 * what arrives in a short task and leaves the rest to its selector, and its pool is small in virtual mode). Kernel
 * mode's pool grows towards its maximum under the burst (measured, not asserted). The run also counts a Jetty race
 * (see {@link #JETTY_BUFFER_RELEASE_RACE}) in both modes, with the same bound.
 * <p>
 * Measured, not asserted: 20 connections that trickle a header byte every second (faster than the idle timeout)
 * during the same time; Jetty 12 has no request-header deadline, so they are expected to stay open.
 */
class SlowClientsE2EIT {

    private static final int SLOW = 1_000;
    private static final int IDLE_TIMEOUT_MS = 5_000;
    private static final int SLOW_TRICKLE_MS = 7_000;
    private static final Duration CLOSE_MARGIN = Duration.ofSeconds(20);
    /**
     * Jetty's platform pool may grow towards its maximum ({@code virtualModePlatformThreads}) under a burst of
     * connections; seen: +27 with a fixed maximum of 32, +3 with the pool sized from the connectors' leases.
     */
    private static final int MAX_THREAD_GROWTH = 50;
    private static final int FAST = 20;
    private static final int FAST_TRICKLE_MS = 1_000;
    /**
     * Longer than the idle timeout by more than one trickle period, and about as long as the slow clients take in
     * virtual mode (all closed about 6.5 s after the start); the run waits for these clients too.
     */
    private static final Duration FAST_OBSERVED = Duration.ofSeconds(8);
    /**
     * Jetty 12.0.32 race under idle-timeout closes: the fill task of a connection that the idle timeout has just
     * closed releases a request buffer that the close released too, failing in HttpConnection.releaseRequestBuffer
     * with a NullPointerException ("_requestBuffer" is null) or an IllegalStateException ("already released"). The
     * connection was being closed anyway; nothing is lost. Not ours to fix (cf. jetty/jetty.project #12227, #12239
     * on HttpConnection buffer release). Since issue #11 Jetty parses on its platform threads in both modes alike.
     */
    static final String JETTY_BUFFER_RELEASE_RACE = "at org.eclipse.jetty.server.internal.HttpConnection.releaseRequestBuffer(";
    /**
     * The most races tolerated per run of {@value #SLOW} closes, in either mode: kernel mode's worst measured run,
     * with margin. Measured 2026-11-23 in seven runs per mode (JDK 25 and 21): kernel mode 2, 0, 1, 6, 1, 0, 0 (the 6
     * while a second build ran on the machine); virtual mode 0, 0, 0, 0, 0, 0, 1.
     */
    static final int MAX_BUFFER_RELEASE_RACES = 10;
    private static final String PARTIAL = "GET /bin/vt/work.json HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a";

    /** When the server closed a connection, relative to the last byte the client sent; -1 if it did not. */
    private record Closed(long afterLastByteMillis, long bytesSent, String how) { }

    @ParameterizedTest(name = "{0} mode")
    @ValueSource(strings = {"virtual", "kernel"})
    void slowlorisConnectionsHoldNoThreadsAndAreClosedAfterTheIdleTimeout(String mode, @TempDir Path files)
            throws IOException, InterruptedException {
        final Map<String, Object> felix = new LinkedHashMap<>();
        // A configuration replaces all properties of the feature's: repeat them. The port is left out, so Felix
        // takes it from the framework property org.osgi.service.http.port (the instance's free port).
        felix.put("org.apache.felix.http.host", "127.0.0.1");
        felix.put("org.apache.felix.jetty.relativeredirectallowed", false);
        felix.put("org.apache.felix.http.jetty.virtualthreads.enable", false);
        felix.put("org.apache.felix.http.timeout", IDLE_TIMEOUT_MS);
        final Path config = OverloadSupport.configFile(files, FELIX_HTTP_PID, felix);
        final Path threads = OverloadSupport.configFile(files, OverloadSupport.HTTP_PID, Map.of("mode", mode));
        try (SlingInstance sling = SlingInstance.builder("slow-clients-" + mode).smallDemoTree().functionalChecksOnly()
                .installFile(config)
                .installFile(threads).start()) {
            final int port = OverloadSupport.port(sling);
            final long probeMillis = awaitIdleTimeoutInForce(port);
            OverloadSupport.awaitStatusText(sling, "Mode: " + mode, Duration.ofSeconds(60));
            assertThat(OverloadSupport.getOrFail(sling, DemoServletsSupport.WORK_JSON, false).status())
                    .as("a normal request before the slow clients").isEqualTo(200);
            final int idleThreads = maxThreads(sling, 4);

            final Queue<Closed> slowClosed = new ConcurrentLinkedQueue<>();
            final Queue<Closed> fastClosed = new ConcurrentLinkedQueue<>();
            final Queue<String> failures = new ConcurrentLinkedQueue<>();
            final AtomicInteger open = new AtomicInteger();
            final CountDownLatch connected = new CountDownLatch(SLOW);
            final List<Integer> threadSamples = new ArrayList<>();
            final List<Integer> heldSamples = new ArrayList<>();
            final int normalStatus;
            final int normalHeld;
            final long began = System.nanoTime();
            try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int i = 0; i < FAST; i++) {
                    clients.submit(() -> trickle(port, FAST_TRICKLE_MS, FAST_OBSERVED, null, null, fastClosed,
                            failures));
                }
                for (int i = 0; i < SLOW; i++) {
                    final int trickleMs = i % 2 == 0 ? SLOW_TRICKLE_MS : -1;
                    clients.submit(() -> trickle(port, trickleMs,
                            Duration.ofMillis(IDLE_TIMEOUT_MS).plus(CLOSE_MARGIN), connected, open, slowClosed,
                            failures));
                }
                assertThat(connected.await(60, TimeUnit.SECONDS)).as("%d slow connections opened", SLOW).isTrue();
                final long connectedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
                normalStatus = OverloadSupport.getOrFail(sling, DemoServletsSupport.WORK_JSON, false).status();
                normalHeld = open.get();
                // Until every slow connection is closed: the OS threads and how many slow connections are held.
                while (slowClosed.size() + failures.size() < SLOW
                        && System.nanoTime() - began < TimeUnit.SECONDS.toNanos(90)) {
                    heldSamples.add(open.get());
                    threadSamples.add(OverloadSupport.osThreads(sling.pid()));
                    Thread.sleep(100);
                }
                System.out.printf("slow clients (" + mode + " mode): idle timeout %d ms (probe closed after %d ms); %d connected after %d "
                        + "ms; normal request %d while %d held; OS threads idle %d, while held max %d (%d samples, "
                        + "held max %d)%n", IDLE_TIMEOUT_MS, probeMillis, SLOW, connectedMillis, normalStatus,
                        normalHeld, idleThreads, threadSamples.stream().mapToInt(Integer::intValue).max().orElse(-1),
                        threadSamples.size(), heldSamples.stream().mapToInt(Integer::intValue).max().orElse(-1));
                clients.shutdown();
                assertThat(clients.awaitTermination(120, TimeUnit.SECONDS)).as("all slow clients done").isTrue();
            }
            final List<Long> closeTimes = slowClosed.stream().map(Closed::afterLastByteMillis).sorted().toList();
            System.out.printf("slow clients: closed by the server %d of %d, after last byte min %d / median %d / "
                    + "max %d ms; how: %s%n", closeTimes.stream().filter(t -> t >= 0).count(), SLOW,
                    closeTimes.get(0), closeTimes.get(closeTimes.size() / 2), closeTimes.get(closeTimes.size() - 1),
                    count(slowClosed));
            System.out.printf("fast tricklers (1 byte/%d ms, idle timeout %d ms): %d of %d still open after %d s; "
                    + "closed: %s; bytes sent max %d%n", FAST_TRICKLE_MS, IDLE_TIMEOUT_MS,
                    fastClosed.stream().filter(c -> c.afterLastByteMillis() < 0).count(), FAST,
                    FAST_OBSERVED.toSeconds(), count(fastClosed),
                    fastClosed.stream().mapToLong(Closed::bytesSent).max().orElse(0));

            assertThat(failures).as("slow connections that could not be opened or written at first").isEmpty();
            assertThat(heldSamples.stream().mapToInt(Integer::intValue).max().orElse(0))
                    .as("most slow connections held at once while the threads were sampled")
                    .isGreaterThanOrEqualTo(SLOW * 3 / 4);
            if ("virtual".equals(mode)) {
                assertThat(threadSamples.stream().mapToInt(Integer::intValue).max().orElse(Integer.MAX_VALUE))
                        .as("server OS threads while %d slow connections are held (idle: %d)", SLOW, idleThreads)
                        .isLessThanOrEqualTo(idleThreads + MAX_THREAD_GROWTH);
            }
            assertThat(normalStatus).as("normal request while %d slow connections are held", normalHeld)
                    .isEqualTo(200);
            assertThat(normalHeld).as("slow connections held during the normal request").isGreaterThan(SLOW / 2);
            assertThat(slowClosed).as("slow connections").hasSize(SLOW);
            if ("virtual".equals(mode)) {
                // Kernel mode is the baseline for the race count only: under the 1,000-connection burst its pool of
                // up to 200 threads closed some connections late (seen on JDK 21: 7 still open after 25 s, the
                // slowest closed after 18 s); printed above, not asserted.
                assertThat(slowClosed).allSatisfy(c -> assertThat(c.afterLastByteMillis()).as("closed by the server "
                        + "after the last byte (ms; -1: still open after the idle timeout + %d s)",
                        CLOSE_MARGIN.toSeconds()).isBetween(0L, IDLE_TIMEOUT_MS + CLOSE_MARGIN.toMillis()));
            }
            assertThat(OverloadSupport.getOrFail(sling, DemoServletsSupport.WORK_JSON, false).status())
                    .as("a normal request after the slow clients").isEqualTo(200);
            final long races = sling.errorLogLines().stream().filter(l -> l.contains(JETTY_BUFFER_RELEASE_RACE)).count();
            System.out.printf("slow clients (%s mode): Jetty buffer-release races in error.log: %d in %d closes%n",
                    mode, races, SLOW);
            assertThat(races).as("Jetty buffer-release races in %d idle-timeout closes (%s mode)", SLOW, mode)
                    .isLessThanOrEqualTo(MAX_BUFFER_RELEASE_RACES);
            OverloadSupport.assertAliveWithoutOutOfMemoryOrErrors(sling, List.of(JETTY_BUFFER_RELEASE_RACE));
        }
    }

    /**
     * Opens a connection, sends {@link #PARTIAL}, then one more header byte every {@code trickleMs} (never if
     * negative) until the server closes the connection or {@code observe} has passed since the last byte sent (since
     * the connection was opened for the fast tricklers, which pass no {@code connected} latch).
     */
    private static Void trickle(int port, int trickleMs, Duration observe, CountDownLatch connected,
            AtomicInteger open, Queue<Closed> closed, Queue<String> failures) {
        try (Socket socket = new Socket()) {
            final OutputStream out;
            final InputStream in;
            try {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 30_000);
                out = socket.getOutputStream();
                in = socket.getInputStream();
                out.write(PARTIAL.getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
            } catch (IOException e) {
                failures.add(e.toString());
                return null;
            } finally {
                if (connected != null) {
                    connected.countDown();
                }
            }
            if (open != null) {
                open.incrementAndGet();
            }
            long bytes = PARTIAL.length();
            long lastByte = System.nanoTime();
            final long start = lastByte;
            String how = "still open";
            long after = -1;
            try {
                while (true) {
                    final long now = System.nanoTime();
                    final long giveUp = (connected == null ? start : lastByte) + observe.toNanos();
                    if (now >= giveUp) {
                        break;
                    }
                    long wait = giveUp - now;
                    if (trickleMs >= 0) {
                        wait = Math.min(wait, lastByte + TimeUnit.MILLISECONDS.toNanos(trickleMs) - now);
                    }
                    socket.setSoTimeout((int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(wait)));
                    try {
                        final int read = in.read();
                        after = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastByte);
                        how = read < 0 ? "EOF" : "answered";
                        break;
                    } catch (SocketTimeoutException timeout) {
                        final long quiet = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastByte);
                        if (trickleMs >= 0 && quiet >= trickleMs) {
                            out.write('a');
                            out.flush();
                            bytes++;
                            lastByte = System.nanoTime();
                        }
                    }
                }
            } catch (IOException e) {
                after = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastByte);
                how = e.getClass().getSimpleName();
            } finally {
                if (open != null) {
                    open.decrementAndGet();
                }
            }
            closed.add(new Closed(after, bytes, how));
        } catch (IOException e) {
            failures.add("close: " + e);
        }
        return null;
    }

    /**
     * Waits until the configured idle timeout is in force (Felix restarts Jetty when the install folder's
     * configuration arrives, possibly after readiness): a connection that sends nothing is closed within the idle
     * timeout + 5 s. Returns after how many ms the last probe was closed; fails after 90 s.
     */
    private static long awaitIdleTimeoutInForce(int port) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        String last = "no probe";
        while (System.nanoTime() < deadline) {
            try (Socket probe = new Socket()) {
                probe.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
                probe.setSoTimeout(IDLE_TIMEOUT_MS + 5_000);
                final long start = System.nanoTime();
                final int read = probe.getInputStream().read();
                final long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                if (read < 0) {
                    return millis;
                }
                last = "read a byte after " + millis + " ms";
            } catch (IOException e) {
                last = e.toString();
            }
            Thread.sleep(1000);
        }
        throw new AssertionError("An idle connection is not closed within " + (IDLE_TIMEOUT_MS + 5_000)
                + " ms after 90 s (org.apache.felix.http.timeout not in force?): " + last);
    }

    private static int maxThreads(SlingInstance sling, int samples) throws InterruptedException {
        int max = 0;
        for (int i = 0; i < samples; i++) {
            max = Math.max(max, OverloadSupport.osThreads(sling.pid()));
            Thread.sleep(250);
        }
        return max;
    }

    private static Map<String, Long> count(Queue<Closed> closed) {
        final Map<String, Long> counts = new LinkedHashMap<>();
        closed.forEach(c -> counts.merge(c.how(), 1L, Long::sum));
        return counts;
    }
}
