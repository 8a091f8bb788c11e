package io.github.slingvt.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The rule of {@link QueueDiscipline}, driven directly on a hand-moved clock: newest first once a queue stood (its
 * oldest waited over the target at every admission of an interval) while the requests in the server grew by more than
 * the noise of its arrivals (refused ones count as staying); kept while it stands and does not stand level; first in,
 * first out otherwise. The gate's side (which waiter it takes, the displacement of the oldest) is in
 * {@link AdmissionGateTest}.
 */
class QueueDisciplineTest {

    private static final long INTERVAL = QueueDiscipline.INTERVAL_NANOS;

    /** The requests in the server, running and waiting: one more for each arrival, one less for each that finished. */
    private int held;
    private final QueueDiscipline discipline = new QueueDiscipline(() -> held);
    /** The start of the interval being played. */
    private long start;

    private static long ms(long millis) {
        return TimeUnit.MILLISECONDS.toNanos(millis);
    }

    /** The queue forms (from empty) in the first interval, which therefore is no standing queue; the next begins. */
    private void queueForms() {
        arrived(0, true);
        arrived(ms(10), false);
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
            arrived(now += step, false);
        }
        for (int i = 0; i < admissions; i++) {
            finished(now += step, ms(oldestMillis));
        }
        start += INTERVAL;
    }

    /** A request joins the queue at {@code now}: the server holds one more. */
    private void arrived(long now, boolean first) {
        discipline.arrived(now, first);
        held++;
    }

    /** A running request finishes at {@code now} and its slot takes a waiter, the oldest then {@code oldest} old. */
    private void finished(long now, long oldest) {
        discipline.admitted(now, oldest);
        held--;
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

        finished(start + ms(100), ms(2_000));
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

    /**
     * A limit raised while requests wait takes a batch of them to run at once: they leave the queue, but the server
     * holds as many. Counted as leaving, 20 arrivals against 18 admissions would read level and serve the oldest.
     */
    @Test
    void waitersTakenByARaisedLimitAreNoFlow() {
        queueForms();
        interval(10, 1, 600);
        assertThat(newestFirst()).isTrue();
        long now = start;
        for (int i = 0; i < 20; i++) {
            arrived(now += ms(10), false);
        }
        for (int i = 0; i < 18; i++) {
            discipline.admitted(now += ms(10), ms(700));
        }
        start += INTERVAL;
        assertThat(newestFirst()).as("the server holds 20 more: growing").isTrue();
    }

    @Test
    void refusedArrivalsCountAsGrowth() {
        queueForms();
        long now = start;
        arrived(now += ms(10), false);
        finished(now += ms(10), ms(700));
        for (int i = 0; i < 5; i++) {
            discipline.refused(now += ms(10));
        }
        start += INTERVAL;
        assertThat(newestFirst()).as("six wanted in, one left: a full queue that grows").isTrue();
    }

    @Test
    void aBurstWhoseOldestWaitedLessThanTheTargetAtOneAdmissionStaysInOrder() {
        queueForms();
        finished(start + ms(20), ms(70));
        for (int i = 0; i < 30; i++) {
            arrived(start + ms(30 + 10 * i), false);
        }
        finished(start + ms(400), ms(450));
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
