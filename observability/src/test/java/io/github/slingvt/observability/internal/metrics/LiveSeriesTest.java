package io.github.slingvt.observability.internal.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.github.slingvt.http.api.HttpThreadsSnapshot;
import io.github.slingvt.http.api.ThreadingMode;
import io.github.slingvt.observability.internal.status.SchedulerStats;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** Points: rates from consecutive snapshots, percentiles of the interval, the mode, a bounded length. */
class LiveSeriesTest {

    private static final SchedulerStats.Figures CARRIERS = new SchedulerStats.Figures(true, 2, 2, 1, 5, "");

    @Test
    void aPointHasTheRatesOfItsIntervalAndThePercentilesOfItsRequests() {
        LiveSeries series = new LiveSeries(3);
        series.sample(1_000, 0, snapshot(ThreadingMode.VIRTUAL, 100, 0, 90), null, CARRIERS, 4);
        assertThat(series.toJson(1000).path("points")).as("the first call is the baseline").isEmpty();

        Histogram latencies = new Histogram(3_600_000_000L, 2);
        for (int i = 1; i <= 100; i++) {
            latencies.recordValue(i * 1_000L);
        }
        series.sample(3_000, 2_000_000_000L, snapshot(ThreadingMode.VIRTUAL, 300, 10, 280), latencies, CARRIERS, 8);
        ObjectNode json = series.toJson(1000);
        JsonNode p = json.path("points").get(0);
        assertThat(p.path("t").asLong()).isEqualTo(3_000);
        assertThat(p.path("admittedPerSecond").asDouble()).isEqualTo(100.0);
        assertThat(p.path("rejectedPerSecond").asDouble()).isEqualTo(5.0);
        assertThat(p.path("completedPerSecond").asDouble()).isEqualTo(95.0);
        assertThat(p.path("p50Millis").asDouble()).isBetween(49.5, 50.5);
        assertThat(p.path("p99Millis").asDouble()).isBetween(98.5, 99.5);
        assertThat(p.path("carriersBusy").asLong()).isEqualTo(1);
        assertThat(p.path("carriersQueued").asLong()).isEqualTo(5);
        assertThat(p.path("pinnedPerSecond").asDouble()).isEqualTo(2.0);
        assertThat(p.path("mode").asText()).isEqualTo("virtual");
        assertThat(json.path("updates").asLong()).isEqualTo(1);
    }

    @Test
    void noRequestsEndedMeansNoPercentilesAndTheOldestPointsGo() {
        LiveSeries series = new LiveSeries(2);
        series.sample(0, 0, snapshot(ThreadingMode.VIRTUAL, 0, 0, 0), null, CARRIERS, 0);
        for (int i = 1; i <= 4; i++) {
            ThreadingMode mode = i >= 3 ? ThreadingMode.KERNEL : ThreadingMode.VIRTUAL;
            series.sample(i * 1000L, i * 1_000_000_000L, snapshot(mode, 0, 0, 0), new Histogram(2), CARRIERS, 0);
        }
        ObjectNode json = series.toJson(1000);
        assertThat(json.path("updates").asLong()).isEqualTo(4);
        assertThat(json.path("points")).hasSize(2);
        assertThat(json.path("points").get(0).path("t").asLong()).isEqualTo(3000);
        assertThat(json.path("points").get(1).path("mode").asText()).isEqualTo("kernel");
        assertThat(json.path("points").get(1).path("p99Millis").isNull()).isTrue();
        SchedulerStats.Figures none = SchedulerStats.Figures.unavailable("JDK 21");
        series.sample(5000, 5_000_000_000L, snapshot(ThreadingMode.KERNEL, 0, 0, 0), null, none, 0);
        assertThat(series.toJson(1000).path("points").get(1).path("carriersBusy").isNull()).isTrue();
    }

    private static HttpThreadsSnapshot snapshot(ThreadingMode mode, long admitted, long rejected, long completed) {
        return new HttpThreadsSnapshot(mode, 0, 200, admitted - completed, 0, 0, admitted, rejected, completed, 0, 0,
                "");
    }
}
