package io.github.slingvt.observability.internal.metrics;

import java.util.Dictionary;
import java.util.Hashtable;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.github.slingvt.config.ConfigGuard;
import io.github.slingvt.http.api.HttpThreads;
import io.github.slingvt.http.api.RequestListener;
import io.github.slingvt.observability.internal.pinning.PinnedThreads;
import io.github.slingvt.observability.internal.status.SchedulerStats;
import io.github.slingvt.threads.api.ThreadPools;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.osgi.service.metatype.annotations.Designate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes the {@code slingvt} registry (a {@code MetricRegistry} service with {@code name=slingvt}, the form Sling
 * Commons Metrics' consumers and the Prometheus endpoint pick up), listens to the HTTP bundle's requests and samples
 * the live series every second. Disabled by configuration it registers nothing and costs the request path nothing.
 * The registry is registered by hand, not as this component's service, because its service object must be the
 * registry itself and carry the {@code name} property.
 */
@Component(service = LiveMetrics.class, configurationPid = MetricsConfig.PID,
        configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = MetricsConfig.class)
public final class SlingVtMetrics implements LiveMetrics {

    static final long INTERVAL_MILLIS = 1000;
    /** Five minutes at one point per second. */
    static final int POINTS = 300;
    private static final Logger LOG = LoggerFactory.getLogger(SlingVtMetrics.class);

    private final boolean enabled;
    private final LiveSeries series = new LiveSeries(POINTS);
    private final HttpThreads http;
    private final PinnedThreads pinning;
    private final SchedulerStats scheduler = SchedulerStats.platform();
    private final MetricRegistry registry = new MetricRegistry();
    private final ServiceRegistration<?> registryRegistration;
    private final ServiceRegistration<?> listenerRegistration;
    private final ScheduledExecutorService sampler;
    private final Gauges gauges;
    private final RequestMetrics requests;
    private final Timer pinned;
    private final LongConsumer pinnedListener;

    /** commons-threads-virtual may come and go: its pools' gauges follow at the next sample. */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile ThreadPools pools;

    @Activate
    public SlingVtMetrics(@Reference HttpThreads http, @Reference PinnedThreads pinning, @Reference ConfigGuard guard,
            BundleContext context, Map<String, Object> properties) {
        this.http = http;
        this.pinning = pinning;
        this.enabled = guard.read(MetricsConfig.PID, properties, r -> r.bool("enabled", true));
        if (!enabled) {
            LOG.info("Sling VT metrics disabled by configuration {}", MetricsConfig.PID);
            this.registryRegistration = null;
            this.listenerRegistration = null;
            this.sampler = null;
            this.gauges = null;
            this.requests = null;
            this.pinned = null;
            this.pinnedListener = null;
            return;
        }
        this.requests = new RequestMetrics(registry);
        this.pinned = registry.timer(MetricNames.PINNED);
        this.pinnedListener = nanos -> pinned.update(nanos, TimeUnit.NANOSECONDS);
        pinning.addListener(pinnedListener);
        this.gauges = new Gauges(registry, http, scheduler, () -> pools);
        gauges.syncPools();
        Dictionary<String, Object> registryProperties = new Hashtable<>();
        registryProperties.put("name", MetricNames.REGISTRY);
        registryProperties.put("service.description", "Sling VT metrics");
        this.registryRegistration = context.registerService(MetricRegistry.class, registry, registryProperties);
        this.listenerRegistration = context.registerService(RequestListener.class, requests, null);
        // A platform thread: a sampler that needs a free carrier would miss its ticks exactly when the carriers are
        // saturated, which is when the chart matters.
        this.sampler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "slingvt-metrics-sampler");
            t.setDaemon(true);
            return t;
        });
        sampler.scheduleAtFixedRate(this::sample, 0, INTERVAL_MILLIS, TimeUnit.MILLISECONDS);
    }

    @Deactivate
    void deactivate() {
        if (!enabled) {
            return;
        }
        sampler.shutdownNow();
        pinning.removeListener(pinnedListener);
        unregister(listenerRegistration);
        unregister(registryRegistration);
    }

    @Override
    public ObjectNode series() {
        if (!enabled) {
            ObjectNode off = series.toJson(INTERVAL_MILLIS).removeAll();
            off.put("enabled", false);
            off.put("reason", "metrics are disabled in configuration " + MetricsConfig.PID);
            return off;
        }
        return series.toJson(INTERVAL_MILLIS);
    }

    /** The registry, for tests of this bundle. */
    MetricRegistry registry() {
        return registry;
    }

    private void sample() {
        try {
            gauges.syncPools();
            series.sample(System.currentTimeMillis(), System.nanoTime(), http.snapshot(), requests.takeInterval(),
                    scheduler.read(), pinning.count());
        } catch (RuntimeException e) {
            // A scheduled task that throws is never run again: log and keep the chart going.
            LOG.warn("Sampling the live metrics failed", e);
        }
    }

    private static void unregister(ServiceRegistration<?> registration) {
        try {
            registration.unregister();
        } catch (IllegalStateException e) {
            LOG.debug("Already unregistered (the bundle is stopping)", e);
        }
    }
}
