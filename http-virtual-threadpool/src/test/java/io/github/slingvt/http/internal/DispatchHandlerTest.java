package io.github.slingvt.http.internal;

import io.github.slingvt.http.api.HttpThreadsSnapshot;
import io.github.slingvt.http.api.ThreadingMode;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.server.handler.ContextHandlerCollection;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The dispatch handler on a real Jetty 12 server, the way Felix builds it (QueuedThreadPool, ServerConnector). */
class DispatchHandlerTest {

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private TestJetty jetty;
    private Server server;
    private ProbeHandler probe;
    private ContextHandler context;
    private ThreadingState state;

    @BeforeEach
    void startJetty() throws Exception {
        jetty = new TestJetty();
        server = jetty.server;
        probe = jetty.probe;
        context = jetty.context;
        state = new ThreadingState(timer);
    }

    @AfterEach
    void stopJetty() throws Exception {
        jetty.close();
        timer.shutdownNow();
    }

    private HttpResponse<String> get(String query) throws Exception {
        return jetty.get("/probe?" + query);
    }

    private CompletableFuture<HttpResponse<String>> getAsync(String query) {
        return jetty.getAsync("/probe?" + query);
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition within 10 s").isLessThan(deadline);
            Thread.sleep(10);
        }
    }

    @Test
    void virtualModeRunsEachRequestOnANewVirtualThread() throws Exception {
        assertThat(ServerInstaller.install(server, state).handlers()).hasSize(1);
        HttpResponse<String> first = get("");
        HttpResponse<String> second = get("");
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.body()).contains("virtual=true").contains("thread=slingvt-http-");
        assertThat(second.body()).contains("virtual=true").isNotEqualTo(first.body());
        await(() -> state.snapshot().completed() == 2);
        HttpThreadsSnapshot s = state.snapshot();
        assertThat(s.admitted()).isEqualTo(2);
        assertThat(s.inFlight()).isZero();
        assertThat(s.virtualThreadsStarted()).isEqualTo(2);
        assertThat(s.queued()).isZero();
        assertThat(s.newestFirst()).as("no queue, no overload: first in, first out").isFalse();
    }

    @Test
    void installAndUninstallKeepLiveConnectionsOpen() throws Exception {
        // Issue #11: installing used to restart Felix's connectors, resetting every keep-alive connection once.
        ServerConnector connector = (ServerConnector) server.getConnectors()[0];
        assertThat(get("").body()).contains("virtual=false");
        List<EndPoint> before = List.copyOf(connector.getConnectedEndPoints());
        assertThat(before).as("the client's keep-alive connection").hasSize(1);

        ServerInstaller.Installation installation = ServerInstaller.install(server, state);
        assertThat(get("").body()).contains("virtual=true");
        assertThat(connector.getConnectedEndPoints()).as("same connection after install").containsExactlyElementsOf(before);
        assertThat(((QueuedThreadPool) server.getThreadPool()).getVirtualThreadsExecutor())
                .as("Jetty's pool is not given an executor that only restarted selectors would read").isNull();

        ServerInstaller.uninstall(server, installation);
        assertThat(get("").body()).contains("virtual=false");
        assertThat(connector.getConnectedEndPoints()).as("same connection after uninstall").containsExactlyElementsOf(before);
    }

    @Test
    void virtualModeSizesJettysPoolFromTheConnectorsLeasesByDefault() throws Exception {
        QueuedThreadPool qtp = (QueuedThreadPool) server.getThreadPool();
        int leased = qtp.getThreadPoolBudget().getLeasedThreads();
        int felixMax = qtp.getMaxThreads();
        int felixMin = qtp.getMinThreads();
        assertThat(leased).isPositive();
        ServerInstaller.Installation installation = ServerInstaller.install(server, state);
        int auto = Math.max(ServerInstaller.MIN_AUTO_PLATFORM_THREADS, leased + ServerInstaller.SPARE_PLATFORM_THREADS);
        assertThat(qtp.getMaxThreads()).isEqualTo(auto).isLessThan(felixMax);
        assertThat(qtp.getMinThreads()).as("Jetty's minimum of %d idle threads would outnumber the pool", felixMin)
                .isEqualTo(Math.min(felixMin, auto));
        assertThat(get("").body()).contains("virtual=true");
        state.apply(new ThreadingSettings(ThreadingMode.VIRTUAL, 0, 2000, 10, 1, 200, 24));
        ServerInstaller.applyPlatformThreads(server, installation, 24, ThreadingMode.VIRTUAL);
        assertThat(qtp.getMaxThreads()).isEqualTo(24);
        assertThat(qtp.getMinThreads()).as("Felix's minimum fits again").isEqualTo(felixMin);
        ServerInstaller.applyPlatformThreads(server, installation, 0, ThreadingMode.VIRTUAL);
        ServerInstaller.uninstall(server, installation);
        assertThat(qtp.getMaxThreads()).isEqualTo(felixMax);
        assertThat(qtp.getMinThreads()).isEqualTo(felixMin);
    }

    @Test
    void kernelModeRunsOnJettysPlatformThreads() throws Exception {
        ServerInstaller.Installation installation = ServerInstaller.install(server, state);
        state.apply(new ThreadingSettings(ThreadingMode.KERNEL, 0, 2000, 10, 1, 64, 32));
        ServerInstaller.applyPlatformThreads(server, installation, 64, ThreadingMode.KERNEL);
        HttpResponse<String> response = get("");
        assertThat(response.body()).contains("virtual=false").contains("thread=qtp");
        assertThat(((QueuedThreadPool) server.getThreadPool()).getMaxThreads()).isEqualTo(64);
        await(() -> state.snapshot().completed() == 1);
        assertThat(state.snapshot().virtualThreadsStarted()).isZero();
    }

    @Test
    void boundedModeAnswers503WithRetryAfterWhenQueueIsFull() throws Exception {
        ServerInstaller.install(server, state);
        state.apply(new ThreadingSettings(ThreadingMode.VIRTUAL, 2, 2000, 0, 7, 200, 32));
        List<CompletableFuture<HttpResponse<String>>> slow = new ArrayList<>();
        slow.add(getAsync("sleep=1500"));
        slow.add(getAsync("sleep=1500"));
        await(() -> probe.running.get() == 2);
        HttpResponse<String> rejected = get("");
        assertThat(rejected.statusCode()).isEqualTo(503);
        assertThat(rejected.headers().firstValue("Retry-After")).hasValue("7");
        for (CompletableFuture<HttpResponse<String>> f : slow) {
            assertThat(f.get().statusCode()).isEqualTo(200);
        }
        await(() -> state.snapshot().completed() == 2);
        assertThat(state.snapshot().admitted()).isEqualTo(2);
        assertThat(state.snapshot().rejected()).isEqualTo(1);
        assertThat(probe.peak.get()).isEqualTo(2);
    }

    @Test
    void queuedRequestTimesOutInto503() throws Exception {
        ServerInstaller.install(server, state);
        state.apply(new ThreadingSettings(ThreadingMode.VIRTUAL, 1, 100, 10, 1, 200, 32));
        CompletableFuture<HttpResponse<String>> slow = getAsync("sleep=2000");
        await(() -> probe.running.get() == 1);
        long start = System.nanoTime();
        HttpResponse<String> waited = get("");
        long waitedMillis = (System.nanoTime() - start) / 1_000_000;
        assertThat(waited.statusCode()).isEqualTo(503);
        assertThat(waited.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(waitedMillis).isGreaterThanOrEqualTo(100);
        assertThat(slow.get().statusCode()).isEqualTo(200);
    }

    @Test
    void queuedRequestRunsWhenASlotFrees() throws Exception {
        ServerInstaller.install(server, state);
        state.apply(new ThreadingSettings(ThreadingMode.VIRTUAL, 1, 10_000, 10, 1, 200, 32));
        CompletableFuture<HttpResponse<String>> slow = getAsync("sleep=300");
        await(() -> probe.running.get() == 1);
        HttpResponse<String> queued = get("");
        assertThat(queued.statusCode()).isEqualTo(200);
        assertThat(slow.get().statusCode()).isEqualTo(200);
        assertThat(probe.peak.get()).isEqualTo(1);
    }

    @Test
    void installAndUninstallDoNotRestartFelixsChain() throws Exception {
        ServerInstaller.Installation installation = ServerInstaller.install(server, state);
        List<DispatchHandler> handlers = installation.handlers();
        ContextHandlerCollection contexts = (ContextHandlerCollection) server.getHandler();
        assertThat(contexts.getHandlers()).containsExactlyElementsOf(handlers);
        assertThat(handlers.get(0).getHandler()).isSameAs(context);
        assertThat(get("").body()).contains("virtual=true");
        ServerInstaller.uninstall(server, installation);
        assertThat(contexts.getHandlers()).containsExactly(context);
        assertThat(get("").body()).contains("virtual=false");
        assertThat(probe.starts.get()).isEqualTo(1);
        assertThat(context.isStarted()).isTrue();
        server.stop();
        assertThat(context.isStopped()).as("Felix's stop still stops its context").isTrue();
    }

    @Test
    void kernelModeSizesJettysPoolAboveTheAdmissionForTheConnectorsAndTheConsole() throws Exception {
        QueuedThreadPool qtp = (QueuedThreadPool) server.getThreadPool();
        int leased = qtp.getThreadPoolBudget().getLeasedThreads();
        assertThat(leased).isPositive();
        ServerInstaller.Installation installation = ServerInstaller.install(server, state);
        ThreadingSettings kernel = new ThreadingSettings(ThreadingMode.KERNEL, 0, 2000, 10, 1, 64, 32);
        state.apply(kernel);
        ServerInstaller.applySettings(server, installation, kernel);
        // The admission runs 64 application requests at once; the acceptor and selectors keep their threads beside
        // them, and the spare ones parse request heads and answer the console while all 64 run.
        assertThat(qtp.getMaxThreads()).isEqualTo(64 + leased + ServerInstaller.SPARE_PLATFORM_THREADS);
        assertThat(state.gate().maxRunning()).as("the application's requests at once").isEqualTo(64);
        assertThat(get("").body()).contains("virtual=false").contains("thread=qtp");
        ThreadingSettings virtual = new ThreadingSettings(ThreadingMode.VIRTUAL, 0, 2000, 10, 1, 64, 32);
        state.apply(virtual);
        ServerInstaller.applySettings(server, installation, virtual);
        assertThat(qtp.getMaxThreads()).as("virtualModePlatformThreads as configured").isEqualTo(32);
        ServerInstaller.uninstall(server, installation);
        assertThat(qtp.getMaxThreads()).as("Felix's pool size").isEqualTo(50);
    }

    @Test
    void uninstallGivesJettysPoolBackTheSizeFelixGaveIt() throws Exception {
        QueuedThreadPool qtp = (QueuedThreadPool) server.getThreadPool();
        ServerInstaller.Installation installation = ServerInstaller.install(server, state);
        assertThat(qtp.getMaxThreads()).isLessThan(50);
        ServerInstaller.uninstall(server, installation);
        assertThat(qtp.getMaxThreads()).isEqualTo(50);
    }

    @Test
    void aServerThatFelixStopsIsForgottenWithWhatWasInstalledOnIt() throws Exception {
        VirtualThreadsConnectorFactory factory = newFactory();
        try {
            addConnectorAsFelixDoes(factory);
            assertThat(factory.installedServers()).isEqualTo(1);
            server.stop();
            assertThat(factory.installedServers()).isZero();
        } finally {
            factory.deactivate();
        }
    }

    @Test
    void whenFelixRemovesOurConnectorFromARunningServerEverythingComesOut() throws Exception {
        // What Felix's ConnectorFactoryTracker does when our service goes away (bundle stop, update, uninstall):
        // it stops our connector and removes it, and the server keeps serving. DS deactivates us only afterwards.
        QueuedThreadPool qtp = (QueuedThreadPool) server.getThreadPool();
        VirtualThreadsConnectorFactory factory = newFactory();
        try {
            org.eclipse.jetty.server.Connector hook = addConnectorAsFelixDoes(factory);
            assertThat(get("").body()).contains("virtual=true");
            hook.stop();
            server.removeConnector(hook);
            assertThat(factory.installedServers()).isZero();
            assertThat(((ContextHandlerCollection) server.getHandler()).getHandlers()).containsExactly(context);
            assertThat(qtp.getMaxThreads()).as("Felix's pool size").isEqualTo(50);
            assertThat(get("").body()).contains("virtual=false");
        } finally {
            factory.deactivate();
        }
    }

    private static VirtualThreadsConnectorFactory newFactory() {
        return new VirtualThreadsConnectorFactory(new io.github.slingvt.config.internal.ConfigGuardService(),
                java.util.Map.of());
    }

    /** What Felix does with a ConnectorFactory: add its connector to the running server and start it. */
    private org.eclipse.jetty.server.Connector addConnectorAsFelixDoes(VirtualThreadsConnectorFactory factory)
            throws Exception {
        org.eclipse.jetty.server.Connector hook = factory.createConnector(server);
        server.addConnector(hook);
        hook.start();
        return hook;
    }

    @Test
    void leavesAServerWithFelixVirtualThreadsAlone() throws Exception {
        server.stop();
        QueuedThreadPool pool = new QueuedThreadPool();
        pool.setVirtualThreadsExecutor(Executors.newVirtualThreadPerTaskExecutor());
        Server felixVirtual = new Server(pool);
        assertThat(ServerInstaller.install(felixVirtual, state)).isNull();
    }

    /** Stands in for Felix's servlet chain: reports the thread kind, optionally sleeping first. */
    static final class ProbeHandler extends Handler.Abstract {
        final AtomicInteger starts = new AtomicInteger();
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger peak = new AtomicInteger();

        @Override
        protected void doStart() throws Exception {
            starts.incrementAndGet();
            super.doStart();
        }

        @Override
        public boolean handle(Request request, Response response, Callback callback) throws Exception {
            peak.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {
                Fields query = Request.extractQueryParameters(request);
                long sleep = query.get("sleep") == null ? 0 : Long.parseLong(query.get("sleep").getValue());
                if (sleep > 0) {
                    Thread.sleep(sleep);
                }
                Thread t = Thread.currentThread();
                Content.Sink.write(response, true, "virtual=" + t.isVirtual() + " thread=" + t.getName(), callback);
            } finally {
                running.decrementAndGet();
            }
            return true;
        }
    }
}
