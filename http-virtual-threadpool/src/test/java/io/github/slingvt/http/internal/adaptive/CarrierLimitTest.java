package io.github.slingvt.http.internal.adaptive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * The law of {@code maxConcurrentRequests=auto} on two carriers, driven with the readings a load would produce: a
 * request needs some CPU on a carrier and waits some time off it (repository, timer); with more running than the
 * carriers can serve, the answers per second are the carriers' and every request beyond the waiting ones is runnable.
 */
class CarrierLimitTest {

    private static final int CARRIERS = 2;

    /** Only CPU work: every running request is runnable. */
    private static final Mix CPU_BOUND = new Mix(1, 0);
    /** Only waits: no running request is runnable. */
    private static final Mix IDLE = new Mix(0, 100);

    /** Requests that each need {@code cpuMillis} on a carrier and wait {@code waitMillis} off it. */
    private record Mix(double cpuMillis, double waitMillis) {

        /** What the scheduler shows with {@code running} such requests in the steady state (Little's law). */
        CarrierReading reading(int running) {
            double answersPerMilli = Math.min(running / (cpuMillis + waitMillis), CARRIERS / cpuMillis);
            long runnable = Math.max(0, Math.round(running - answersPerMilli * waitMillis));
            long mounted = Math.min(CARRIERS, runnable);
            return CarrierReading.ofCounts(CARRIERS, mounted, runnable - mounted);
        }
    }

    /** Readings of a closed-loop load of {@code clients}: as many run as the limit lets, the rest wait. */
    private static int settle(CarrierLimit limit, int clients, Mix mix, int readings) {
        for (int i = 0; i < readings; i++) {
            int running = Math.min(clients, limit.limit());
            limit.update(mix.reading(running), running, clients - running);
        }
        return limit.limit();
    }

    /** A CPU-bound reading: all {@code running} runnable, the CPU busy. */
    private static CarrierReading cpuBound(int running) {
        return CarrierReading.ofCounts(CARRIERS, CARRIERS, running - CARRIERS, 1.0);
    }

    /**
     * 8,000 clients of {@code mix} for {@code readings}: the limit ends at {@code expected} (the requests that wait
     * plus a runnable margin), where the carriers are busy and their queue is short.
     */
    private static void assertSettlesInTheBand(CarrierLimit limit, Mix mix, int readings, int expected) {
        int settled = settle(limit, 8_000, mix, readings);
        assertThat(settled).as("settled limit").isEqualTo(expected);
        assertInTheBand(mix.reading(settled), settled);
    }

    /**
     * The carriers busy with work queued for them (they do not run dry when a few waits end late), and fewer
     * queued than wait: a request spends less time queued for a carrier than it waits anyway.
     */
    private static void assertInTheBand(CarrierReading reading, int running) {
        assertThat(reading.mounted()).as("every carrier busy at %s", reading).isEqualTo(CARRIERS);
        assertThat(reading.queued()).as("queued for the carriers at %s", reading).isPositive()
                .isLessThan(CarrierLimit.waits(reading, running));
    }

    @Test
    void aCpuBoundLoadSaturatedFromTheStartFallsToTheMinimumWithinAFewSeconds() {
        CarrierLimit limit = new CarrierLimit(20, 10_000, 200);
        // 8,000 clients, all runnable: a tenth less per reading, from 200 to the floor of 20 in 23 readings.
        assertThat(settle(limit, 8_000, CPU_BOUND, 10)).isBetween(70, 90);
        assertThat(settle(limit, 8_000, CPU_BOUND, 20)).isEqualTo(20);
    }

    @Test
    void aLimitThatStartedAtItsMaximumFallsAtOnceToWhatRunsAndThenComesDown() {
        CarrierLimit limit = new CarrierLimit(20, 10_000, 10_000);
        assertThat(settle(limit, 8_000, CPU_BOUND, 2)).as("0.9 x the 8,000 running, not x the limit").isEqualTo(7_200);
        assertThat(settle(limit, 8_000, CPU_BOUND, 60)).isEqualTo(20);
    }

    @Test
    void underSaturationItSettlesWhereTheCarriersAreBusyAndTheirQueueShort() {
        // R = 100 ms with 1 ms of CPU: the carriers make 2 answers per ms, so 198 wait; the margin is two runnable
        // per carrier and 3 x sqrt(198) = 43, so 47 are runnable: 2 on the carriers, 45 queued (22 ms of their work).
        CarrierLimit limit = new CarrierLimit(20, 10_000, 10_000);
        Mix mix = new Mix(1, 99);
        assertSettlesInTheBand(limit, mix, 60, 245);
        assertThat(settle(limit, 8_000, mix, 50)).as("and stays there").isEqualTo(245);
    }

    @Test
    void aLimitHeldTooLowUnderSaturationRisesIntoTheBand() {
        // Started at the floor: it doubles while requests wait and the carriers have room, then steps down into it.
        CarrierLimit limit = new CarrierLimit(20, 10_000, 20);
        assertSettlesInTheBand(limit, new Mix(1, 99), 40, 245);
    }

    @Test
    void whenWaitsEndAtRandomTheCarriersStayBusy() {
        // The same load, its waits ending at random: at each reading the requests that wait scatter around their mean
        // of 198 by about its square root. Two runnable per carrier alone left a carrier without work in 84 of these
        // 500 readings; the limit keeps enough runnable that they almost never run dry.
        Random random = new Random(27);
        CarrierLimit limit = new CarrierLimit(20, 10_000, 10_000);
        int dry = 0;
        int highest = 0;
        for (int i = 0; i < 600; i++) {
            int running = limit.limit();
            double meanWaits = Math.min(running / 100.0, CARRIERS) * 99;
            long waits = Math.round(meanWaits + Math.sqrt(meanWaits) * random.nextGaussian());
            long runnable = Math.max(0, running - Math.max(0, waits));
            long mounted = Math.min(CARRIERS, runnable);
            limit.update(CarrierReading.ofCounts(CARRIERS, mounted, runnable - mounted), running, 8_000 - running);
            if (i >= 100) {
                dry += mounted < CARRIERS ? 1 : 0;
                highest = Math.max(highest, limit.limit());
            }
        }
        assertThat(dry).as("readings of 500 with a carrier idle").isLessThanOrEqualTo(5);
        assertThat(highest).as("the limit after it settled: the waits and their margin, not the 8,000 clients")
                .isBetween(245, 300);
    }

    @Test
    void aStepDownNeverCutsTheRequestsThatWait() {
        // The page near capacity: 100 requests wait 100 ms each on a timer, every one beyond them wants a carrier,
        // and the CPU is saturated (a client on the same cores). Below 100 running the answers per second would fall
        // (Little's law) while the carriers still had the same work.
        CarrierLimit limit = new CarrierLimit(20, 10_000, 200);
        int lowest = Integer.MAX_VALUE;
        for (int i = 0; i < 60; i++) {
            int running = limit.limit();
            long runnable = Math.max(0, running - 100);
            long mounted = Math.min(CARRIERS, runnable);
            limit.update(CarrierReading.ofCounts(CARRIERS, mounted, runnable - mounted, 1.0), running, 500);
            lowest = Math.min(lowest, limit.limit());
        }
        assertThat(lowest).as("the 100 that wait, two runnable per carrier and 3 x sqrt(100)").isEqualTo(134);
        assertThat(limit.limit()).isEqualTo(134);
        assertThat(CarrierLimit.waits(CarrierReading.ofCounts(CARRIERS, 2, 16, 1.0), 118))
                .as("118 running, 18 of them runnable").isEqualTo(100);
        assertThat(CarrierLimit.waits(CarrierReading.ofCpuLoad(CARRIERS, 1.0), 118))
                .as("without the scheduler's counts nothing is known to wait").isZero();
    }

    @Test
    void requestsAdmittedTogetherAndRunnableTogetherDoNotHideTheWaits() {
        // 100 wait at 104 running; then the requests admitted together run their CPU work at once: for two readings
        // 90 of the 104 are runnable. The waits of the second before still count.
        CarrierLimit limit = new CarrierLimit(20, 10_000, 104);
        for (int i = 0; i < 5; i++) {
            limit.update(CarrierReading.ofCounts(CARRIERS, 2, 2, 1.0), 104, 500);
        }
        CarrierReading cohort = CarrierReading.ofCounts(CARRIERS, 2, 88, 1.0);
        limit.update(cohort, 104, 500);
        limit.update(cohort, 104, 500);
        assertThat(limit.limit()).as("the 100 that waited a moment ago and 4 runnable").isEqualTo(104);
        for (int i = 0; i < CarrierLimit.WAITS_READINGS; i++) {
            limit.update(cohort, limit.limit(), 500);
        }
        assertThat(limit.limit()).as("runnable for a whole second: CPU work, down by a tenth per reading")
                .isLessThan(104);
    }

    @Test
    void aLoadThatMostlyWaitsIsNeverHeldBack() {
        // R = 1 s, 0.1 ms of CPU: 8,000 clients keep the carriers 40 % busy, about one runnable.
        CarrierLimit limit = new CarrierLimit(20, 10_000, 200);
        // Six doublings from 200, three readings each: the ceiling in under two seconds.
        assertThat(settle(limit, 8_000, new Mix(0.1, 999.9), 18)).as("doubles from 200 while requests wait")
                .isEqualTo(10_000);
    }

    @Test
    void burstsThatQueueWhileTheCpuHasRoomDoNotLowerIt() {
        // A waiting load wakes its requests in bursts: 50 queued for a moment, while the CPU was 80 % busy.
        CarrierLimit limit = new CarrierLimit(20, 10_000, 2_000);
        for (int i = 0; i < 10; i++) {
            limit.update(CarrierReading.ofCounts(CARRIERS, 2, 50, 0.80), 1_000, 0);
        }
        assertThat(limit.limit()).isEqualTo(2_000);
        for (int i = 0; i < CarrierLimit.HEADROOM_READINGS; i++) {
            limit.update(CarrierReading.ofCounts(CARRIERS, 2, 50, 0.80), 2_000, 500);
        }
        assertThat(limit.limit()).as("requests wait, the CPU has room: it grows").isEqualTo(4_000);
        limit.update(CarrierReading.ofCounts(CARRIERS, 2, 500, 0.97), 4_000, 500);
        limit.update(CarrierReading.ofCounts(CARRIERS, 2, 500, 0.97), 4_000, 500);
        assertThat(limit.limit())
                .as("queued and the CPU busy: saturated, down to the 3,498 that wait, 4 runnable and 3 x sqrt(3,498)")
                .isEqualTo(3_680);
    }

    @Test
    void aStepDownWaitsUntilTheStepBeforeIsInForce() {
        CarrierLimit limit = new CarrierLimit(20, 10_000, 1_000);
        limit.update(cpuBound(1_000), 1_000, 100);
        limit.update(cpuBound(1_000), 1_000, 100);
        assertThat(limit.limit()).isEqualTo(900);
        limit.update(cpuBound(1_000), 1_000, 100);
        assertThat(limit.limit()).as("1,000 still run: no second step yet").isEqualTo(900);
        limit.update(cpuBound(900), 900, 100);
        assertThat(limit.limit()).isEqualTo(810);
    }

    @Test
    void itRecoversWhenSaturationEndsAndFollowsAChangeOfTheMix() {
        CarrierLimit limit = new CarrierLimit(20, 10_000, 200);
        assertThat(settle(limit, 8_000, CPU_BOUND, 30)).isEqualTo(20);
        // The mix changes to requests that wait: the carriers have room, requests wait for admission.
        assertThat(settle(limit, 8_000, new Mix(0.1, 999.9), 30)).isEqualTo(10_000);
        // And to a heavier mix than that: 1 ms of CPU and 19 ms of waiting, 38 wait at the carriers' 2 per ms, and
        // 4 + 3 x sqrt(38) = 23 are runnable.
        assertSettlesInTheBand(limit, new Mix(1, 19), 60, 61);
    }

    @Test
    void oneSaturatedReadingAloneDoesNotLowerIt() {
        CarrierLimit limit = new CarrierLimit(20, 10_000, 200);
        limit.update(CPU_BOUND.reading(200), 200, 100);
        assertThat(limit.limit()).isEqualTo(200);
        limit.update(IDLE.reading(10), 10, 0);
        limit.update(CPU_BOUND.reading(200), 200, 100);
        assertThat(limit.limit()).as("a reading with headroom in between starts the count again").isEqualTo(200);
        limit.update(CPU_BOUND.reading(200), 200, 100);
        assertThat(limit.limit()).isLessThan(200);
    }

    @Test
    void itGrowsOnlyWhileRequestsWaitAndHalfOfItIsUsed() {
        CarrierLimit limit = new CarrierLimit(20, 10_000, 200);
        for (int i = 0; i < 2 * CarrierLimit.HEADROOM_READINGS; i++) {
            limit.update(IDLE.reading(150), 150, 0);
        }
        assertThat(limit.limit()).as("nobody waits").isEqualTo(200);
        limit.update(IDLE.reading(50), 50, 10);
        assertThat(limit.limit()).as("a quarter used: what waits is not held back by the limit").isEqualTo(200);
        limit.update(IDLE.reading(100), 100, 10);
        assertThat(limit.limit()).isEqualTo(400);
    }

    @Test
    void itDoublesAfterThreeReadingsWithHeadroomAndJudgesTheNextDoublingOnThreeMore() {
        CarrierLimit limit = new CarrierLimit(20, 10_000, 200);
        limit.update(IDLE.reading(200), 200, 100);
        limit.update(IDLE.reading(200), 200, 100);
        assertThat(limit.limit()).as("two readings with headroom").isEqualTo(200);
        limit.update(IDLE.reading(200), 200, 100);
        assertThat(limit.limit()).isEqualTo(400);
        limit.update(IDLE.reading(400), 400, 100);
        limit.update(IDLE.reading(400), 400, 100);
        assertThat(limit.limit()).as("the readings before the doubling do not count again").isEqualTo(400);
        limit.update(IDLE.reading(400), 400, 100);
        assertThat(limit.limit()).isEqualTo(800);
    }

    @Test
    void loneReadingsWithHeadroomInACpuBoundOverloadDoNotRaiseIt() {
        // A CPU-bound overload at 30 running, 800 waiting for admission, the CPU busy: most readings are saturated,
        // some in between show an empty queue (a snapshot) or a period of the CPU below 85 %, never three in a row.
        // Doubling on each of them took the limit from about 30 to 10,000 within a minute.
        CarrierReading saturated = CarrierReading.ofCounts(CARRIERS, 2, 28, 1.0);
        CarrierReading emptySnapshot = CarrierReading.ofCounts(CARRIERS, 2, 1, 1.0);
        CarrierReading cpuDip = CarrierReading.ofCounts(CARRIERS, 2, 6, 0.80);
        CarrierReading band = CarrierReading.ofCounts(CARRIERS, 2, 2, 0.9);
        CarrierReading[] minute = {saturated, emptySnapshot, saturated, cpuDip, band, emptySnapshot, emptySnapshot,
            saturated, saturated, cpuDip, saturated, emptySnapshot};
        CarrierLimit limit = new CarrierLimit(20, 10_000, 30);
        int highest = 0;
        for (int i = 0; i < 600; i++) {
            int running = limit.limit();
            limit.update(minute[i % minute.length], running, 800);
            highest = Math.max(highest, limit.limit());
        }
        assertThat(highest).as("the highest limit in a minute of such readings").isEqualTo(30);
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
        for (int i = 0; i < CarrierLimit.HEADROOM_READINGS; i++) {
            limit.update(CarrierReading.ofCpuLoad(CARRIERS, 0.5), 180, 1_000);
        }
        assertThat(limit.limit()).isEqualTo(360);
        limit.update(CarrierReading.ofCpuLoad(CARRIERS, -1), 360, 1_000);
        assertThat(limit.limit()).as("an unknown load is no headroom").isEqualTo(360);
    }

    @Test
    void staysWithinItsBoundsAndRefusesBadOnes() {
        CarrierLimit limit = new CarrierLimit(5, 300, 1_000);
        assertThat(limit.limit()).isEqualTo(300);
        assertThat(settle(limit, 8_000, IDLE, 5)).isEqualTo(300);
        assertThatThrownBy(() -> new CarrierLimit(0, 10, 5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CarrierLimit(10, 5, 5)).isInstanceOf(IllegalArgumentException.class);
    }
}
