package io.github.slingvt.http.internal;

import io.github.slingvt.http.api.ThreadingMode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.VirtualThreads;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts {@link DispatchHandler}s into a running Felix Jetty server and takes them out again. Jetty's Server itself
 * does not accept a new handler once started, but Felix's ContextHandlerCollection is dynamic: each of its
 * children (Felix has one ServletContextHandler) gets wrapped. The children are unmanaged while they move, so
 * Jetty does not stop and restart Felix's servlet context.
 */
final class ServerInstaller {

    private static final Logger LOG = LoggerFactory.getLogger(ServerInstaller.class);
    /** The longest a task that wakes idle pool threads holds its thread ({@link #restartEvictionClock}). */
    private static final long WAKE_MILLIS = 1_000;
    /**
     * Threads of Jetty's pool in virtual mode beyond the ones the connectors lease (acceptor, selectors, reserved
     * threads): they parse request heads and hand them over, a few microseconds each, and run the web console's
     * requests. Two spare threads kept the parked/slow-client/overload tests and the benchmark's throughput; each
     * one more is an idle OS thread under load (issue #13: at most 60 in all).
     */
    static final int SPARE_PLATFORM_THREADS = 2;
    static final int MIN_AUTO_PLATFORM_THREADS = 4;
    /**
     * Idle timeout of Jetty's pool in virtual mode, where it runs only short tasks: surplus threads left by kernel
     * mode end once idle this long (Jetty's 60 s would keep 1,000 threads for minutes, since most of them fail the
     * first eviction round and wait a whole timeout again).
     */
    static final int VIRTUAL_MODE_IDLE_TIMEOUT_MILLIS = 5_000;

    private ServerInstaller() {
    }

    /**
     * What was changed on one server, to be undone by {@link #uninstall}: the handlers, the sizes Felix gave
     * Jetty's pool ({@code org.apache.felix.http.jetty.threadpool.max}, Jetty's minimum), which the modes change, and
     * the header cache size of each HTTP/1 configuration of Felix's connectors.
     */
    record Installation(List<DispatchHandler> handlers, int felixMaxThreads, int felixMinThreads,
            int felixIdleTimeout, Map<HttpConfiguration, Integer> felixHeaderCaches) {
    }

    /** @return what was installed, or {@code null} when this server must be left alone (reason logged). */
    static Installation install(Server server, ThreadingState state) {
        ThreadPool pool = server.getThreadPool();
        if (!(pool instanceof QueuedThreadPool qtp) || VirtualThreads.getVirtualThreadsExecutor(pool) != null) {
            LOG.error("Felix HTTP runs Jetty with its own virtual threads ({}); Sling VT leaves this server alone. "
                    + "Set org.apache.felix.http.jetty.virtualthreads.enable=false in PID org.apache.felix.http "
                    + "to let {} decide the request threads.", pool, VirtualThreadsConfig.PID);
            return null;
        }
        Handler.Sequence contexts = dynamicCollection(server);
        if (contexts == null) {
            LOG.error("Jetty server {} has no dynamic handler collection (Felix's ContextHandlerCollection); "
                    + "Sling VT cannot route its requests. Is this Felix HTTP Jetty 12?", server);
            return null;
        }
        List<DispatchHandler> installed = new ArrayList<>();
        List<Handler> wrapped = new ArrayList<>();
        for (Handler child : contexts.getHandlers()) {
            if (child instanceof DispatchHandler existing) {
                installed.add(existing);
                wrapped.add(existing);
                continue;
            }
            DispatchHandler handler = new DispatchHandler(state);
            handler.setServer(server);
            move(contexts, child, handler);
            installed.add(handler);
            wrapped.add(handler);
        }
        contexts.setHandlers(wrapped);
        for (DispatchHandler handler : installed) {
            handler.manage(handler.getHandler());
        }
        Installation installation = new Installation(installed, qtp.getMaxThreads(), qtp.getMinThreads(),
                qtp.getIdleTimeout(), headerCaches(server));
        applySettings(server, installation, state.settings());
        applyHeaderCache(installation, state.settings().connectionHeaderCache());
        // Felix's connectors keep running: no live connection is touched by an install (see DispatchHandler).
        LOG.info("Sling VT request threading installed on {} (mode {})", server, state.settings().mode().label());
        return installation;
    }

    static void uninstall(Server server, Installation installation) {
        if (server.getThreadPool() instanceof QueuedThreadPool) {
            // Without this, a running Felix keeps the virtual mode's few platform threads for all its requests.
            applyPlatformThreads(server, installation, installation.felixMaxThreads(), ThreadingMode.KERNEL);
        }
        applyHeaderCache(installation, ThreadingSettings.FELIX_HEADER_CACHE);
        List<DispatchHandler> handlers = installation.handlers();
        Handler.Sequence contexts = dynamicCollection(server);
        if (contexts == null) {
            return;
        }
        List<Handler> restored = new ArrayList<>();
        List<Handler> children = new ArrayList<>();
        for (Handler child : contexts.getHandlers()) {
            if (child instanceof DispatchHandler handler && handlers.contains(handler) && handler.getHandler() != null) {
                Handler inner = handler.getHandler();
                handler.unmanage(inner);
                restored.add(inner);
                children.add(inner);
            } else {
                children.add(child);
            }
        }
        contexts.setHandlers(children);
        restored.forEach(contexts::manage);
        LOG.info("Sling VT request threading removed from {}", server);
    }

    /**
     * Sizes Jetty's pool: {@code configured} threads at most (or {@link #autoPlatformThreads}), and Felix's minimum
     * where that fits, so that a smaller virtual-mode pool does not keep Jetty's 8 idle threads and a switch back
     * gets Felix's minimum again. Threads above a lowered size end once idle: all of them in one eviction round, not
     * one per idle timeout as Jetty would (1,000 threads would take 1,000 minutes), after 5 s of idleness in virtual
     * mode (its clock restarted at the switch, {@link #restartEvictionClock}) and Felix's idle timeout (Jetty's 60 s)
     * in kernel mode.
     */
    static void applyPlatformThreads(Server server, Installation installation, int configured, ThreadingMode mode) {
        if (server.getThreadPool() instanceof QueuedThreadPool qtp) {
            int maxThreads = configured == ThreadingSettings.AUTO ? autoPlatformThreads(qtp) : configured;
            int minThreads = Math.min(installation.felixMinThreads(), maxThreads);
            int surplus = qtp.getThreads() - minThreads;
            if (surplus > qtp.getMaxEvictCount()) {
                qtp.setMaxEvictCount(surplus);
            }
            setIdleTimeout(qtp, mode == ThreadingMode.VIRTUAL
                    ? Math.min(installation.felixIdleTimeout(), VIRTUAL_MODE_IDLE_TIMEOUT_MILLIS)
                    : installation.felixIdleTimeout());
            if (mode == ThreadingMode.VIRTUAL && surplus > 0) {
                restartEvictionClock(qtp);
            }
            if (qtp.getMaxThreads() == maxThreads && qtp.getMinThreads() == minThreads) {
                return;
            }
            try {
                qtp.setMaxThreads(maxThreads);
                qtp.setMinThreads(minThreads);
            } catch (IllegalStateException e) {
                LOG.error("Cannot set Jetty's max threads to {}: {}. Raise kernelMaxThreads/virtualModePlatformThreads in {}.",
                        maxThreads, e.getMessage(), VirtualThreadsConfig.PID);
            }
        }
    }

    /**
     * Sizes the header cache of Jetty's HTTP/1 parser on Felix's connectors: {@code entries}, or what Felix configured
     * ({@link ThreadingSettings#FELIX_HEADER_CACHE}). Jetty reads it when a connection opens, so it holds for the
     * connections opened from now on. Each keep-alive connection builds the cache once it has served a request, and
     * keeps it while its next request waits for admission: Jetty 12's 1,024 entries are a table of 1,024 x 48
     * characters, about 100 KB a connection (decision 0029).
     */
    static void applyHeaderCache(Installation installation, int entries) {
        installation.felixHeaderCaches().forEach((config, felix) ->
                config.setHeaderCacheSize(entries == ThreadingSettings.FELIX_HEADER_CACHE ? felix : entries));
    }

    /** The HTTP/1 configurations of Felix's connectors (not our hook's) and their header cache sizes now. */
    private static Map<HttpConfiguration, Integer> headerCaches(Server server) {
        Map<HttpConfiguration, Integer> sizes = new IdentityHashMap<>();
        for (Connector connector : server.getConnectors()) {
            if (connector instanceof HookConnector) {
                continue;
            }
            for (ConnectionFactory factory : connector.getConnectionFactories()) {
                if (factory instanceof HttpConnectionFactory http) {
                    sizes.putIfAbsent(http.getHttpConfiguration(), http.getHttpConfiguration().getHeaderCacheSize());
                }
            }
        }
        return Collections.unmodifiableMap(sizes);
    }

    /**
     * Jetty evicts no thread until one idle timeout after its last thread start, and an idle thread looks again only
     * when the timeout it waits with has passed (Felix's 60 s after kernel mode): the surplus of kernel mode would end
     * a minute or two after a switch (docs/UPSTREAM.md). One thread started now moves the first eviction to one short
     * idle timeout from now (the pool's maximum is raised by one for it, and lowered right after), and every idle
     * thread is woken, so that each waits again with the short timeout: one task per idle thread and one more (which
     * takes the new thread), each holding its thread until all have started (at most {@value #WAKE_MILLIS} ms), as a
     * thread that finished one task would otherwise take the next.
     */
    private static void restartEvictionClock(QueuedThreadPool qtp) {
        int tasks = qtp.getIdleThreads() + 1;
        CountDownLatch started = new CountDownLatch(tasks);
        Runnable wake = () -> {
            started.countDown();
            try {
                started.await(WAKE_MILLIS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        try {
            if (qtp.getMaxThreads() <= qtp.getThreads()) {
                qtp.setMaxThreads(qtp.getThreads() + 1);
            }
            for (int i = 0; i < tasks; i++) {
                qtp.execute(wake);
            }
        } catch (IllegalStateException | RejectedExecutionException e) {
            // A pool that is stopping, or refuses the size: its threads end as Jetty ends them.
            LOG.debug("Jetty's eviction clock not restarted: {}", e.toString());
        }
    }

    /**
     * The pool's own idle timeout, which its threads read at every wait. Its reserved-thread executor refuses a new
     * timeout while it runs ({@code IllegalStateException}, raised after the pool took the value) and keeps its own.
     */
    private static void setIdleTimeout(QueuedThreadPool qtp, int idleTimeout) {
        if (qtp.getIdleTimeout() == idleTimeout) {
            return;
        }
        try {
            qtp.setIdleTimeout(idleTimeout);
        } catch (IllegalStateException e) {
            LOG.debug("Jetty's reserved threads keep their idle timeout; the pool's is {} ms", qtp.getIdleTimeout());
        }
    }

    /** Sizes Jetty's pool for {@code settings} ({@link #platformThreads}). */
    static void applySettings(Server server, Installation installation, ThreadingSettings settings) {
        if (server.getThreadPool() instanceof QueuedThreadPool qtp) {
            applyPlatformThreads(server, installation, platformThreads(qtp, settings), settings.mode());
        }
    }

    /**
     * Jetty's pool for {@code settings}. Kernel mode: the kernelMaxThreads requests the admission runs at once, plus
     * the threads the connectors lease and {@link #SPARE_PLATFORM_THREADS}. The admission bounds the application's
     * requests; the spare threads parse request heads and run the web console while all of those run. A pool of
     * exactly kernelMaxThreads left the acceptor and selectors' share to the application and queued the console
     * behind the load (a status read took 7 to 30 s at 130 % of repo200's capacity). Virtual mode:
     * virtualModePlatformThreads as configured ({@link ThreadingSettings#AUTO} is resolved by applyPlatformThreads).
     */
    static int platformThreads(QueuedThreadPool qtp, ThreadingSettings settings) {
        return settings.mode() == ThreadingMode.KERNEL
                ? settings.kernelMaxThreads() + leasedThreads(qtp) + SPARE_PLATFORM_THREADS
                : settings.platformThreads();
    }

    /**
     * In virtual mode the pool only runs short tasks besides the threads the connectors lease (acceptors,
     * selectors, Jetty's reserved threads), so a few spare threads suffice; every thread more is an idle OS thread
     * under load.
     */
    static int autoPlatformThreads(QueuedThreadPool qtp) {
        return Math.max(MIN_AUTO_PLATFORM_THREADS, leasedThreads(qtp) + SPARE_PLATFORM_THREADS);
    }

    private static int leasedThreads(QueuedThreadPool qtp) {
        return qtp.getThreadPoolBudget() == null ? 0 : qtp.getThreadPoolBudget().getLeasedThreads();
    }

    /** Hands {@code child} from {@code from} to {@code to} while it keeps running. */
    private static void move(Handler.Sequence from, Handler child, Handler.Wrapper to) {
        from.unmanage(child);
        to.setHandler(child);
    }

    /** The first dynamic collection below the server, following single-child wrappers (statistics, gzip). */
    private static Handler.Sequence dynamicCollection(Server server) {
        Handler h = server.getHandler();
        while (h != null) {
            if (h instanceof Handler.Sequence sequence && sequence.isDynamic()) {
                return sequence;
            }
            h = h instanceof Handler.Singleton singleton ? singleton.getHandler() : null;
        }
        return null;
    }
}
