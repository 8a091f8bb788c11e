package io.github.slingvt.http.internal.adaptive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class AdaptiveLimitTest {

    private static final long ONE_SECOND = TimeUnit.SECONDS.toNanos(1);

    @Test
    void growsByOnePerFinishedRequestWhileHalfOfItIsInUse() {
        AdaptiveLimit limit = new AdaptiveLimit(1, 1000, 100);
        for (int i = 0; i < 30; i++) {
            limit.completed(ONE_SECOND, 65); // 65 of at most 130: still half
        }
        assertThat(limit.limit()).isEqualTo(130);
    }

    @Test
    void doesNotGrowWhileTheLoadUsesLessThanHalfOfIt() {
        AdaptiveLimit limit = new AdaptiveLimit(1, 1000, 100);
        for (int i = 0; i < 30; i++) {
            limit.completed(ONE_SECOND, 49);
        }
        assertThat(limit.limit()).isEqualTo(100);
    }

    @Test
    void slowRequestsAloneNeverLowerIt() {
        // Waiting is what virtual threads make cheap: latency is not the signal, saturation is.
        AdaptiveLimit limit = new AdaptiveLimit(1, 1000, 100);
        for (int i = 0; i < 10; i++) {
            limit.completed(TimeUnit.MINUTES.toNanos(10), 100);
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
            limit.completed(ONE_SECOND, low);
        }
        assertThat(limit.limit()).isEqualTo(low + 100);
    }

    @Test
    void staysWithinItsBounds() {
        AdaptiveLimit limit = new AdaptiveLimit(5, 120, 500);
        assertThat(limit.limit()).isEqualTo(120);
        for (int i = 0; i < 50; i++) {
            limit.completed(ONE_SECOND, 120);
        }
        assertThat(limit.limit()).isEqualTo(120);
        assertThat(new AdaptiveLimit(5, 120, 1).limit()).isEqualTo(5);
        assertThatThrownBy(() -> new AdaptiveLimit(0, 10, 5)).hasMessageContaining("1 <= min <= max");
        assertThatThrownBy(() -> new AdaptiveLimit(20, 10, 5)).hasMessageContaining("1 <= min <= max");
    }
}
