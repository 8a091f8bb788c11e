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

    /** Between headroom and saturation: the carriers busy, at most a carrier's worth queued. */
    private static void assertInTheBand(CarrierReading reading) {
        assertThat(reading.saturated()).as("saturated at %s", reading).isFalse();
        assertThat(reading.mounted()).as("every carrier busy at %s", reading).isEqualTo(CARRIERS);
    }

    @Test
    void aCpuBoundLoadSaturatedFromTheStartFallsToTheMinimumWithinAFewSeconds() {
        CarrierLimit limit = new CarrierLimit(20, 10_000, 200);
        // 8,000 clients, all runnable: a tenth less per reading, from 200 to the floor of 20 in 23 readings.
        assertThat(settle(limit, 8_000, 1.0, 10)).isBetween(70, 90);
        assertThat(settle(limit, 8_000, 1.0, 20)).isEqualTo(20);
    }

    @Test
    void aLimitThatStartedAtItsMaximumFallsAtOnceToWhatRunsAndThenComesDown() {
        CarrierLimit limit = new CarrierLimit(20, 10_000, 10_000);
        assertThat(settle(limit, 8_000, 1.0, 2)).as("0.9 x the 8,000 running, not x the limit").isEqualTo(7_200);
        assertThat(settle(limit, 8_000, 1.0, 60)).isEqualTo(20);
    }

    @Test
    void underSaturationItSettlesWhereTheCarriersAreBusyAndTheirQueueShort() {
        // Each request runnable 1 % of its life (R = 100 ms, 1 ms of CPU): more than 2 queued from 450 running.
        CarrierLimit limit = new CarrierLimit(20, 10_000, 10_000);
        int settled = settle(limit, 8_000, 0.01, 60);
        assertThat(settled).isBetween(330, 449);
        assertInTheBand(load(settled, 0.01));
        assertThat(settle(limit, 8_000, 0.01, 50)).as("and stays there").isEqualTo(settled);
    }

    @Test
    void aLimitHeldTooLowUnderSaturationRisesIntoTheBand() {
        // Started at the floor: it doubles while requests wait and the carriers have room, then steps down into it.
        CarrierLimit limit = new CarrierLimit(20, 10_000, 20);
        int settled = settle(limit, 8_000, 0.01, 40);
        assertThat(settled).isBetween(330, 449);
        assertInTheBand(load(settled, 0.01));
    }

    @Test
    void aLoadThatMostlyWaitsIsNeverHeldBack() {
        // R = 1 s, 0.5 ms of CPU: 8,000 clients make 4 runnable, never more than one queued per carrier.
        CarrierLimit limit = new CarrierLimit(20, 10_000, 200);
        assertThat(settle(limit, 8_000, 0.0005, 8)).as("doubles from 200 while requests wait").isEqualTo(10_000);
    }

    @Test
    void burstsThatQueueWhileTheCpuHasRoomDoNotLowerIt() {
        // A waiting load wakes its requests in bursts: 50 queued for a moment, while the CPU was 80 % busy.
        CarrierLimit limit = new CarrierLimit(20, 10_000, 2_000);
        for (int i = 0; i < 10; i++) {
            limit.update(CarrierReading.ofCounts(CARRIERS, 2, 50, 0.80), 1_000, 0);
        }
        assertThat(limit.limit()).isEqualTo(2_000);
        limit.update(CarrierReading.ofCounts(CARRIERS, 2, 50, 0.80), 2_000, 500);
        assertThat(limit.limit()).as("requests wait, the CPU has room: it grows").isEqualTo(4_000);
        limit.update(CarrierReading.ofCounts(CARRIERS, 2, 50, 0.97), 4_000, 500);
        limit.update(CarrierReading.ofCounts(CARRIERS, 2, 50, 0.97), 4_000, 500);
        assertThat(limit.limit()).as("queued and the CPU busy: saturated").isEqualTo(3_600);
    }

    @Test
    void aStepDownWaitsUntilTheStepBeforeIsInForce() {
        CarrierLimit limit = new CarrierLimit(20, 10_000, 1_000);
        CarrierReading saturated = CarrierReading.ofCounts(CARRIERS, 2, 100, 1.0);
        limit.update(saturated, 1_000, 100);
        limit.update(saturated, 1_000, 100);
        assertThat(limit.limit()).isEqualTo(900);
        limit.update(saturated, 1_000, 100);
        assertThat(limit.limit()).as("1,000 still run: no second step yet").isEqualTo(900);
        limit.update(saturated, 900, 100);
        assertThat(limit.limit()).isEqualTo(810);
    }

    @Test
    void itRecoversWhenSaturationEndsAndFollowsAChangeOfTheMix() {
        CarrierLimit limit = new CarrierLimit(20, 10_000, 200);
        assertThat(settle(limit, 8_000, 1.0, 30)).isEqualTo(20);
        // The mix changes to requests that wait: the carriers have room, requests wait for admission.
        assertThat(settle(limit, 8_000, 0.0005, 10)).isEqualTo(10_000);
        // And back to a heavier mix than before: more than 2 queued from about 80 running.
        int settled = settle(limit, 8_000, 0.05, 60);
        assertThat(settled).isBetween(60, 85);
        assertInTheBand(load(settled, 0.05));
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
        assertThat(limit.limit()).as("0.9 x 200").isEqualTo(180);
        CarrierReading between = CarrierReading.ofCpuLoad(CARRIERS, 0.9);
        limit.update(between, 180, 1_000);
        assertThat(limit.limit()).as("between 85 and 95 %: hold").isEqualTo(180);
        limit.update(CarrierReading.ofCpuLoad(CARRIERS, 0.5), 180, 1_000);
        assertThat(limit.limit()).isEqualTo(360);
        limit.update(CarrierReading.ofCpuLoad(CARRIERS, -1), 360, 1_000);
        assertThat(limit.limit()).as("an unknown load is no headroom").isEqualTo(360);
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
