package io.github.slingvt.http.internal.adaptive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The law reading by reading; how it behaves against a model of carriers, CPU work and waits is the simulation's
 * ({@code sim}).
 */
class CarrierLimitTest {

    private static final int CARRIERS = 2;

    /** One interval of identical readings; returns the limit after it. */
    private static int interval(CarrierLimit limit, long queued, int running, int waiting) {
        int after = limit.limit();
        for (int i = 0; i < CarrierLimit.INTERVAL_READINGS; i++) {
            after = limit.update(CarrierReading.ofCounts(CARRIERS, CARRIERS, queued), running, waiting);
        }
        return after;
    }

    @Test
    void itMovesOnlyAtTheEndOfAnInterval() {
        CarrierLimit limit = new CarrierLimit(20, 10_000, 200);
        for (int i = 0; i < CarrierLimit.INTERVAL_READINGS - 1; i++) {
            assertThat(limit.update(CarrierReading.ofCounts(CARRIERS, CARRIERS, 150), 200, 0)).isEqualTo(200);
        }
        assertThat(limit.update(CarrierReading.ofCounts(CARRIERS, CARRIERS, 150), 200, 0)).isLessThan(200);
    }

    @Test
    void aStandingQueueIsCutToEveryWaitABusyCarrierWithOneQueuedAndTheSquareRootOfTheWaits() {
        CarrierLimit limit = new CarrierLimit(20, 10_000, 1_000);
        // 1,000 running: 2 on the carriers, 150 queued for them the whole interval, the other 848 wait off them.
        assertThat(interval(limit, 150, 1_000, 500)).isEqualTo(848 + 2 + 2 + 30);
        assertThat(CarrierLimit.kept(CARRIERS, 848)).isEqualTo(882);
    }

    @Test
    void theWaitsKeptAreTheMostSeenInTheInterval() {
        CarrierLimit limit = new CarrierLimit(20, 10_000, 1_000);
        // Requests admitted together run their CPU work together: at one reading 700 are runnable, 298 wait.
        long[] queued = {150, 700, 150, 150, 150};
        for (long q : queued) {
            limit.update(CarrierReading.ofCounts(CARRIERS, CARRIERS, q), 1_000, 0);
        }
        assertThat(limit.limit()).isEqualTo(CarrierLimit.kept(CARRIERS, 848));
    }

    @Test
    void aBurstIsNoStandingQueue() {
        CarrierLimit limit = new CarrierLimit(20, 10_000, 1_000);
        for (int i = 0; i < CarrierLimit.INTERVAL_READINGS; i++) {
            long queued = i == 2 ? 0 : 900; // the queue ran dry once: a carrier had nothing to run
            limit.update(CarrierReading.ofCounts(CARRIERS, CARRIERS, queued), 1_000, 0);
        }
        assertThat(limit.limit()).isEqualTo(1_000);
    }

    @Test
    void aCutWaitsUntilTheCutBeforeIsInForce() {
        CarrierLimit limit = new CarrierLimit(20, 10_000, 200);
        int first = (int) CarrierLimit.kept(CARRIERS, 200 - 2 - 102);
        assertThat(interval(limit, 102, 200, 0)).isEqualTo(first).isEqualTo(110);
        assertThat(interval(limit, 102, 180, 0)).as("180 still run: the cut to 110 is not in force").isEqualTo(first);
        assertThat(interval(limit, 52, 100, 0)).isEqualTo(CarrierLimit.kept(CARRIERS, 100 - 2 - 52));
    }

    @Test
    void itNeverFallsBelowTheMinimumNorRisesAboveTheMaximum() {
        CarrierLimit limit = new CarrierLimit(20, 300, 200);
        assertThat(interval(limit, 198, 200, 0)).isEqualTo(20);
        for (int i = 0; i < 10; i++) {
            interval(limit, 0, limit.limit(), 1_000);
        }
        assertThat(limit.limit()).isEqualTo(300);
    }

    @Test
    void withRoomItDoublesWhileRequestsWaitAndHalfOfItIsUsed() {
        CarrierLimit limit = new CarrierLimit(20, 10_000, 200);
        assertThat(interval(limit, 0, 200, 0)).as("nobody waits for admission").isEqualTo(200);
        assertThat(interval(limit, 0, 99, 10)).as("less than half used").isEqualTo(200);
        assertThat(interval(limit, 1, 100, 10)).isEqualTo(400);
        assertThat(interval(limit, 0, 400, 10)).isEqualTo(800);
        assertThat(interval(limit, CARRIERS, 800, 10)).as("one queued per carrier: held").isEqualTo(800);
    }

    @Test
    void withoutCountsTheProcesssCpuShareDecides() {
        CarrierLimit limit = new CarrierLimit(200, 10_000, 1_000);
        for (int i = 0; i < CarrierLimit.INTERVAL_READINGS; i++) {
            limit.update(CarrierReading.ofCpuShare(CARRIERS, i == 0 ? 0.8 : 1.0), 1_000, 50);
        }
        assertThat(limit.limit()).as("busy on average over the interval").isEqualTo(900);
        for (int i = 0; i < CarrierLimit.INTERVAL_READINGS; i++) {
            limit.update(CarrierReading.ofCpuShare(CARRIERS, 0.5), 900, 50);
        }
        assertThat(limit.limit()).isEqualTo(1_800);
        for (int i = 0; i < CarrierLimit.INTERVAL_READINGS; i++) {
            limit.update(CarrierReading.ofCpuShare(CARRIERS, -1), 1_800, 50);
        }
        assertThat(limit.limit()).as("an unknown share is no room").isEqualTo(1_800);
    }

    @Test
    void aMissingReadingIsNotCounted() {
        CarrierLimit limit = new CarrierLimit(20, 10_000, 200);
        for (int i = 0; i < 3 * CarrierLimit.INTERVAL_READINGS; i++) {
            assertThat(limit.update(null, 200, 500)).isEqualTo(200);
        }
    }

    @Test
    void impossibleBoundsAreRefused() {
        assertThatThrownBy(() -> new CarrierLimit(0, 10, 5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CarrierLimit(20, 10, 5)).isInstanceOf(IllegalArgumentException.class);
    }
}
