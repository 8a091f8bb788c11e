package io.github.slingvt.observability.internal.metrics;

import java.util.ArrayDeque;
import java.util.Deque;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.github.slingvt.http.api.HttpThreadsSnapshot;
import io.github.slingvt.observability.internal.status.SchedulerStats;
import org.HdrHistogram.Histogram;

/**
 * The last minutes, one point per sampling interval, for the console page's live chart: requests in flight and
 * queued, admitted and rejected per second, the p50 and p99 of the requests that ended in the interval, busy carriers
 * and pinned events per second, and the mode (a change is the chart's mark). Rates come from the counters of two
 * consecutive snapshots, so they agree with the status JSON.
 */
final class LiveSeries {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final int capacity;
    private final Deque<ObjectNode> points = new ArrayDeque<>();
    private HttpThreadsSnapshot previous;
    private long previousPinned;
    private long previousNanos;
    private long updates;

    /** @param capacity how many points are kept (300 at one per second: five minutes) */
    LiveSeries(int capacity) {
        this.capacity = capacity;
    }

    /**
     * Adds a point. The first call only takes the baseline of the rates.
     *
     * @param latencyMicros latencies of the requests that ended since the previous call
     */
    synchronized void sample(long epochMillis, long nanoTime, HttpThreadsSnapshot http, Histogram latencyMicros,
            SchedulerStats.Figures carriers, long pinnedCount) {
        if (previous != null) {
            double seconds = Math.max(1e-3, (nanoTime - previousNanos) / 1e9);
            ObjectNode p = NODES.objectNode();
            p.put("t", epochMillis);
            p.put("mode", http.mode().label());
            p.put("inFlight", http.inFlight());
            p.put("queued", http.queued());
            p.put("limit", http.concurrencyLimit());
            p.put("admittedPerSecond", round((http.admitted() - previous.admitted()) / seconds));
            p.put("rejectedPerSecond", round((http.rejected() - previous.rejected()) / seconds));
            p.put("completedPerSecond", round((http.completed() - previous.completed()) / seconds));
            if (latencyMicros != null && latencyMicros.getTotalCount() > 0) {
                p.put("p50Millis", round(latencyMicros.getValueAtPercentile(50) / 1000.0));
                p.put("p99Millis", round(latencyMicros.getValueAtPercentile(99) / 1000.0));
            } else {
                p.putNull("p50Millis");
                p.putNull("p99Millis");
            }
            if (carriers.available()) {
                p.put("carriersBusy", carriers.mountedVirtualThreadCount());
                p.put("carriers", carriers.parallelism());
                p.put("carriersQueued", carriers.queuedVirtualThreadCount());
            } else {
                p.putNull("carriersBusy");
                p.putNull("carriers");
                p.putNull("carriersQueued");
            }
            p.put("pinnedPerSecond", round((pinnedCount - previousPinned) / seconds));
            points.addLast(p);
            while (points.size() > capacity) {
                points.removeFirst();
            }
            updates++;
        }
        previous = http;
        previousPinned = pinnedCount;
        previousNanos = nanoTime;
    }

    /** {@code {"updates": n, "points": [...]}}, oldest point first; {@code updates} counts every point ever added. */
    synchronized ObjectNode toJson(long intervalMillis) {
        ObjectNode root = NODES.objectNode();
        root.put("enabled", true);
        root.put("intervalMillis", intervalMillis);
        root.put("updates", updates);
        ArrayNode array = root.putArray("points");
        points.forEach(array::add);
        return root;
    }

    private static double round(double value) {
        return Math.round(value * 10) / 10.0;
    }
}
