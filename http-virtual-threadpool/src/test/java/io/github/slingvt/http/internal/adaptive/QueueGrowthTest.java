package io.github.slingvt.http.internal.adaptive;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class QueueGrowthTest {

    private final QueueGrowth growth = new QueueGrowth();
    private int queued;
    private long finished;

    /** One second: {@code served} finish and the queue changes by {@code change}; returns the bound then. */
    private int second(int served, int change) {
        finished += served;
        queued = Math.max(0, queued + change);
        return growth.update(queued, finished);
    }

    /**
     * An open load at {@code arrivals} a second on a server that finishes {@code capacity} a second: what the bound
     * lets wait joins the queue, the rest is refused. Returns the bound of every second.
     */
    private List<Integer> open(int arrivals, int capacity, int seconds) {
        List<Integer> bounds = new ArrayList<>();
        for (int s = 0; s < seconds; s++) {
            int bound = growth.bound();
            int joined = bound == QueueGrowth.UNBOUNDED ? arrivals
                    : Math.max(0, Math.min(arrivals, bound + capacity - queued));
            bounds.add(second(capacity, joined - capacity));
        }
        return bounds;
    }

    @Test
    void anOpenOverloadIsBoundedToOneSecondOfWhatFinishesAfterThreeSecondsOfGrowth() {
        second(0, 0);
        List<Integer> bounds = open(2600, 2000, 3);
        assertThat(bounds).as("two growing seconds are no trend yet, the third is")
                .containsExactly(QueueGrowth.UNBOUNDED, QueueGrowth.UNBOUNDED, 2000);
        assertThat(queued).isEqualTo(1800);

        // While the overload lasts the queue stays at its bound (it drains 2,000 a second, 2,000 more may join).
        bounds = open(2600, 2000, QueueGrowth.EPISODE_WINDOWS - 1);
        assertThat(bounds).containsOnly(2000);
        assertThat(queued).isEqualTo(2000);
    }

    @Test
    void aBoundEndsAfterTenSecondsAndReturnsOnlyWhenTheQueueGrowsAgain() {
        second(0, 0);
        open(4000, 2000, 3);
        List<Integer> bounds = open(4000, 2000, QueueGrowth.EPISODE_WINDOWS);
        assertThat(bounds.subList(0, QueueGrowth.EPISODE_WINDOWS - 1)).containsOnly(2000);
        assertThat(bounds.get(QueueGrowth.EPISODE_WINDOWS - 1)).isEqualTo(QueueGrowth.UNBOUNDED);

        assertThat(open(4000, 2000, 3)).containsExactly(QueueGrowth.UNBOUNDED, QueueGrowth.UNBOUNDED, 2000);
    }

    @Test
    void theBoundIsLiftedAsSoonAsTheQueueDrainsBelowHalfOfIt() {
        second(0, 0);
        open(3000, 2000, 3);
        assertThat(growth.bound()).isEqualTo(2000);
        // The overload ends: 1,000 a second arrive, 2,000 finish.
        assertThat(second(2000, -1000)).isEqualTo(2000);
        assertThat(second(2000, -1000)).isEqualTo(QueueGrowth.UNBOUNDED);
    }

    @Test
    void aClosedLoopThatStartsAtOnceIsNeverBounded() {
        // 8,000 clients connect within two seconds, then each finished request brings one new (the queue only moves
        // by chance), until they all leave at once at the end; twice, as a benchmark runs its points one after another.
        for (int round = 0; round < 2; round++) {
            assertThat(second(0, 5000)).isEqualTo(QueueGrowth.UNBOUNDED);
            assertThat(second(300, 2700)).isEqualTo(QueueGrowth.UNBOUNDED);
            for (int s = 0; s < 60; s++) {
                assertThat(second(550, s % 2 == 0 ? 60 : -60)).as("second %d", s).isEqualTo(QueueGrowth.UNBOUNDED);
            }
            assertThat(second(550, -queued)).isEqualTo(QueueGrowth.UNBOUNDED);
            assertThat(second(0, 0)).isEqualTo(QueueGrowth.UNBOUNDED);
        }
    }

    @Test
    void growthBelowAnEighthOfWhatFinishesIsNoOverload() {
        second(0, 0);
        for (int s = 0; s < 30; s++) {
            assertThat(second(2000, 240)).isEqualTo(QueueGrowth.UNBOUNDED);
        }
        // A handful more waiters a second while little finishes is no trend either.
        for (int s = 0; s < 30; s++) {
            assertThat(second(10, QueueGrowth.MIN_GROWTH)).isEqualTo(QueueGrowth.UNBOUNDED);
        }
    }

    @Test
    void aSecondWithoutGrowthStartsTheCountAgain() {
        second(0, 0);
        second(1000, 500);
        second(1000, 500);
        second(1000, 0);
        second(1000, 500);
        assertThat(second(1000, 500)).isEqualTo(QueueGrowth.UNBOUNDED);
        assertThat(second(1000, 500)).isEqualTo(1000);
    }

    @Test
    void theBoundNeverFallsBelowTheMinimumWhenLittleFinishes() {
        second(0, 0);
        second(5, 200);
        second(5, 200);
        assertThat(second(5, 200)).isEqualTo(QueueGrowth.MIN_BOUND);
    }
}
