package io.github.slingvt.observability.internal.metrics;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;

import io.github.slingvt.http.api.HttpThreads;
import io.github.slingvt.http.api.HttpThreadsSnapshot;
import io.github.slingvt.http.api.ThreadingMode;
import io.github.slingvt.observability.internal.status.SchedulerStats;
import io.github.slingvt.threads.api.ThreadPoolMode;
import io.github.slingvt.threads.api.ThreadPoolSnapshot;
import io.github.slingvt.threads.api.ThreadPools;

/**
 * The gauges of the registry. Each reads its source when read (a scrape, the console), so nothing is copied on the
 * request path. The pool gauges follow the pools: {@link #syncPools()} adds those of new pools and removes those of
 * pools that are gone.
 */
final class Gauges {

    private final MetricRegistry registry;
    private final Supplier<ThreadPools> pools;
    private final Set<String> poolSegments = new HashSet<>();

    Gauges(MetricRegistry registry, HttpThreads http, SchedulerStats scheduler, Supplier<ThreadPools> pools) {
        this.registry = registry;
        this.pools = pools;
        http(MetricNames.IN_FLIGHT, http, HttpThreadsSnapshot::inFlight);
        http(MetricNames.QUEUED, http, HttpThreadsSnapshot::queued);
        http(MetricNames.CONCURRENCY_LIMIT, http, HttpThreadsSnapshot::concurrencyLimit);
        http(MetricNames.NEWEST_FIRST, http, s -> s.newestFirst() ? 1 : 0);
        http(MetricNames.VIRTUAL_MODE, http, s -> s.mode() == ThreadingMode.VIRTUAL ? 1 : 0);
        // JDK 24+ only: on JDK 21-23 the carriers' figures do not exist, and a gauge that reads 0 would say "idle".
        if (scheduler.read().available()) {
            gauge(MetricNames.CARRIERS_PARALLELISM, () -> scheduler.read().parallelism());
            gauge(MetricNames.CARRIERS_POOL_SIZE, () -> scheduler.read().poolSize());
            gauge(MetricNames.CARRIERS_MOUNTED, () -> scheduler.read().mountedVirtualThreadCount());
            gauge(MetricNames.CARRIERS_QUEUED, () -> scheduler.read().queuedVirtualThreadCount());
        }
    }

    /** Called by the sampler every second and on activation. */
    synchronized void syncPools() {
        ThreadPools source = pools.get();
        List<ThreadPoolSnapshot> now = source == null ? List.of() : source.pools();
        Set<String> seen = new HashSet<>();
        for (ThreadPoolSnapshot pool : now) {
            String segment = MetricNames.poolSegment(pool.name());
            seen.add(segment);
            if (poolSegments.add(segment)) {
                String name = pool.name();
                pool(segment, "active", name, ThreadPoolSnapshot::running);
                pool(segment, "queued", name, ThreadPoolSnapshot::queued);
                pool(segment, "completed", name, ThreadPoolSnapshot::completed);
                pool(segment, "virtual", name, p -> p.mode() == ThreadPoolMode.VIRTUAL ? 1 : 0);
            }
        }
        for (String gone : Set.copyOf(poolSegments)) {
            if (!seen.contains(gone)) {
                poolSegments.remove(gone);
                for (String figure : MetricNames.POOL_FIGURES) {
                    registry.remove(MetricNames.POOLS + gone + "." + figure);
                }
            }
        }
    }

    private void http(String name, HttpThreads http, ToLongFunction<HttpThreadsSnapshot> figure) {
        gauge(name, () -> figure.applyAsLong(http.snapshot()));
    }

    private void pool(String segment, String figure, String poolName, ToLongFunction<ThreadPoolSnapshot> read) {
        gauge(MetricNames.POOLS + segment + "." + figure, () -> {
            ThreadPools source = pools.get();
            if (source == null) {
                return 0L;
            }
            return source.pools().stream().filter(p -> p.name().equals(poolName)).mapToLong(read).findFirst()
                    .orElse(0L);
        });
    }

    private void gauge(String name, Supplier<Long> read) {
        registry.register(name, new Reading(read));
    }

    /** A named class, not a lambda: Dropwizard exports name the gauge's class in their help text. */
    static final class Reading implements Gauge<Long> {
        private final Supplier<Long> read;

        Reading(Supplier<Long> read) {
            this.read = read;
        }

        @Override
        public Long getValue() {
            return read.get();
        }
    }
}
