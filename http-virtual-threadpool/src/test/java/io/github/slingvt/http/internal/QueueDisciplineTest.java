package io.github.slingvt.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The rule of {@link QueueDiscipline}, driven directly on a hand-moved clock: newest first once a queue stood (its
 * oldest waited over the target at every admission of an interval) and grew by more than the noise of its arrivals
 * (refused ones count); kept while it stands and does not stand level; first in, first out otherwise. The gate's side (which waiter it takes,
 * the displacement of the oldest) is in {@link AdmissionGateTest}.
 */
class QueueDisciplineTest {

    private static final long INTERVAL = QueueDiscipline.INTERVAL_NANOS;

    private final QueueDiscipline discipline = new QueueDiscipline();
    /** The start of the interval being played. */
    private long start;

    private static long ms(long millis) {
        return TimeUnit.MILLISECONDS.toNanos(millis);
    }

    /** The queue forms (from empty) in the first interval, which therefore is no standing queue; the next begins. */
    private void queueForms() {
        discipline.arrived(0, true);
        discipline.arrived(ms(10), false);
        start = INTERVAL;
    }

    /**
     * One interval of a queue that does not run empty: {@code arrivals} join and {@code admissions} are taken, spread
     * over the interval, the oldest waiter {@code oldestMillis} old at each taking; the next interval begins.
     */
    private void interval(int arrivals, int admissions, long oldestMillis) {
        long step = INTERVAL / (arrivals + admissions + 1);
        long now = start;
        for (int i = 0; i < arrivals; i++) {
            discipline.arrived(now += step, false);
        }
        for (int i = 0; i < admissions; i++) {
            discipline.admitted(now += step, ms(oldestMillis));
        }
        start += INTERVAL;
    }

    /** The order judged at the start of the current interval, on the interval before it. */
    private boolean newestFirst() {
        return discipline.newestFirst(start);
    }

    @Test
    void aQueueThatStoodAndGrewForAWholeIntervalIsServedNewestFirstFromTheNextOn() {
        queueForms();
        assertThat(newestFirst()).as("a queue just formed is a burst").isFalse();
        interval(10, 1, 600);
        assertThat(discipline.newestFirst(start - 1)).as("judged once the interval is over, not within it").isFalse();
        assertThat(newestFirst()).isTrue();
    }

    /** Growing means by more than the square root of the arrivals: a count of random arrivals varies by as much. */
    @ParameterizedTest(name = "{0} joined, {1} admitted: newest first {2}")
    @CsvSource({"9, 6, false", "9, 5, true", "100, 90, false", "100, 89, true", "1, 0, false", "2, 0, true"})
    void aStandingQueueTurnsNewestFirstOnlyIfItGrewByMoreThanTheNoiseOfItsArrivals(int arrivals, int admissions,
            boolean newestFirst) {
        queueForms();
        interval(arrivals, admissions, 1_000);
        assertThat(newestFirst()).isEqualTo(newestFirst);
    }

    @Test
    void aStandingQueueThatStaysLevelIsServedInOrderHoweverLongItsOldestWaited() {
        queueForms();
        for (int k = 0; k < 20; k++) {
            // A closed loop: every answer brings its client's next request, give or take the noise of the counts.
            interval(50, k % 2 == 0 ? 50 : 45, 1_000 + 500L * k);
            assertThat(newestFirst()).as("interval %d, the oldest %d ms old", k, 1_000 + 500 * k).isFalse();
        }
    }

    @Test
    void onceNewestFirstItStaysSoWhileTheQueueDrainsAndGoesBackInOrderOnceItRanEmpty() {
        queueForms();
        interval(10, 1, 600);
        assertThat(newestFirst()).isTrue();
        interval(2, 8, 1_100);
        assertThat(newestFirst()).as("fewer join than leave: the backlog drains newest first").isTrue();
        interval(0, 5, 1_600);
        assertThat(newestFirst()).as("nobody joins").isTrue();

        discipline.admitted(start + ms(100), ms(2_000));
        discipline.emptied(start + ms(100));
        assertThat(discipline.newestFirst(start + ms(200))).as("until the interval is judged").isTrue();
        start += INTERVAL;
        assertThat(newestFirst()).as("it ran empty: no standing queue").isFalse();
        interval(0, 3, 900);
        assertThat(newestFirst()).as("a queue that drains is served in order unless it was in overload").isFalse();
    }

    @Test
    void aNewestFirstQueueThatStandsLevelGoesBackInOrder() {
        queueForms();
        interval(10, 1, 600);
        assertThat(newestFirst()).isTrue();
        interval(40, 40, 1_100);
        // A closed loop whose clients wait for their answers: newest first would starve its oldest.
        assertThat(newestFirst()).isFalse();
    }

    @Test
    void refusedArrivalsCountAsGrowth() {
        queueForms();
        long now = start;
        discipline.arrived(now += ms(10), false);
        discipline.admitted(now += ms(10), ms(700));
        for (int i = 0; i < 5; i++) {
            discipline.refused(now += ms(10));
        }
        start += INTERVAL;
        assertThat(newestFirst()).as("six wanted in, one left: a full queue that grows").isTrue();
    }

    @Test
    void aBurstWhoseOldestWaitedLessThanTheTargetAtOneAdmissionStaysInOrder() {
        queueForms();
        discipline.admitted(start + ms(20), ms(70));
        for (int i = 0; i < 30; i++) {
            discipline.arrived(start + ms(30 + 10 * i), false);
        }
        discipline.admitted(start + ms(400), ms(450));
        start += INTERVAL;
        assertThat(newestFirst()).as("grew, but its oldest waited 70 ms at one admission").isFalse();
        interval(30, 2, 400);
        assertThat(newestFirst()).as("waited over the target at every admission of a growing interval").isTrue();
    }

    @ParameterizedTest(name = "oldest {0} ms at every admission: newest first {1}")
    @CsvSource({"100, false", "101, true"})
    void standingMeansTheOldestWaitedAboveTheTarget(long oldestMillis, boolean newestFirst) {
        assertThat(QueueDiscipline.TARGET_NANOS).isEqualTo(ms(100));
        queueForms();
        interval(10, 1, oldestMillis);
        assertThat(newestFirst()).isEqualTo(newestFirst);
    }
}
