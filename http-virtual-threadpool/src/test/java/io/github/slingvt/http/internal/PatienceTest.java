package io.github.slingvt.http.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class PatienceTest {

    private static final long WINDOW = Patience.WINDOW_NANOS;
    private static final long TEN_S = TimeUnit.SECONDS.toNanos(10);

    private final Patience patience = new Patience();

    /** One window from {@code start}: {@code arrivals} new waiters, then {@code departures} leaving at {@code age}. */
    private void window(long start, int arrivals, int departures, long age) {
        for (int i = 0; i < arrivals; i++) {
            patience.arrived(start + i);
        }
        for (int i = 0; i < departures; i++) {
            patience.departed(age, start + arrivals + i);
        }
    }

    /** 900 waiting clients leave together from {@code end} on, aged up to 300 ms, across the turn of a second. */
    private void crowdLeaves(long end) {
        for (int i = 0; i < 900; i++) {
            patience.departed(TimeUnit.MILLISECONDS.toNanos(i / 3), end + i);
        }
    }

    @Test
    void clientsThatGiveUpSecondAfterSecondWhileTheLoadGoesOnTeachTheirPatience() {
        // An open overload: 2,600 a second arrive and wait, 600 a second give up after 10 s.
        for (int s = 0; s < 5; s++) {
            window(s * WINDOW, 2600, 600, TEN_S);
        }
        assertThat(patience.nanos()).isCloseTo(TEN_S, within(1.0));
    }

    @Test
    void aWindowIsJudgedOnceTheWindowAfterItIsOver() {
        window(0, 100, 20, TEN_S);
        window(WINDOW, 100, 20, TEN_S);
        window(2 * WINDOW, 100, 20, TEN_S);
        assertThat(patience.nanos()).as("the window after the second is not over").isZero();
        patience.arrived(3 * WINDOW);
        assertThat(patience.nanos()).isCloseTo(TEN_S, within(1.0));
    }

    @Test
    void fewerThanTenDeparturesAreNoPatternYet() {
        window(0, 100, 1, TEN_S);
        window(WINDOW, 100, Patience.SAMPLES - 1, TEN_S);
        window(2 * WINDOW, 100, 1, TEN_S);
        patience.arrived(3 * WINDOW);
        assertThat(patience.nanos()).isZero();
        assertThat(patience.seenNanos()).isCloseTo(TEN_S, within(1.0));
        window(3 * WINDOW + 1, 100, 1, TEN_S);
        patience.arrived(4 * WINDOW);
        assertThat(patience.nanos()).isCloseTo(TEN_S, within(1.0));
    }

    @Test
    void aFewClientsLeavingEverySecondCountToo() {
        for (int s = 0; s < 15; s++) {
            window(s * WINDOW, 50, 1, TimeUnit.SECONDS.toNanos(3));
        }
        assertThat(patience.nanos()).isCloseTo(TimeUnit.SECONDS.toNanos(3), within(1.0));
    }

    @Test
    void clientsThatAllLeaveTogetherTeachNothingAlsoWhenTheNextLoadFollowsAtOnce() {
        // 1,000 clients in a closed loop: each finished request brings one new, about 900 wait ~0.3 s. At the end
        // they all leave at once, at every age up to the wait, across the turn of a second; a second later the next
        // load begins, as a benchmark runs its points.
        for (int s = 0; s < 30; s++) {
            window(s * WINDOW, 3000, 0, 0);
        }
        crowdLeaves(31 * WINDOW - 450);
        for (int s = 32; s < 40; s++) {
            window(s * WINDOW, 3000, 0, 0);
        }
        assertThat(patience.seenNanos()).isZero();
    }

    @Test
    void departuresFollowedByASilentWindowTeachNothing() {
        window(0, 500, 500, TimeUnit.MILLISECONDS.toNanos(150));
        window(WINDOW, 500, 500, TimeUnit.MILLISECONDS.toNanos(150));
        // Nothing for seconds, then a new load whose clients also leave.
        for (int s = 5; s < 7; s++) {
            window(s * WINDOW, 3000, 10, TEN_S);
        }
        assertThat(patience.seenNanos()).isZero();
    }

    @Test
    void clientsKeepLeavingWhileEveryWindowJudgedHadDeparturesAndNewcomers() {
        window(0, 100, 1, TEN_S);
        window(WINDOW, 100, 1, TEN_S);
        window(2 * WINDOW, 100, 1, TEN_S);
        assertThat(patience.leavingSteadily(2 * WINDOW + 200)).as("no window judged yet").isFalse();
        window(3 * WINDOW, 100, 0, 0);
        assertThat(patience.leavingSteadily(3 * WINDOW + 200)).isTrue();
        assertThat(patience.nanos()).as("one departure is no patience, but a sign").isZero();
        assertThat(patience.leavingSteadily(3 * WINDOW + Patience.STEADY_NANOS))
                .as("no event for two windows: the queue is quiet").isFalse();
        window(4 * WINDOW, 100, 0, 0);
        assertThat(patience.leavingSteadily(4 * WINDOW + 200)).as("the window before had no departure").isFalse();
    }

    @Test
    void aCrowdLeavingTogetherIsNoSteadyLeaving() {
        for (int s = 0; s < 5; s++) {
            window(s * WINDOW, 3000, 0, 0);
        }
        crowdLeaves(6 * WINDOW - 450);
        for (int s = 7; s < 10; s++) {
            window(s * WINDOW, 3000, 0, 0);
            assertThat(patience.leavingSteadily(s * WINDOW + 3000)).as("second %d", s).isFalse();
        }
    }

    @Test
    void manyDeparturesMoveThePatienceAsIfAveragedOneByOne() {
        long two = TimeUnit.SECONDS.toNanos(2);
        window(0, 100, 20, two);
        window(WINDOW, 100, 20, two);
        window(2 * WINDOW, 100, 20, TEN_S);
        window(3 * WINDOW, 100, 20, TEN_S);
        patience.arrived(4 * WINDOW);
        double expected = two + (1 - Math.pow(1 - Patience.SMOOTHING, 20)) * (TEN_S - two);
        assertThat(patience.nanos()).isCloseTo(expected, within(1.0));
    }
}
