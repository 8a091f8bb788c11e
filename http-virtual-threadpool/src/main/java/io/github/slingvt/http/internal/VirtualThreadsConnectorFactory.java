package io.github.slingvt.http.internal;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import io.github.slingvt.config.ConfigGuard;
import io.github.slingvt.config.ConfigProblem;
import io.github.slingvt.http.api.HttpThreads;
import io.github.slingvt.http.api.HttpThreadsSnapshot;
import io.github.slingvt.http.api.RequestListener;
import io.github.slingvt.http.api.ThreadingMode;
import org.apache.felix.http.jetty.ConnectorFactory;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.metatype.annotations.Designate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The way into an unpatched Felix HTTP Jetty 12: Felix hands every {@link ConnectorFactory} its running
 * {@link Server}. We use that call to put a {@link DispatchHandler} around Felix's servlet context, so every
 * request of every Felix connector (the public port included) passes through it, without restarting Felix's
 * connectors. The connector we must return is a {@link HookConnector}: no port, no acceptor, it serves nothing.
 * <p>
 * Other bundles read the threading through {@link HttpThreads} (this component, under that interface only).
 */
@Component(service = {ConnectorFactory.class, HttpThreads.class}, configurationPid = VirtualThreadsConfig.PID,
        configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = VirtualThreadsConfig.class)
public final class VirtualThreadsConnectorFactory implements ConnectorFactory, HttpThreads {

    private static final Logger LOG = LoggerFactory.getLogger(VirtualThreadsConnectorFactory.class);

    private final ConfigGuard guard;
    private final ScheduledExecutorService timeouts;
    private final ThreadingState state;
    /**
     * Guarded by itself. An entry lives from Felix's createConnector call until Felix stops our connector (the
     * {@link HookConnector} tells), so a server Felix dropped is not kept: its handlers reference it.
     */
    private final Map<Server, ServerInstaller.Installation> installed = new IdentityHashMap<>();

    /**
     * Takes the raw properties, not {@link VirtualThreadsConfig}: DS would fail the activation on a value of the wrong
     * type before this class could refuse it, and the requests would silently stay on Jetty's platform threads.
     */
    @Activate
    public VirtualThreadsConnectorFactory(@Reference ConfigGuard guard, Map<String, Object> properties) {
        requireVirtualThreads();
        this.guard = guard;
        // A platform thread, not a virtual one: it also takes the adaptive limit's carrier readings, and a reader
        // that needs a free carrier to run sees the carriers free far more often than they are (measured on a virtual
        // thread: AdaptiveModeIT's adaptive peak went from 114-142 to 189 and 297 of 300 clients).
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "slingvt-http-admission-timeouts");
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true);
        this.timeouts = timer;
        this.state = new ThreadingState(timeouts);
        apply(properties);
    }

    /** Metrics bundles come and go while requests run: the request path sees the change at its next request. */
    @Reference(service = RequestListener.class, cardinality = ReferenceCardinality.MULTIPLE,
            policy = ReferencePolicy.DYNAMIC, unbind = "unbindRequestListener")
    void bindRequestListener(RequestListener listener) {
        state.counters().addListener(listener);
    }

    void unbindRequestListener(RequestListener listener) {
        state.counters().removeListener(listener);
    }

    @Modified
    void modified(Map<String, Object> properties) {
        apply(properties);
    }

    @Deactivate
    void deactivate() {
        synchronized (installed) {
            installed.forEach(ServerInstaller::uninstall);
            installed.clear();
        }
        state.close();
        // Waiting requests still get their answer: admitted ones run, timed-out ones are rejected.
        timeouts.shutdown();
    }

    @Override
    public Connector createConnector(Server server) {
        synchronized (installed) {
            ServerInstaller.Installation installation = ServerInstaller.install(server, state);
            if (installation != null) {
                installed.put(server, installation);
            }
        }
        return new HookConnector(server, () -> hookStopped(server));
    }

    /**
     * Felix stops our connector in two cases. It stops the whole server (a rebuild or shutdown): the server is not
     * running any more, and what was installed on it only has to be forgotten. Or our factory service is going away
     * (this bundle stops, updates or uninstalls) while the server keeps serving: then the handlers come out and
     * Jetty's pool gets Felix's size back now, because {@link #deactivate()} runs after the service is gone.
     */
    private void hookStopped(Server server) {
        ServerInstaller.Installation installation;
        synchronized (installed) {
            installation = installed.remove(server);
        }
        if (installation != null && server.isRunning()) {
            ServerInstaller.uninstall(server, installation);
        }
    }

    /** How many servers have our handlers now (one per Felix Jetty, zero after Felix stopped it). */
    int installedServers() {
        synchronized (installed) {
            return installed.size();
        }
    }

    @Override
    public HttpThreadsSnapshot snapshot() {
        return state.snapshot();
    }

    private void apply(Map<String, Object> properties) {
        ThreadingSettings next = guard.read(VirtualThreadsConfig.PID, properties, ThreadingSettings::read);
        List<ConfigProblem> problems = guard.problems(VirtualThreadsConfig.PID);
        if (!problems.isEmpty()) {
            // The guard logged the ERROR; the snapshot carries the reason to JMX and the console.
            state.refused(problems.stream().map(ConfigProblem::message).collect(Collectors.joining("; ")));
        }
        ThreadingSettings previous = state.settings();
        state.apply(next);
        synchronized (installed) {
            installed.forEach((s, installation) -> {
                ServerInstaller.applySettings(s, installation, next);
                ServerInstaller.applyHeaderCache(installation, next.connectionHeaderCache());
            });
        }
        if (!next.equals(previous)) {
            LOG.info("HTTP request threads: mode={} maxConcurrentRequests={} queueTimeout={}ms maxQueuedRequests={} "
                    + "Jetty platform threads={}", next.mode().label(), next.capLabel(),
                    next.queueTimeoutMillis(), next.maxQueuedRequests(), poolLabel(next));
        }
    }

    private static String poolLabel(ThreadingSettings settings) {
        if (settings.mode() == ThreadingMode.KERNEL) {
            return settings.kernelMaxThreads() + " + the connectors' + " + ServerInstaller.SPARE_PLATFORM_THREADS;
        }
        return settings.platformThreads() == ThreadingSettings.AUTO ? "auto"
                : String.valueOf(settings.platformThreads());
    }

    private static void requireVirtualThreads() {
        if (Runtime.version().feature() < 21) {
            throw new IllegalStateException("Sling VT needs Java 21 or newer for virtual threads; this JVM is "
                    + Runtime.version() + ". Start Sling with a JDK 21+ (for example Temurin 25).");
        }
    }
}
