package io.github.slingvt.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Limits, order and the queue's discipline of the {@link AdmissionGate}, on a clock moved by hand. The waits here
 * (60 s) never time out within a test; the timeouts are in {@link WaitTimeoutsTest}.
 */
class AdmissionGateTest {

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final HandClockGate hand = new HandClockGate(timer);
    private final AdmissionGate gate = hand.gate;
    private final List<String> events = hand.events;

    @AfterEach
    void stopTimer() {
        timer.shutdownNow();
    }

    private List<String> admitted() {
        return events.stream().filter(e -> e.startsWith("admit ")).map(e -> e.substring(6)).toList();
    }

    @Test
    void unboundedAdmitsEverything() {
        gate.setLimits(0, 0, 1000);
        for (int i = 0; i < 1000; i++) {
            hand.enter("r" + i);
        }
        assertThat(events).hasSize(1000).allMatch(e -> e.startsWith("admit"));
        assertThat(gate.running()).isEqualTo(1000);
    }

    @Test
    void waitersAreAdmittedInOrderWhenSlotsFree() {
        gate.setLimits(1, 10, 60_000);
        hand.enter("a");
        hand.enter("b");
        hand.enter("c");
        assertThat(events).containsExactly("admit a");
        assertThat(gate.queued()).isEqualTo(2);
        gate.exit();
        assertThat(events).containsExactly("admit a", "admit b");
        gate.exit();
        assertThat(events).containsExactly("admit a", "admit b", "admit c");
        assertThat(gate.queued()).isZero();
        assertThat(gate.running()).isEqualTo(1);
    }

    @Test
    void fullQueueRejectsAtOnce() {
        gate.setLimits(1, 1, 60_000);
        hand.enter("a");
        hand.enter("b");
        hand.enter("c");
        assertThat(events).containsExactly("admit a", "reject c");
        assertThat(gate.queued()).isEqualTo(1);
    }

    @Test
    void raisingTheLimitDrainsTheQueue() {
        gate.setLimits(1, 10, 60_000);
        hand.enter("a");
        hand.enter("b");
        hand.enter("c");
        gate.setLimits(0, 10, 60_000);
        assertThat(events).containsExactly("admit a", "admit b", "admit c");
        assertThat(gate.queued()).isZero();
    }

    @Test
    void aWaiterWhoseStartThrowsLeavesTheOthersTakenOffTheQueueToRun() {
        gate.setLimits(1, 10, 60_000);
        hand.enter("a");
        HandClockGate.enter(gate, () -> {
            events.add("admit b");
            throw new IllegalStateException("b cannot start");
        }, () -> events.add("reject b"));
        hand.enter("c");
        hand.enter("d");
        gate.setLimits(0, 10, 60_000);
        assertThat(events).containsExactly("admit a", "admit b", "admit c", "admit d");
        assertThat(gate.queued()).isZero();
        assertThat(gate.running()).as("b's slot was given back").isEqualTo(3);
    }

    @Test
    void capHoldsUnderConcurrency() throws InterruptedException {
        AdmissionGate real = new AdmissionGate(timer);
        int cap = 8;
        real.setLimits(cap, 100_000, 60_000);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        CountDownLatch all = new CountDownLatch(2000);
        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 2000; i++) {
                pool.submit(() -> HandClockGate.enter(real, () -> Thread.ofVirtual().start(() -> {
                    peak.accumulateAndGet(running.incrementAndGet(), Math::max);
                    Thread.yield();
                    running.decrementAndGet();
                    done.incrementAndGet();
                    real.exit();
                    all.countDown();
                }), all::countDown));
            }
            assertThat(all.await(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(done).as("none refused, none lost").hasValue(2000);
        assertThat(peak.get()).isLessThanOrEqualTo(cap);
        assertThat(real.running()).isZero();
        assertThat(real.queued()).isZero();
    }

    @Test
    void tryEnterTakesAFreeSlotButNeverJumpsTheQueue() {
        gate.setLimits(1, 10, 60_000);
        assertThat(gate.tryEnter()).isTrue();
        assertThat(gate.tryEnter()).isFalse();
        hand.enter("b");
        gate.setLimits(3, 10, 60_000);
        assertThat(events).as("the waiter took the first slot the raised cap freed").containsExactly("admit b");
        assertThat(gate.tryEnter()).isTrue();
        assertThat(gate.tryEnter()).isFalse();
        assertThat(gate.running()).isEqualTo(3);
    }

    /**
     * a runs; old0 and old1 join at 0 ms (the queue forms); at 500 ms ten more join while one is admitted, at 600 ms
     * when the oldest had waited 600 ms: at 1,000 ms the queue has stood a whole interval and grown by 9, more than
     * the 3.2 of noise of ten arrivals. The clock is left at 1,000 ms, where nothing has been judged yet.
     */
    private void overload(int maxQueued) {
        gate.setLimits(1, maxQueued, 60_000);
        hand.at(0);
        hand.enter("a");
        hand.enter("old0");
        hand.enter("old1");
        hand.at(500);
        for (int i = 0; i < 10; i++) {
            hand.enter("new" + i);
        }
        hand.at(600);
        gate.exit();
        hand.at(1_000);
    }

    @Test
    void aQueueThatStoodAndGrewForAWholeIntervalIsServedNewestFirstInTheNext() {
        overload(1_000);
        assertThat(admitted()).as("in order within the interval being judged").containsExactly("a", "old0");
        gate.exit();
        assertThat(admitted()).containsExactly("a", "old0", "new9");
        assertThat(gate.newestFirst()).isTrue();
        gate.exit();
        assertThat(admitted()).last().isEqualTo("new8");
    }

    @Test
    void onceNewestFirstTheQueueDrainsNewestFirstAndIsServedInOrderAgainOnceItRanEmpty() {
        overload(1_000);
        gate.exit();
        hand.at(1_200);
        hand.enter("late");
        // One answer every 100 ms, nobody joins: the backlog drains, from the newest on.
        for (long t = 1_300; gate.queued() > 0; t += 100) {
            hand.at(t);
            assertThat(gate.newestFirst()).as("at %d ms, %d waiting", t, gate.queued()).isTrue();
            gate.exit();
        }
        assertThat(admitted()).containsExactly("a", "old0", "new9", "late", "new8", "new7", "new6", "new5", "new4",
                "new3", "new2", "new1", "new0", "old1");
        hand.at(2_500);
        hand.enter("x");
        hand.enter("y");
        assertThat(gate.newestFirst()).as("the interval in which it ran empty is judged").isFalse();
        hand.at(2_600);
        gate.exit();
        assertThat(admitted()).last().isEqualTo("x");
    }

    @Test
    void aStandingQueueThatStaysLevelIsServedInOrderHoweverLongItsOldestWaited() {
        gate.setLimits(1, 1_000, 60_000);
        hand.at(0);
        hand.enter("a");
        for (int i = 0; i < 20; i++) {
            hand.enter("w" + i);
        }
        // A closed loop for 5 s: each answer brings its client's next request, four an interval. Every waiter waits
        // twenty answers, 2.5 s, at the head of a queue that never drains.
        for (int step = 1; step <= 40; step++) {
            hand.at(step * 125L);
            gate.exit();
            hand.enter("w" + (19 + step));
        }
        assertThat(admitted()).containsExactlyElementsOf(Stream.concat(Stream.of("a"),
                IntStream.range(0, 40).mapToObj(i -> "w" + i)).toList());
        assertThat(gate.newestFirst()).isFalse();
        assertThat(gate.queued()).isEqualTo(20);
    }

    /**
     * A burst joins at 450 ms and grows for the whole next interval; its first waiter is admitted at
     * {@code firstAdmissionMillis}. Waited 70 ms then, below the 100 ms target: a burst, served in order; waited
     * 110 ms: the queue stood the interval, and serves the newest first.
     */
    @ParameterizedTest(name = "first admitted at {0} ms: then {1}")
    @CsvSource({"520, c2", "560, d9"})
    void aBurstWhoseOldestWaitedLessThanTheTargetAtAnAdmissionIsServedInOrder(long firstAdmissionMillis,
            String third) {
        gate.setLimits(1, 1_000, 60_000);
        hand.at(0);
        hand.enter("a");
        hand.enter("b0");
        hand.at(400);
        gate.exit();
        hand.at(450);
        for (int i = 0; i < 20; i++) {
            hand.enter("c" + i);
        }
        hand.at(firstAdmissionMillis);
        gate.exit();
        hand.at(600);
        for (int i = 0; i < 10; i++) {
            hand.enter("d" + i);
        }
        hand.at(900);
        gate.exit();
        hand.at(1_000);
        gate.exit();
        assertThat(admitted()).containsExactly("a", "b0", "c0", "c1", third);
    }

    @Test
    void aFullQueueServingTheNewestFirstRefusesItsOldestInsteadOfTheNewcomer() {
        overload(12);
        hand.enter("x");
        assertThat(gate.queued()).as("room for one more").isEqualTo(12);
        hand.enter("y");
        assertThat(events).as("old1, the oldest, is answered now").endsWith("reject old1");
        assertThat(gate.queued()).isEqualTo(12);
        gate.exit();
        gate.exit();
        assertThat(admitted()).endsWith("y", "x");
        assertThat(events).filteredOn(e -> e.startsWith("reject")).containsExactly("reject old1");
        assertThat(gate.running()).isEqualTo(1);
    }

    @Test
    void aFullQueueServedInOrderRefusesTheNewcomerHoweverLongItsOldestWaited() {
        gate.setLimits(1, 2, 60_000);
        hand.at(0);
        hand.enter("a");
        hand.enter("b");
        hand.enter("c");
        hand.at(5_000);
        hand.enter("d");
        assertThat(events).containsExactly("admit a", "reject d");
        assertThat(gate.newestFirst()).isFalse();
        gate.exit();
        assertThat(events).containsExactly("admit a", "reject d", "admit b");
    }

    /**
     * A full queue that refuses newcomers grows as surely as one that takes them: b is admitted at 600 ms after
     * waiting 600 ms, d takes its place, and five more are refused within the interval. At 1,000 ms the queue has
     * stood and six wanted in for one that left: newest first, so f displaces c, the oldest, instead of being refused.
     */
    @Test
    void aFullQueueThatRefusesNewcomersForAWholeIntervalServesTheNewestFirstInTheNext() {
        gate.setLimits(1, 2, 60_000);
        hand.at(0);
        hand.enter("a");
        hand.enter("b");
        hand.enter("c");
        hand.at(600);
        gate.exit();
        hand.enter("d");
        for (int i = 0; i < 5; i++) {
            hand.at(700 + 40 * i);
            hand.enter("e" + i);
        }
        hand.at(1_000);
        hand.enter("f");
        assertThat(gate.newestFirst()).isTrue();
        gate.exit();
        assertThat(events).containsExactly("admit a", "admit b", "reject e0", "reject e1", "reject e2", "reject e3",
                "reject e4", "reject c", "admit f");
    }

    /** Without a queue (maxQueuedRequests=0) every request beyond the cap is refused; there is no order to report. */
    @Test
    void aGateWithoutAQueueNeverServesTheNewestFirst() {
        gate.setLimits(1, 0, 60_000);
        hand.enter("a");
        for (int t = 0; t <= 2_000; t += 100) {
            hand.at(t);
            hand.enter("r" + t);
        }
        assertThat(gate.newestFirst()).isFalse();
        assertThat(events).hasSize(22).first().isEqualTo("admit a");
    }
}
