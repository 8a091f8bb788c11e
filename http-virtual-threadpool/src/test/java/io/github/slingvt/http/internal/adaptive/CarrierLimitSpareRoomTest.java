package io.github.slingvt.http.internal.adaptive;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The law of {@code maxConcurrentRequests=auto} between headroom and saturation, on two carriers: the machine's CPU
 * between 85 % and 95 % with a short queue for the carriers. A limit held there for good left CPU unused while
 * requests waited for admission; it rises by a ninth (the inverse of a step-down) after three such readings and
 * stays at the edge of saturation.
 */
class CarrierLimitSpareRoomTest {

    private static final int CARRIERS = 2;

    /** The carriers busy, a short queue for them, the machine's CPU at 90 %. */
    private static final CarrierReading BAND = CarrierReading.ofCounts(CARRIERS, 2, 4, 0.90);
    private static final CarrierReading SATURATED = CarrierReading.ofCounts(CARRIERS, 2, 28, 1.0);
    /** The queue read empty at this instant (headroom by the queue), the CPU busy. */
    private static final CarrierReading EMPTY_SNAPSHOT = CarrierReading.ofCounts(CARRIERS, 2, 1, 1.0);

    /** {@code times} readings of {@code reading} with {@code running} admitted and {@code waiting} waiting. */
    private static int read(CarrierLimit limit, CarrierReading reading, int running, int waiting, int times) {
        for (int i = 0; i < times; i++) {
            limit.update(reading, running, waiting);
        }
        return limit.limit();
    }

    @Test
    void betweenHeadroomAndSaturationItRisesByANinthAfterThreeReadings() {
        CarrierLimit limit = new CarrierLimit(20, 10_000, 180);
        assertThat(read(limit, BAND, 180, 500, 2)).as("two readings with some room").isEqualTo(180);
        assertThat(read(limit, BAND, 180, 500, 1)).as("the inverse of a step-down: 180 / 0.9").isEqualTo(200);
        assertThat(read(limit, BAND, 200, 500, 2)).as("the readings before the raise do not count again")
                .isEqualTo(200);
        assertThat(read(limit, BAND, 200, 500, 1)).as("200 / 0.9, rounded up").isEqualTo(223);
    }

    @Test
    void aRiseUndoesAStepDownAndAlwaysAddsOne() {
        assertThat(CarrierLimit.riseUndoingAStepDown(180)).isEqualTo(200);
        assertThat(CarrierLimit.riseUndoingAStepDown(9_000)).isEqualTo(10_000);
        assertThat(CarrierLimit.riseUndoingAStepDown(20)).isEqualTo(23);
        assertThat(CarrierLimit.riseUndoingAStepDown(1)).isEqualTo(2);
    }

    @Test
    void itRisesOnlyWhileRequestsWaitAndHalfOfItIsUsed() {
        CarrierLimit limit = new CarrierLimit(20, 10_000, 180);
        assertThat(read(limit, BAND, 180, 0, 10)).as("nobody waits for admission").isEqualTo(180);
        assertThat(read(limit, BAND, 80, 500, 10)).as("fewer than half of the limit run").isEqualTo(180);
        limit.update(BAND, 180, 500);
        assertThat(limit.limit()).as("the readings with some room counted all along").isEqualTo(200);
    }

    @Test
    void itHoldsWhereTheCpuIsSaturatedWithAShortQueueOrItsLoadIsUnknown() {
        CarrierLimit limit = new CarrierLimit(20, 10_000, 180);
        CarrierReading busyShortQueue = CarrierReading.ofCounts(CARRIERS, 2, 2, 0.97);
        CarrierReading unknownLoad = CarrierReading.ofCounts(CARRIERS, 2, 2);
        for (int i = 0; i < 30; i++) {
            limit.update(i % 2 == 0 ? busyShortQueue : unknownLoad, 180, 500);
        }
        assertThat(busyShortQueue.saturated()).isFalse();
        assertThat(unknownLoad.saturated()).isFalse();
        assertThat(limit.limit()).isEqualTo(180);
    }

    @Test
    void aLoadWhoseCpuGrowsWithTheLimitClimbsToTheEdgeOfSaturationAndStaysThere() {
        // CPU-bound requests (all runnable) whose machine's CPU load grows with the limit, from 85 % at 50 running to
        // 95 % at 150: the edge of saturation.
        CarrierLimit limit = new CarrierLimit(20, 10_000, 50);
        int reached = -1;
        int lowest = Integer.MAX_VALUE;
        int highest = 0;
        for (int i = 0; i < 600; i++) {
            int running = limit.limit();
            double cpu = Math.min(1.0, 0.85 + 0.10 * (running - 50) / 100.0);
            limit.update(CarrierReading.ofCounts(CARRIERS, 2, running - 2, cpu), running, 800);
            if (reached < 0 && limit.limit() >= 150) {
                reached = i;
            }
            if (reached >= 0) {
                lowest = Math.min(lowest, limit.limit());
                highest = Math.max(highest, limit.limit());
            }
        }
        assertThat(reached).as("readings from 50 to the edge at 150: ten raises of three readings each").isEqualTo(32);
        assertThat(lowest).as("the lowest after reaching it: 0.9 x the highest, just below the edge").isEqualTo(149);
        assertThat(highest).as("the highest: one raise past the edge").isEqualTo(166);
    }

    @Test
    void pairsOfReadingsWithSomeRoomInACpuBoundOverloadDoNotRaiseIt() {
        // A CPU-bound overload at 30 running, 800 waiting for admission: readings with some room come alone, in
        // pairs, or end in a snapshot of an empty queue (headroom, which waits for a doubling that never comes).
        CarrierReading[] minute = {SATURATED, BAND, BAND, SATURATED, SATURATED, BAND, SATURATED, BAND, BAND,
            EMPTY_SNAPSHOT, SATURATED, EMPTY_SNAPSHOT, BAND, SATURATED};
        CarrierLimit limit = new CarrierLimit(20, 10_000, 30);
        int highest = 0;
        for (int i = 0; i < 600; i++) {
            limit.update(minute[i % minute.length], limit.limit(), 800);
            highest = Math.max(highest, limit.limit());
        }
        assertThat(highest).as("the highest limit in a minute of such readings").isEqualTo(30);
    }

    @Test
    void onJdk21TheCpuLoadBetween85And95RaisesItByANinth() {
        CarrierLimit limit = new CarrierLimit(200, 10_000, 400);
        CarrierReading between = CarrierReading.ofCpuLoad(CARRIERS, 0.9);
        for (int i = 0; i < 3; i++) {
            limit.update(between, 400, 1_000);
        }
        assertThat(limit.limit()).as("400 / 0.9, rounded up").isEqualTo(445);
        for (int i = 0; i < 3; i++) {
            limit.update(CarrierReading.ofCpuLoad(CARRIERS, 0.96), 445, 1_000);
        }
        assertThat(limit.limit()).as("saturated: 0.9 x 445; the next step waits until no more run than that")
                .isEqualTo(400);
    }
}
