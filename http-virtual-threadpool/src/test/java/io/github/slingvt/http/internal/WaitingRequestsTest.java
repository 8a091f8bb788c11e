package io.github.slingvt.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import io.github.slingvt.http.api.ThreadingMode;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Requests that wait for admission in a real Jetty: the gate never reads a waiting request's connection, so a client
 * that half-closes its side or pipelines its next request while it waits is answered as a pool answers it; a lowered
 * kernel pool size is in force for new requests at once although Jetty keeps its surplus threads until they are idle,
 * and a switch to virtual mode ends that surplus within seconds.
 */
class WaitingRequestsTest {

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private TestJetty jetty;
    private ThreadingState state;
    private ServerInstaller.Installation installation;

    @BeforeEach
    void start() throws Exception {
        jetty = new TestJetty();
        state = new ThreadingState(timer);
        installation = ServerInstaller.install(jetty.server, state);
    }

    @AfterEach
    void stop() throws Exception {
        jetty.close();
        timer.shutdownNow();
    }

    @Test
    void aWaitingClientThatHalfClosesItsSideIsStillAnswered() throws Exception {
        state.apply(new ThreadingSettings(ThreadingMode.VIRTUAL, 1, 30_000, 10, 1, 200, 0));
        CompletableFuture<HttpResponse<String>> slow = jetty.getAsync("/probe?sleep=500");
        await("the slow request runs", () -> jetty.probe.running.get() == 1);
        URI base = URI.create(jetty.base);
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(20_000);
            socket.getOutputStream().write("GET /probe HTTP/1.1\r\nHost: test\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            await("the request waits", () -> state.snapshot().queued() == 1);
            // shutdown(SHUT_WR): its end of the stream reads as a closed connection, yet it waits for its answer.
            socket.shutdownOutput();
            assertThat(readResponse(socket.getInputStream())).startsWith("HTTP/1.1 200");
        }
        assertThat(slow.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        assertThat(state.snapshot().abandoned()).isZero();
        assertThat(state.snapshot().admitted()).isEqualTo(2);
        assertThat(jetty.probe.peak.get()).isEqualTo(1);
    }

    @Test
    void aClientThatPipelinesItsNextRequestWhileTheFirstWaitsGetsBothAnswersInOrder() throws Exception {
        state.apply(new ThreadingSettings(ThreadingMode.VIRTUAL, 1, 30_000, 10, 1, 200, 0));
        CompletableFuture<HttpResponse<String>> slow = jetty.getAsync("/probe?sleep=500");
        await("the slow request runs", () -> jetty.probe.running.get() == 1);
        URI base = URI.create(jetty.base);
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            out.write("GET /probe?first HTTP/1.1\r\nHost: test\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            await("the first request waits", () -> state.snapshot().queued() == 1);
            out.write("GET /probe?second HTTP/1.1\r\nHost: test\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            assertThat(readResponse(in)).as("the first answer").startsWith("HTTP/1.1 200");
            assertThat(readResponse(in)).as("the second answer, on the same connection").startsWith("HTTP/1.1 200");
        }
        assertThat(slow.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        assertThat(state.snapshot().abandoned()).isZero();
        assertThat(state.snapshot().rejected()).isZero();
        assertThat(state.snapshot().admitted()).isEqualTo(3);
    }

    @Test
    void aWaitingClientThatStaysIsServedAndItsConnectionKeptAlive() throws Exception {
        state.apply(new ThreadingSettings(ThreadingMode.VIRTUAL, 1, 30_000, 10, 1, 200, 0));
        CompletableFuture<HttpResponse<String>> slow = jetty.getAsync("/probe?sleep=500");
        await("the slow request runs", () -> jetty.probe.running.get() == 1);
        URI base = URI.create(jetty.base);
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            for (int i = 0; i < 2; i++) {
                out.write("GET /probe HTTP/1.1\r\nHost: test\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                assertThat(readResponse(in)).as("answer %d on one connection", i).startsWith("HTTP/1.1 200");
            }
        }
        assertThat(slow.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        assertThat(state.snapshot().abandoned()).isZero();
    }

    @Test
    void aLoweredKernelPoolSizeIsInForceForNewRequestsAtOnce() throws Exception {
        QueuedThreadPool qtp = (QueuedThreadPool) jetty.server.getThreadPool();
        int grown = growKernelPool(500);

        state.apply(new ThreadingSettings(ThreadingMode.KERNEL, 0, 2000, 100, 1, 8, 0));
        ServerInstaller.applyPlatformThreads(jetty.server, installation, 8, ThreadingMode.KERNEL);
        assertThat(qtp.getThreads()).as("the threads are still there").isGreaterThan(8);
        assertThat(qtp.getMaxEvictCount()).as("all of them may end within one idle timeout")
                .isGreaterThanOrEqualTo(grown - qtp.getMinThreads());
        jetty.probe.peak.set(0);
        List<CompletableFuture<HttpResponse<String>>> narrow = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            narrow.add(jetty.getAsync("/probe?sleep=200"));
        }
        for (CompletableFuture<HttpResponse<String>> r : narrow) {
            HttpResponse<String> response = r.get(20, TimeUnit.SECONDS);
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).contains("virtual=false");
        }
        assertThat(jetty.probe.peak.get()).as("never more running than the new size").isEqualTo(8);
        assertThat(state.snapshot().rejected()).isZero();

        int felixIdleTimeout = qtp.getIdleTimeout();
        ServerInstaller.applyPlatformThreads(jetty.server, installation, 0, ThreadingMode.VIRTUAL);
        assertThat(qtp.getIdleTimeout()).as("virtual mode: surplus threads end after 5 s idle")
                .isEqualTo(ServerInstaller.VIRTUAL_MODE_IDLE_TIMEOUT_MILLIS);
        ServerInstaller.applyPlatformThreads(jetty.server, installation, 40, ThreadingMode.KERNEL);
        assertThat(qtp.getIdleTimeout()).as("kernel mode: Felix's idle timeout again").isEqualTo(felixIdleTimeout);
    }

    @Test
    void aSwitchToVirtualModeEndsTheKernelPoolsSurplusWithinSeconds() throws Exception {
        QueuedThreadPool qtp = (QueuedThreadPool) jetty.server.getThreadPool();
        growKernelPool(300);
        assertThat(qtp.getIdleTimeout()).as("kernel mode keeps Jetty's idle timeout").isEqualTo(60_000);

        // Left to Jetty, none of them would end before 60 s after its last thread start, and each idle thread would
        // look again only after the 60 s it waits with.
        state.apply(new ThreadingSettings(ThreadingMode.VIRTUAL, 0, 2000, 100, 1, 40, 0));
        ServerInstaller.applyPlatformThreads(jetty.server, installation, 0, ThreadingMode.VIRTUAL);
        int virtualMax = qtp.getMaxThreads();
        assertThat(virtualMax).as("virtual mode's pool").isLessThan(20);
        await("the surplus of kernel mode ended", () -> qtp.getThreads() <= virtualMax);
        assertThat(jetty.getAsync("/probe").get(20, TimeUnit.SECONDS).body()).contains("virtual=true");
    }

    /** Kernel mode with 40 threads and 30 requests at once, each {@code sleepMillis} long; answers the pool's size. */
    private int growKernelPool(int sleepMillis) throws Exception {
        state.apply(new ThreadingSettings(ThreadingMode.KERNEL, 0, 2000, 100, 1, 40, 0));
        ServerInstaller.applyPlatformThreads(jetty.server, installation, 40, ThreadingMode.KERNEL);
        List<CompletableFuture<HttpResponse<String>>> wide = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            wide.add(jetty.getAsync("/probe?sleep=" + sleepMillis));
        }
        for (CompletableFuture<HttpResponse<String>> r : wide) {
            assertThat(r.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        }
        int grown = jetty.server.getThreadPool().getThreads();
        assertThat(grown).as("Jetty grew its pool for 30 requests").isGreaterThan(20);
        return grown;
    }

    /** Reads one HTTP/1.1 response with a Content-Length body. */
    private static String readResponse(InputStream in) throws Exception {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int c = in.read();
            assertThat(c).as("response head").isNotNegative();
            head.append((char) c);
        }
        String headers = head.toString();
        int at = headers.toLowerCase().indexOf("content-length:");
        int length = Integer.parseInt(headers.substring(at + 15, headers.indexOf("\r\n", at)).trim());
        in.readNBytes(length);
        return headers;
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("%s within 20 s", what).isLessThan(deadline);
            Thread.sleep(5);
        }
    }
}
