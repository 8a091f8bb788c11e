package io.github.slingvt.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The waits of an {@link AdmissionGate} time out by one timer task for the whole queue ({@link WaitTimeouts}): every
 * waiter is refused once its time is up, the oldest first, each exactly once, on a timer that holds one task however
 * many wait. The gate's clock is moved by hand, so that which waiters are due is the test's choice; the timer itself
 * runs in real time, and the tests wait for it with generous bounds.
 */
class WaitTimeoutsTest {

    /** A timer that counts the tasks scheduled on it, as the component's (one thread, cancelled tasks removed). */
    private static final class CountingTimer extends ScheduledThreadPoolExecutor {
        final AtomicInteger scheduled = new AtomicInteger();

        CountingTimer() {
            super(1);
            setRemoveOnCancelPolicy(true);
        }

        @Override
        public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
            scheduled.incrementAndGet();
            return super.schedule(command, delay, unit);
        }
    }

    private final CountingTimer timer = new CountingTimer();
    private final HandClockGate hand = new HandClockGate(timer);
    private final AdmissionGate gate = hand.gate;
    private final List<String> events = hand.events;

    @AfterEach
    void stopTimer() {
        timer.shutdownNow();
    }

    @Test
    void manyWaitersTimeOutIntoRejectEachExactlyOnceInArrivalOrderOnOneTimerTask() throws Exception {
        gate.setLimits(1, 10_000, 100);
        hand.enter("a");
        for (int i = 0; i < 1_000; i++) {
            hand.enter("w" + i);
        }
        assertThat(timer.getQueue()).as("one task for a thousand waits").hasSize(1);
        hand.at(100);
        // The timer refuses them outside the gate's lock: wait for the last answer, not for the empty queue.
        await("all timed out", () -> events.size() == 1_001);
        assertThat(gate.queued()).isZero();

        List<String> expected = new ArrayList<>(List.of("admit a"));
        IntStream.range(0, 1_000).forEach(i -> expected.add("reject w" + i));
        assertThat(events).containsExactlyElementsOf(expected);
        // One task; one more if the timer ran before the clock was moved (it then found nobody due and moved on to
        // the oldest's time).
        assertThat(timer.scheduled.get()).as("tasks scheduled for 1,000 waits").isBetween(1, 5);
        gate.exit();
        assertThat(gate.running()).isZero();
        assertThat(events).as("nothing more once they are answered").hasSize(1_001);
    }

    @Test
    void theOldestTimeOutFirstAndTheYoungerWaitForTheirOwnTime() throws Exception {
        gate.setLimits(1, 100, 100);
        hand.at(0);
        hand.enter("a");
        hand.enter("b");
        hand.at(40);
        hand.enter("c");
        hand.enter("d");
        hand.at(120);
        await("b timed out", () -> events.contains("reject b"));
        assertThat(events).containsExactly("admit a", "reject b");
        assertThat(gate.queued()).as("c and d waited 80 ms of their 100").isEqualTo(2);
        hand.at(140);
        await("c and d timed out", () -> events.contains("reject d"));
        assertThat(events).containsExactly("admit a", "reject b", "reject c", "reject d");
    }

    @Test
    void waitersAdmittedBeforeTheirTimeCostTheTimerNothing() {
        gate.setLimits(1, 10_000, 60_000);
        hand.enter("a");
        for (int i = 0; i < 1_000; i++) {
            hand.enter("w" + i);
            gate.exit();
        }
        assertThat(events).hasSize(1_001).allMatch(e -> e.startsWith("admit"));
        assertThat(timer.scheduled.get()).as("one task, due at the first waiter's time").isEqualTo(1);
    }

    @Test
    void aWaiterTimesOutNoEarlierThanTheQueueTimeoutOnTheRealClock() throws Exception {
        AdmissionGate real = new AdmissionGate(timer);
        real.setLimits(1, 10, 200);
        HandClockGate.enter(real, () -> events.add("admit a"), () -> events.add("reject a"));
        long arrived = System.nanoTime();
        CountDownLatch rejected = new CountDownLatch(1);
        HandClockGate.enter(real, () -> events.add("admit b"), rejected::countDown);
        assertThat(rejected.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(System.nanoTime() - arrived).as("answered after the timeout, not before")
                .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(200));
        assertThat(real.queued()).isZero();
        real.exit();
        assertThat(real.running()).isZero();
        assertThat(events).containsExactly("admit a");
    }

    @Test
    void aLoweredTimeoutAppliesToTheWaitersAlreadyQueued() throws Exception {
        gate.setLimits(1, 10, 60_000);
        hand.at(0);
        hand.enter("a");
        hand.enter("b");
        hand.enter("c");
        hand.at(150);
        hand.enter("d");
        hand.at(200);
        gate.setLimits(1, 10, 100);
        await("b and c timed out at once", () -> events.contains("reject c"));
        assertThat(events).containsExactly("admit a", "reject b", "reject c");
        assertThat(gate.queued()).as("d waited 50 ms of the new 100").isEqualTo(1);
        hand.at(250);
        await("d timed out", () -> events.contains("reject d"));
        assertThat(events).containsExactly("admit a", "reject b", "reject c", "reject d");
    }

    @Test
    void aRequestThatWouldWaitOnceTheTimerIsShutDownIsRefusedAtOnce() {
        gate.setLimits(1, 10, 60_000);
        hand.enter("a");
        timer.shutdown();
        hand.enter("b");
        assertThat(events).containsExactly("admit a", "reject b");
        assertThat(gate.queued()).isZero();
    }

    @Test
    void aTimerShutDownWhileRequestsWaitRefusesThemAllAtTheNextArrival() {
        gate.setLimits(1, 10, 60_000);
        hand.enter("a");
        hand.enter("b");
        hand.enter("c");
        timer.shutdown();
        hand.enter("d");
        assertThat(events).as("nothing would time them out").containsExactly("admit a", "reject b", "reject c",
                "reject d");
        assertThat(gate.queued()).isZero();
        gate.exit();
        assertThat(gate.running()).isZero();
    }

    @Test
    void waitersLeftWhenTheTimerIsShutDownStillTimeOut() throws Exception {
        gate.setLimits(1, 10, 100);
        hand.at(0);
        hand.enter("a");
        hand.enter("b");
        hand.at(50);
        hand.enter("c");
        // The component stops: its timer is shut down, no request arrives any more. The task it holds still runs.
        timer.shutdown();
        hand.at(120);
        await("b timed out", () -> events.contains("reject b"));
        hand.at(500);
        await("c timed out too", () -> events.contains("reject c"));
        assertThat(events).containsExactly("admit a", "reject b", "reject c");
    }

    @Test
    void aRequestThatArrivesWhileTheTimerRefusesTheExpiredStillTimesOut() throws Exception {
        gate.setLimits(1, 10, 100);
        hand.at(0);
        hand.enter("a");
        CountDownLatch refusing = new CountDownLatch(1);
        CountDownLatch arrived = new CountDownLatch(1);
        HandClockGate.enter(gate, () -> events.add("admit b"), () -> {
            events.add("reject b");
            refusing.countDown();
            awaitLatch(arrived);
        });
        hand.at(100);
        // The timer's run refuses b, the only waiter, and finds nobody left to time out; meanwhile c arrives.
        assertThat(refusing.await(10, TimeUnit.SECONDS)).isTrue();
        hand.enter("c");
        arrived.countDown();
        hand.at(300);
        await("c timed out", () -> events.contains("reject c"));
        assertThat(events).containsExactly("admit a", "reject b", "reject c");
    }

    private static void awaitLatch(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void oneTaskAtATimeAnEarlierDueTimeReplacesIt() {
        WaitTimeouts timeouts = new WaitTimeouts(timer, () -> -1, () -> { });
        assertThat(timeouts.due(TimeUnit.SECONDS.toNanos(60))).isTrue();
        assertThat(timeouts.due(TimeUnit.SECONDS.toNanos(70))).isTrue();
        assertThat(timer.scheduled.get()).as("a later due time keeps the task").isEqualTo(1);
        assertThat(timeouts.due(TimeUnit.SECONDS.toNanos(10))).isTrue();
        assertThat(timer.scheduled.get()).isEqualTo(2);
        assertThat(timer.getQueue()).as("the later one cancelled").hasSize(1);
        assertThat(((ScheduledFuture<?>) timer.getQueue().peek()).getDelay(TimeUnit.SECONDS)).isLessThanOrEqualTo(10);
        timer.shutdown();
        assertThat(timeouts.due(TimeUnit.SECONDS.toNanos(1))).as("the timer is shut down").isFalse();
    }

    @Test
    void aRunThatFailsIsTriedAgainAndOneThatFindsNobodyWaitingEnds() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch third = new CountDownLatch(3);
        WaitTimeouts timeouts = new WaitTimeouts(timer, () -> {
            third.countDown();
            return switch (runs.incrementAndGet()) {
                case 1 -> throw new IllegalStateException("a broken expiry, logged");
                case 2 -> TimeUnit.MILLISECONDS.toNanos(10); // the next waiter is due in 10 ms
                default -> -1; // nobody waits
            };
        }, () -> { });
        timeouts.due(0);
        assertThat(third.await(10, TimeUnit.SECONDS)).isTrue();
        Thread.sleep(100);
        assertThat(runs).as("no run after one that found nobody waiting").hasValue(3);
        assertThat(timer.getQueue()).isEmpty();
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("%s within 10 s", what).isLessThan(deadline);
            Thread.sleep(5);
        }
    }
}
