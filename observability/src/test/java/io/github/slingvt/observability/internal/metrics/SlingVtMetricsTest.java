package io.github.slingvt.observability.internal.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import javax.management.MBeanServerFactory;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;

import io.github.slingvt.config.internal.ConfigGuardService;
import io.github.slingvt.http.api.HttpThreadsSnapshot;
import io.github.slingvt.http.api.RequestListener;
import io.github.slingvt.http.api.ThreadingMode;
import io.github.slingvt.observability.internal.Fakes;
import io.github.slingvt.observability.internal.pinning.PinnedEvent;
import io.github.slingvt.observability.internal.pinning.PinningStats;
import io.github.slingvt.observability.internal.status.SchedulerStats;
import io.github.slingvt.threads.api.ThreadPoolMode;
import io.github.slingvt.threads.api.ThreadPoolSnapshot;
import org.apache.sling.testing.mock.osgi.MockOsgi;
import org.junit.jupiter.api.Test;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;

/** The registry mirrors the counters it is fed and the snapshots it reads; disabled, nothing is registered. */
class SlingVtMetricsTest {

    private final ConfigGuardService guard = new ConfigGuardService();
    private final Fakes.Http http = new Fakes.Http();
    private final PinningStats pinning = new PinningStats();
    private final BundleContext context = MockOsgi.newBundleContext();

    @Test
    void registersTheSlingvtRegistryAndAListenerWhoseEventsItCounts() throws Exception {
        SlingVtMetrics metrics = new SlingVtMetrics(http, pinning, guard, context, Map.of());
        try {
            ServiceReference<MetricRegistry> ref = context.getServiceReference(MetricRegistry.class);
            assertThat(ref.getProperty("name")).isEqualTo("slingvt");
            MetricRegistry registry = context.getService(ref);
            RequestListener listener = context.getService(context.getServiceReference(RequestListener.class));

            for (int i = 0; i < 3; i++) {
                listener.admitted(ThreadingMode.VIRTUAL);
                listener.completed(ThreadingMode.VIRTUAL, TimeUnit.MILLISECONDS.toNanos(40));
            }
            listener.admitted(ThreadingMode.KERNEL);
            listener.completed(ThreadingMode.KERNEL, TimeUnit.MILLISECONDS.toNanos(7));
            listener.rejected();
            listener.abandoned();
            listener.abandoned();
            pinning.record(new PinnedEvent(TimeUnit.MILLISECONDS.toNanos(30), "t", "", List.of("a.B.c")));

            assertThat(registry.timer(MetricNames.REQUESTS_VIRTUAL).getCount()).isEqualTo(3);
            assertThat(registry.timer(MetricNames.REQUESTS_VIRTUAL).getSnapshot().getMedian())
                    .isEqualTo(TimeUnit.MILLISECONDS.toNanos(40));
            assertThat(registry.timer(MetricNames.REQUESTS_PLATFORM).getCount()).isEqualTo(1);
            assertThat(registry.meter(MetricNames.ADMITTED).getCount()).isEqualTo(4);
            assertThat(registry.meter(MetricNames.COMPLETED).getCount()).isEqualTo(4);
            assertThat(registry.meter(MetricNames.REJECTED).getCount()).isEqualTo(1);
            assertThat(registry.meter(MetricNames.ABANDONED).getCount()).isEqualTo(2);
            assertThat(registry.timer(MetricNames.PINNED).getCount()).isEqualTo(1);
            assertThat(registry.timer(MetricNames.PINNED).getSnapshot().getMax())
                    .isEqualTo(TimeUnit.MILLISECONDS.toNanos(30));
        } finally {
            metrics.deactivate();
        }
        assertThat(context.getServiceReference(MetricRegistry.class)).as("unregistered").isNull();
        assertThat(context.getServiceReference(RequestListener.class)).isNull();
        pinning.record(new PinnedEvent(1, "t", "", List.of("a.B.c")));
    }

    @Test
    void disabledRegistersNothingAndTheSeriesSaysWhy() {
        SlingVtMetrics metrics = new SlingVtMetrics(http, pinning, guard, context, Map.of("enabled", false));
        assertThat(context.getServiceReference(MetricRegistry.class)).isNull();
        assertThat(context.getServiceReference(RequestListener.class)).isNull();
        assertThat(metrics.series().path("enabled").asBoolean()).isFalse();
        assertThat(metrics.series().path("reason").asText()).contains(MetricsConfig.PID);
        metrics.deactivate();
    }

    @Test
    void gaugesReadTheSnapshotTheCarriersAndThePoolsWhenRead() {
        MetricRegistry registry = new MetricRegistry();
        http.now = new HttpThreadsSnapshot(ThreadingMode.KERNEL, 0, 200, 7, 9, 3, 100, 2, 93, 0, 0, "", true, 42, 1,
                0, true);
        Fakes.Pools[] pools = {new Fakes.Pools("", List.of(pool("default", 5), pool("oak.io", 1)), List.of())};
        Gauges gauges = new Gauges(registry, http, SchedulerStats.platform(), () -> pools[0]);
        gauges.syncPools();

        assertThat(value(registry, MetricNames.IN_FLIGHT)).isEqualTo(7L);
        assertThat(value(registry, MetricNames.QUEUED)).isEqualTo(3L);
        assertThat(value(registry, MetricNames.CONCURRENCY_LIMIT)).isEqualTo(42L);
        assertThat(value(registry, MetricNames.NEWEST_FIRST)).isEqualTo(1L);
        assertThat(value(registry, MetricNames.VIRTUAL_MODE)).isEqualTo(0L);
        assertThat(value(registry, "slingvt.pools.default.active")).isEqualTo(5L);
        assertThat(value(registry, "slingvt.pools.default.virtual")).isEqualTo(1L);
        assertThat(value(registry, "slingvt.pools.oak_io.completed")).as("dots in a pool name").isEqualTo(11L);
        http.now = Fakes.idle();
        assertThat(value(registry, MetricNames.IN_FLIGHT)).as("read when read").isEqualTo(0L);
        assertThat(value(registry, MetricNames.VIRTUAL_MODE)).isEqualTo(1L);

        SchedulerStats.Figures carriers = SchedulerStats.platform().read();
        assertThat(registry.getGauges().containsKey(MetricNames.CARRIERS_PARALLELISM))
                .as("carriers' gauges exactly where the JDK has the figures").isEqualTo(carriers.available());
        if (carriers.available()) {
            assertThat(value(registry, MetricNames.CARRIERS_PARALLELISM)).isEqualTo(carriers.parallelism());
        }

        pools[0] = new Fakes.Pools("", List.of(pool("default", 2)), List.of());
        gauges.syncPools();
        assertThat(registry.getGauges().keySet()).as("a pool that is gone takes its gauges along")
                .noneMatch(name -> name.startsWith("slingvt.pools.oak_io."));
        assertThat(value(registry, "slingvt.pools.default.active")).isEqualTo(2L);
    }

    @Test
    void withoutTheSchedulerBeanThereAreNoCarrierGauges() {
        MetricRegistry registry = new MetricRegistry();
        new Gauges(registry, http, new SchedulerStats(MBeanServerFactory.newMBeanServer()), () -> null).syncPools();
        assertThat(registry.getGauges().keySet()).noneMatch(name -> name.startsWith("slingvt.carriers."))
                .noneMatch(name -> name.startsWith(MetricNames.POOLS)).contains(MetricNames.IN_FLIGHT);
    }

    private static ThreadPoolSnapshot pool(String name, int running) {
        return new ThreadPoolSnapshot(name, ThreadPoolMode.VIRTUAL, running, 0, 10L + running, 0, 10, 0);
    }

    private static Object value(MetricRegistry registry, String name) {
        Gauge<?> gauge = registry.getGauges().get(name);
        assertThat(gauge).as("gauge %s", name).isNotNull();
        return gauge.getValue();
    }
}
