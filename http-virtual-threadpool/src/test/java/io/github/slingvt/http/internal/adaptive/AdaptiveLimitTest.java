package io.github.slingvt.http.internal.adaptive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.withinPercentage;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class AdaptiveLimitTest {

    private static final long ONE_SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final long HUNDRED_MILLIS = TimeUnit.MILLISECONDS.toNanos(100);

    @Test
    void growsByOnePerFinishedRequestWhileHalfOfItIsInUseAndTheCarriersHaveHeadroom() {
        AdaptiveLimit limit = new AdaptiveLimit(1, 1000, 100);
        for (int i = 0; i < 30; i++) {
            limit.completed(ONE_SECOND, 65, false); // 65 of at most 130: still half
        }
        assertThat(limit.limit()).isEqualTo(130);
    }

    @Test
    void doesNotGrowWhileTheLoadUsesLessThanHalfOfIt() {
        AdaptiveLimit limit = new AdaptiveLimit(1, 1000, 100);
        for (int i = 0; i < 30; i++) {
            limit.completed(ONE_SECOND, 49, false);
        }
        assertThat(limit.limit()).isEqualTo(100);
    }

    @Test
    void slowRequestsAloneNeverLowerIt() {
        // Waiting is what virtual threads make cheap: latency is not the signal, saturation is.
        AdaptiveLimit limit = new AdaptiveLimit(1, 1000, 100);
        for (int i = 0; i < 10; i++) {
            limit.completed(TimeUnit.MINUTES.toNanos(10), 100, false);
        }
        assertThat(limit.limit()).isEqualTo(110);
    }

    @Test
    void fallsByATenthPerSaturatedPeriodDownToTheMinimumAndNeverBelowOne() {
        AdaptiveLimit limit = new AdaptiveLimit(1, 1000, 1000);
        limit.saturated();
        assertThat(limit.limit()).isEqualTo(900);
        limit.saturated();
        assertThat(limit.limit()).isEqualTo(810);
        for (int i = 0; i < 200; i++) {
            limit.saturated();
        }
        assertThat(limit.limit()).isEqualTo(1);

        AdaptiveLimit floored = new AdaptiveLimit(50, 1000, 60);
        floored.saturated();
        floored.saturated();
        assertThat(floored.limit()).isEqualTo(50);
    }

    @Test
    void risesAgainWhenSaturationEnds() {
        AdaptiveLimit limit = new AdaptiveLimit(10, 1000, 200);
        for (int i = 0; i < 5; i++) {
            limit.saturated();
        }
        int low = limit.limit();
        assertThat(low).isLessThan(200);
        for (int i = 0; i < 100; i++) {
            limit.completed(ONE_SECOND, low, false);
        }
        assertThat(limit.limit()).isEqualTo(low + 100);
    }

    @Test
    void staysWithinItsBounds() {
        AdaptiveLimit limit = new AdaptiveLimit(5, 120, 500);
        assertThat(limit.limit()).isEqualTo(120);
        for (int i = 0; i < 50; i++) {
            limit.completed(ONE_SECOND, 120, false);
        }
        assertThat(limit.limit()).isEqualTo(120);
        assertThat(new AdaptiveLimit(5, 120, 1).limit()).isEqualTo(5);
        assertThatThrownBy(() -> new AdaptiveLimit(0, 10, 5)).hasMessageContaining("1 <= min <= max");
        assertThatThrownBy(() -> new AdaptiveLimit(20, 10, 5)).hasMessageContaining("1 <= min <= max");
    }

    @Test
    void underSaturationGrowsByTheMarginTimesTheUnsaturatedLatencyPerSecond() {
        AdaptiveLimit limit = new AdaptiveLimit(1, 100_000, 1000);
        for (int i = 0; i < 500; i++) {
            limit.completed(HUNDRED_MILLIS, 1000, false);
        }
        assertThat(limit.unsaturatedLatencyNanos()).isCloseTo(HUNDRED_MILLIS, withinPercentage(1));
        int before = limit.limit();
        for (int i = 0; i < 1000; i++) {
            limit.completed(HUNDRED_MILLIS, before, true);
        }
        // 1,000 requests x (1.5 x 100 ms + 100 ms) / 1 s = 250 steps, where carriers with headroom would have given 1,000.
        assertThat(limit.limit() - before).isBetween(249, 251);
    }

    @Test
    void latencyUnderSaturationDoesNotMoveTheUnsaturatedLatency() {
        AdaptiveLimit limit = new AdaptiveLimit(1, 100_000, 1000);
        for (int i = 0; i < 500; i++) {
            limit.completed(HUNDRED_MILLIS, 1000, false);
        }
        long measured = limit.unsaturatedLatencyNanos();
        for (int i = 0; i < 500; i++) {
            limit.completed(TimeUnit.SECONDS.toNanos(30), 1000, true); // queued in the carriers: not the requests' own
        }
        assertThat(limit.unsaturatedLatencyNanos()).isEqualTo(measured);
    }

    @Test
    void aRequestThatWaitedLongRaisesItByAtMostTenStepsUnderSaturation() {
        AdaptiveLimit limit = new AdaptiveLimit(1, 100_000, 1000);
        for (int i = 0; i < 1000; i++) {
            limit.completed(TimeUnit.MINUTES.toNanos(5), 1000, false);
        }
        int before = limit.limit();
        limit.completed(TimeUnit.MINUTES.toNanos(5), before, true);
        assertThat(limit.limit() - before).isEqualTo(AdaptiveLimit.MAX_STEPS);
    }

    @Test
    void sustainedSaturationSettlesNearLittlesConcurrencyWithTheMarginWhateverTheLatency() {
        // 1,000 requests a second finish; every 100 ms period is saturated (one drop each). The balance just before a
        // drop is 1,000/s x (1.5 x R0 + 100 ms); just after it 10 % less (the library's drop rounds down).
        assertThat(settled(TimeUnit.MILLISECONDS.toNanos(10))).isBetween(95, 120);   // 115
        assertThat(settled(HUNDRED_MILLIS)).isBetween(210, 255);                     // 250
        assertThat(settled(ONE_SECOND)).isBetween(1400, 1650);                       // 1,600
        assertThat(settled(TimeUnit.SECONDS.toNanos(3))).isBetween(4000, 4650);      // 4,600
    }

    /** The limit after 60 s of saturation at 1,000 finished requests a second of unsaturated latency {@code r0}. */
    private static int settled(long r0) {
        AdaptiveLimit limit = new AdaptiveLimit(1, 100_000, 200);
        for (int i = 0; i < 1000; i++) {
            limit.completed(r0, limit.limit(), false);
        }
        for (int period = 0; period < 600; period++) {
            for (int i = 0; i < 100; i++) {
                limit.completed(r0, limit.limit(), true);
            }
            limit.saturated();
        }
        return limit.limit();
    }
}
