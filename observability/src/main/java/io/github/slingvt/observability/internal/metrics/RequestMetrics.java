package io.github.slingvt.observability.internal.metrics;

import java.util.concurrent.TimeUnit;

import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;

import io.github.slingvt.http.api.RequestListener;
import io.github.slingvt.http.api.ThreadingMode;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * What the HTTP bundle tells of each request, recorded twice: in Dropwizard timers and meters of the registry (what
 * Sling's console, JMX and Prometheus read, quantiles over the last minutes) and in an HdrHistogram recorder whose
 * per-second intervals give the live chart percentiles that follow a mode switch within a second.
 */
final class RequestMetrics implements RequestListener {

    /** Microseconds, up to an hour, 2 significant digits: a few KB, and a percentile within 1 %. */
    private static final long MAX_MICROS = TimeUnit.HOURS.toMicros(1);

    private final Timer virtual;
    private final Timer platform;
    private final Meter admitted;
    private final Meter rejected;
    private final Meter completed;
    private final Meter abandoned;
    private final Recorder interval = new Recorder(1, MAX_MICROS, 2);
    private Histogram reused;

    RequestMetrics(MetricRegistry registry) {
        this.virtual = registry.timer(MetricNames.REQUESTS_VIRTUAL);
        this.platform = registry.timer(MetricNames.REQUESTS_PLATFORM);
        this.admitted = registry.meter(MetricNames.ADMITTED);
        this.rejected = registry.meter(MetricNames.REJECTED);
        this.completed = registry.meter(MetricNames.COMPLETED);
        this.abandoned = registry.meter(MetricNames.ABANDONED);
    }

    @Override
    public void admitted(ThreadingMode threadKind) {
        admitted.mark();
    }

    @Override
    public void completed(ThreadingMode threadKind, long nanos) {
        (threadKind == ThreadingMode.VIRTUAL ? virtual : platform).update(nanos, TimeUnit.NANOSECONDS);
        completed.mark();
        interval.recordValue(Math.max(1, Math.min(MAX_MICROS, nanos / 1_000)));
    }

    @Override
    public void rejected() {
        rejected.mark();
    }

    @Override
    public void abandoned() {
        abandoned.mark();
    }

    /** The latencies recorded since the previous call, in microseconds; called by one sampler thread only. */
    synchronized Histogram takeInterval() {
        reused = interval.getIntervalHistogram(reused);
        return reused;
    }
}
