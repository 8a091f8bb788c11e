package io.github.slingvt.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QueueGrowthTest {

    private static final long WINDOW = QueueGrowth.WINDOW_NANOS;

    private final QueueGrowth growth = new QueueGrowth();
    /** The requests waiting now, as the gate would count them. */
    private int waiting;

    /**
     * One window from {@code start}: {@code arrivals} requests join the queue, evenly spread, while
     * {@code arrivals - grows} leave it.
     */
    private void window(long start, int arrivals, int grows) {
        int leaving = arrivals - grows;
        for (int i = 0; i < arrivals; i++) {
            growth.arrived(start + i * (WINDOW / arrivals), waiting);
            waiting++;
            if ((long) i * leaving / arrivals != (long) (i + 1) * leaving / arrivals) {
                waiting--;
            }
        }
    }

    @Test
    void anOpenOverloadGrowsItsQueueSecondAfterSecond() {
        // 130 %: 690 a second arrive, 530 a second are answered.
        window(0, 690, 160);
        assertThat(growth.growing()).as("the first window is judged at the first arrival after it").isFalse();
        for (int s = 1; s < 5; s++) {
            window(s * WINDOW, 690, 160);
            assertThat(growth.growing()).as("second %d", s).isTrue();
        }
    }

    @Test
    void aClosedLoopKeepsItsQueueLevelOnceItsClientsAreConnected() {
        // wrk's 1,000 connections at a limit of 50: 950 wait, each answer brings the next request.
        window(0, 950, 950);
        window(WINDOW, 590, 0);
        assertThat(growth.growing()).as("judging the second in which the clients connected").isTrue();
        for (int s = 2; s < 6; s++) {
            window(s * WINDOW, 590, s % 2 == 0 ? 5 : -5);
            assertThat(growth.growing()).as("second %d", s).isFalse();
        }
    }

    @Test
    void aGrowthOfOneInTwentyArrivalsOrLessIsNone() {
        window(0, 400, 20);
        window(WINDOW, 400, 20);
        assertThat(growth.growing()).as("20 more out of 400 arrivals").isFalse();
        window(2 * WINDOW, 400, 21);
        window(3 * WINDOW, 400, 0);
        assertThat(growth.growing()).as("21 more out of 400 arrivals").isTrue();
    }

    @Test
    void aFewRequestsMoreAreNoGrowth() {
        window(0, 30, QueueGrowth.MIN_GROWTH - 1);
        window(WINDOW, 30, 0);
        assertThat(growth.growing()).isFalse();
        window(2 * WINDOW, 30, QueueGrowth.MIN_GROWTH);
        window(3 * WINDOW, 30, 0);
        assertThat(growth.growing()).isTrue();
    }

    @Test
    void aWholeWindowWithoutArrivalsStartsAfresh() {
        window(0, 690, 160);
        window(WINDOW, 690, 160);
        assertThat(growth.growing()).isTrue();
        growth.arrived(4 * WINDOW, waiting);
        assertThat(growth.growing()).as("the queue drained unseen since: nothing to judge").isFalse();
    }
}
