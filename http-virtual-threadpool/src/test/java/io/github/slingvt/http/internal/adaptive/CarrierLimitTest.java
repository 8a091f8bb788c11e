package io.github.slingvt.http.internal.adaptive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The law of {@code maxConcurrentRequests=auto} on two carriers, driven with the readings a load would produce: a
 * request of a CPU-bound load is runnable all its life, one of a waiting load a small share of it.
 */
class CarrierLimitTest {

    private static final int CARRIERS = 2;

    /** What the scheduler shows when {@code running} requests each want a carrier {@code share} of their life. */
    private static CarrierReading load(int running, double share) {
        long runnable = Math.round(running * share);
        long mounted = Math.min(CARRIERS, runnable);
        return CarrierReading.ofCounts(CARRIERS, mounted, runnable - mounted);
    }

    /** Readings of a closed-loop load of {@code clients}: as many run as the limit lets, the rest wait. */
    private static int settle(CarrierLimit limit, int clients, double share, int readings) {
        for (int i = 0; i < readings; i++) {
            int running = Math.min(clients, limit.limit());
            limit.update(load(running, share), running, clients - running);
        }
        return limit.limit();
    }

    @Test
    void aCpuBoundLoadSaturatedFromTheStartFallsToTheMinimumWithinAFewReadings() {
        CarrierLimit limit = new CarrierLimit(20, 10_000, 200);
        // 8,000 clients, all runnable: four runnable per carrier would be 8 requests, the floor is 20.
        assertThat(settle(limit, 8_000, 1.0, 10)).isEqualTo(20);
    }

    @Test
    void aLimitThatStartedAtItsMaximumComesDownAsWell() {
        CarrierLimit limit = new CarrierLimit(20, 10_000, 10_000);
        assertThat(settle(limit, 8_000, 1.0, 20)).isEqualTo(20);
    }

    @Test
    void underSaturationItSettlesNearFourRunnablePerCarrier() {
        // Each request runnable 1 % of its life (R = 100 ms, 1 ms of CPU): 2 carriers x 4 / 0.01 = 800.
        CarrierLimit limit = new CarrierLimit(20, 10_000, 10_000);
        int settled = settle(limit, 8_000, 0.01, 30);
        assertThat(settled).isBetween(790, 830);
        assertThat(load(settled, 0.01).runnable()).as("one running and three waiting per carrier").isBetween(7L, 9L);
    }

    @Test
    void aLimitHeldTooLowUnderSaturationRisesToTheEstimate() {
        // Started at the floor with a load whose requests are runnable 1 % of their life: it saturates only
        // once the limit is near 800, and while requests wait it doubles, then settles there.
        CarrierLimit limit = new CarrierLimit(20, 10_000, 20);
        assertThat(settle(limit, 8_000, 0.01, 30)).isBetween(790, 830);
    }

    @Test
    void aLoadThatMostlyWaitsIsNeverHeldBack() {
        // R = 1 s, 0.5 ms of CPU: 8,000 clients make 4 runnable, never more than one queued per carrier.
        CarrierLimit limit = new CarrierLimit(20, 10_000, 200);
        assertThat(settle(limit, 8_000, 0.0005, 8)).as("doubles from 200 while requests wait").isEqualTo(10_000);
    }

    @Test
    void itRecoversWhenSaturationEndsAndFollowsAChangeOfTheMix() {
        CarrierLimit limit = new CarrierLimit(20, 10_000, 200);
        assertThat(settle(limit, 8_000, 1.0, 10)).isEqualTo(20);
        // The mix changes to requests that wait: the carriers have room, requests wait for admission.
        assertThat(settle(limit, 8_000, 0.0005, 10)).isEqualTo(10_000);
        // And back to a heavier mix than before: 2 carriers x 4 / 0.05 = 160.
        assertThat(settle(limit, 8_000, 0.05, 20)).isBetween(155, 170);
    }

    @Test
    void oneSaturatedReadingAloneDoesNotLowerIt() {
        CarrierLimit limit = new CarrierLimit(20, 10_000, 200);
        limit.update(load(200, 1.0), 200, 100);
        assertThat(limit.limit()).isEqualTo(200);
        limit.update(load(10, 0.0), 10, 0);
        limit.update(load(200, 1.0), 200, 100);
        assertThat(limit.limit()).as("a reading with headroom in between starts the count again").isEqualTo(200);
        limit.update(load(200, 1.0), 200, 100);
        assertThat(limit.limit()).isLessThan(200);
    }

    @Test
    void itGrowsOnlyWhileRequestsWaitAndHalfOfItIsUsed() {
        CarrierLimit limit = new CarrierLimit(20, 10_000, 200);
        limit.update(load(150, 0.0), 150, 0);
        assertThat(limit.limit()).as("nobody waits").isEqualTo(200);
        limit.update(load(50, 0.0), 50, 10);
        assertThat(limit.limit()).as("a quarter used: what waits is not held back by the limit").isEqualTo(200);
        limit.update(load(100, 0.0), 100, 10);
        assertThat(limit.limit()).isEqualTo(400);
    }

    @Test
    void withoutAReadingItHolds() {
        CarrierLimit limit = new CarrierLimit(20, 10_000, 200);
        assertThat(limit.update(null, 200, 5_000)).isEqualTo(200);
    }

    @Test
    void onJdk21TheCpuLoadStandsInWithoutCounts() {
        CarrierLimit limit = new CarrierLimit(20, 10_000, 200);
        CarrierReading busy = CarrierReading.ofCpuLoad(CARRIERS, 0.99);
        limit.update(busy, 200, 1_000);
        limit.update(busy, 200, 1_000);
        assertThat(limit.limit()).as("halfway to 0.9 x 200").isEqualTo(190);
        CarrierReading between = CarrierReading.ofCpuLoad(CARRIERS, 0.9);
        limit.update(between, 190, 1_000);
        assertThat(limit.limit()).as("between 85 and 95 %: hold").isEqualTo(190);
        limit.update(CarrierReading.ofCpuLoad(CARRIERS, 0.5), 190, 1_000);
        assertThat(limit.limit()).isEqualTo(380);
        limit.update(CarrierReading.ofCpuLoad(CARRIERS, -1), 380, 1_000);
        assertThat(limit.limit()).as("an unknown load is no headroom").isEqualTo(380);
    }

    @Test
    void staysWithinItsBoundsAndRefusesBadOnes() {
        CarrierLimit limit = new CarrierLimit(5, 300, 1_000);
        assertThat(limit.limit()).isEqualTo(300);
        assertThat(settle(limit, 8_000, 0.0, 5)).isEqualTo(300);
        assertThatThrownBy(() -> new CarrierLimit(0, 10, 5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CarrierLimit(10, 5, 5)).isInstanceOf(IllegalArgumentException.class);
    }
}
