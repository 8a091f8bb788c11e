package io.github.slingvt.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AdmissionGateTest {

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    /** The clock of the clients' patience, moved by hand; the waiters' ages are real time. */
    private final AtomicLong clock = new AtomicLong();
    /** Looks at every waiter's client at once, and only when a test sweeps by hand ({@link #leave}). */
    private final AdmissionGate gate = new AdmissionGate(timer, clock::get, 0, 0);
    private final List<String> events = new CopyOnWriteArrayList<>();

    @AfterEach
    void stopTimer() {
        timer.shutdownNow();
    }

    private void enter(String name) {
        enter(gate, name);
    }

    private void enter(AdmissionGate on, String name) {
        on.enter(() -> events.add("admit " + name), () -> events.add("reject " + name));
    }

    @Test
    void unboundedAdmitsEverything() {
        gate.setLimits(0, 0, 1000);
        for (int i = 0; i < 1000; i++) {
            enter("r" + i);
        }
        assertThat(events).hasSize(1000).allMatch(e -> e.startsWith("admit"));
        assertThat(gate.running()).isEqualTo(1000);
    }

    @Test
    void waitersAreAdmittedInOrderWhenSlotsFree() {
        gate.setLimits(1, 10, 60_000);
        enter("a");
        enter("b");
        enter("c");
        assertThat(events).containsExactly("admit a");
        assertThat(gate.queued()).isEqualTo(2);
        gate.exit();
        assertThat(events).containsExactly("admit a", "admit b");
        gate.exit();
        assertThat(events).containsExactly("admit a", "admit b", "admit c");
        assertThat(gate.queued()).isZero();
    }

    @Test
    void fullQueueRejectsAtOnce() {
        gate.setLimits(1, 1, 60_000);
        enter("a");
        enter("b");
        enter("c");
        assertThat(events).containsExactly("admit a", "reject c");
    }

    @Test
    void waiterTimesOutIntoReject() throws InterruptedException {
        CountDownLatch rejected = new CountDownLatch(1);
        gate.setLimits(1, 5, 50);
        enter("a");
        gate.enter(() -> events.add("admit b"), () -> {
            events.add("reject b");
            rejected.countDown();
        });
        assertThat(rejected.await(5, TimeUnit.SECONDS)).isTrue();
        gate.exit();
        assertThat(events).containsExactly("admit a", "reject b");
        assertThat(gate.running()).isZero();
    }

    @Test
    void raisingTheLimitDrainsTheQueue() {
        gate.setLimits(1, 10, 60_000);
        enter("a");
        enter("b");
        enter("c");
        gate.setLimits(0, 10, 60_000);
        assertThat(events).containsExactly("admit a", "admit b", "admit c");
    }

    @Test
    void aWaiterWhoseStartThrowsLeavesTheOthersTakenOffTheQueueToRun() {
        gate.setLimits(1, 10, 60_000);
        enter("a");
        gate.enter(() -> {
            events.add("admit b");
            throw new IllegalStateException("b cannot start");
        }, () -> events.add("reject b"));
        enter("c");
        enter("d");
        gate.setLimits(0, 10, 60_000);
        assertThat(events).containsExactly("admit a", "admit b", "admit c", "admit d");
        assertThat(gate.queued()).isZero();
    }

    @Test
    void capHoldsUnderConcurrency() throws InterruptedException {
        int cap = 8;
        gate.setLimits(cap, 100_000, 60_000);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        CountDownLatch all = new CountDownLatch(2000);
        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 2000; i++) {
                pool.submit(() -> gate.enter(() -> Thread.ofVirtual().start(() -> {
                    peak.accumulateAndGet(running.incrementAndGet(), Math::max);
                    Thread.yield();
                    running.decrementAndGet();
                    done.incrementAndGet();
                    gate.exit();
                    all.countDown();
                }), all::countDown));
            }
            assertThat(all.await(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(done).hasValue(2000);
        assertThat(peak.get()).isLessThanOrEqualTo(cap);
        assertThat(gate.running()).isZero();
    }

    /** A watch the test closes by hand, as a client would close its connection. */
    private static final class HandWatch implements ClientWatch {
        final AtomicInteger looks = new AtomicInteger();
        volatile boolean closed;
        volatile boolean released;

        @Override
        public boolean gone() {
            looks.incrementAndGet();
            return closed && !released;
        }

        @Override
        public void release() {
            released = true;
        }

        void close() {
            closed = true;
        }
    }

    /** The clients close their connections, and the gate looks at once. */
    private void leave(List<HandWatch> clients) {
        clients.forEach(HandWatch::close);
        gate.sweep();
    }

    private void leave(HandWatch client) {
        leave(List.of(client));
    }

    private HandWatch enterWatched(String name) {
        return enterWatched(gate, name);
    }

    /** a runs on a gate with one slot; b and c wait, watched. */
    private List<HandWatch> oneRunsTwoWait(AdmissionGate on) {
        on.setLimits(1, 10, 60_000);
        enter(on, "a");
        return List.of(enterWatched(on, "b"), enterWatched(on, "c"));
    }

    private HandWatch enterWatched(AdmissionGate on, String name) {
        HandWatch watch = new HandWatch();
        on.enter(() -> events.add("admit " + name), () -> events.add("reject " + name), watch,
                () -> events.add("gone " + name));
        return watch;
    }

    @Test
    void aWaiterWhoseClientLeftIsDroppedAndNeverRuns() {
        List<HandWatch> waiting = oneRunsTwoWait(gate);
        HandWatch b = waiting.get(0);
        HandWatch c = waiting.get(1);
        b.close();
        assertThat(events).as("not before the gate looks").containsExactly("admit a");
        gate.sweep();
        assertThat(events).containsExactly("admit a", "gone b");
        assertThat(gate.queued()).isEqualTo(1);
        gate.exit();
        assertThat(events).containsExactly("admit a", "gone b", "admit c");
        assertThat(c.released).as("the watch ends when the request is admitted").isTrue();
        assertThat(c.looks).as("looked at by the sweep, and once more as it was admitted").hasValue(2);
        leave(c);
        assertThat(c.looks).as("an admitted request's client is not looked at").hasValue(2);
        assertThat(events).as("a late close of an admitted request's client changes nothing").hasSize(3);
        assertThat(gate.running()).isEqualTo(1);
    }

    @Test
    void aClientThatLeftBetweenTwoLooksIsSeenWhenItsRequestIsAdmittedAndItsSlotGoesToTheNewest() {
        List<HandWatch> waiting = oneRunsTwoWait(gate);
        HandWatch b = waiting.get(0);
        HandWatch c = waiting.get(1);
        HandWatch d = enterWatched("d");
        b.close();
        c.close();
        gate.exit();
        assertThat(events).as("b found gone when admitted, without a sweep; its slot goes to the newest, d")
                .containsExactly("admit a", "gone b", "admit d");
        assertThat(List.of(b.released, d.released)).containsOnly(true);
        assertThat(gate.running()).isEqualTo(1);
        assertThat(gate.queued()).as("c, gone too, waits for the sweep").isEqualTo(1);
        gate.sweep();
        assertThat(events).containsExactly("admit a", "gone b", "admit d", "gone c");
        assertThat(gate.queued()).isZero();
    }

    @Test
    void aWaiterFoundGoneAsItIsAdmittedPutsTheNewestFirstForASecond() {
        gate.setLimits(1, 10, 60_000);
        enter("a");
        HandWatch b = enterWatched("b");
        enterWatched("c");
        enterWatched("d");
        enterWatched("e");
        b.close();
        gate.exit();
        assertThat(events).as("the oldest left: its waits outlast the clients").containsExactly("admit a", "gone b",
                "admit e");
        clock.addAndGet(QueueOrder.GONE_AT_ADMISSION_NANOS - 1);
        gate.exit();
        assertThat(events).as("still within the second").endsWith("admit d");
        clock.addAndGet(1);
        gate.exit();
        assertThat(events).as("a second later, nobody found gone since: first in, first out again")
                .containsExactly("admit a", "gone b", "admit e", "admit d", "admit c");
        assertThat(gate.patienceMillis(true)).as("one departure is no patience").isZero();
    }

    @Test
    void aCrowdThatLeavesTogetherLeavesNoOrderBehindOnceASecondHasPassed() {
        gate.setLimits(1, 100, 60_000);
        enter("first");
        List<HandWatch> crowd = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            crowd.add(enterWatched("crowd" + i));
        }
        crowd.forEach(HandWatch::close);
        gate.exit();
        assertThat(events).hasSize(21).allMatch(e -> e.equals("admit first") || e.startsWith("gone crowd"));
        assertThat(gate.running()).isZero();
        clock.addAndGet(QueueOrder.GONE_AT_ADMISSION_NANOS);
        enter("x");
        enterWatched("y");
        enterWatched("z");
        gate.exit();
        gate.exit();
        assertThat(events).endsWith("admit x", "admit y", "admit z");
    }

    @Test
    void anyNumberOfClientsThatLeftGiveTheSlotOnWithoutRecursion() {
        gate.setLimits(1, 100_000, 60_000);
        enter("first");
        AtomicInteger goneCount = new AtomicInteger();
        List<HandWatch> gone = new ArrayList<>();
        for (int i = 0; i < 50_000; i++) {
            HandWatch watch = new HandWatch();
            gate.enter(() -> events.add("admit a gone one"), () -> events.add("reject"), watch,
                    goneCount::incrementAndGet);
            gone.add(watch);
        }
        gone.forEach(HandWatch::close);
        gate.exit();
        assertThat(goneCount).as("the oldest, then from the newest on").hasValue(50_000);
        assertThat(gate.queued()).isZero();
        assertThat(gate.running()).isZero();
        enterWatched("next");
        assertThat(events).containsExactly("admit first", "admit next");
        assertThat(gate.running()).isEqualTo(1);
    }

    @Test
    void aWaiterLookedAtWithinTheWatchDelayIsAdmittedWithoutAnotherLook() throws Exception {
        AdmissionGate delayed = new AdmissionGate(timer, clock::get, 200, 0);
        List<HandWatch> waiting = oneRunsTwoWait(delayed);
        HandWatch b = waiting.get(0);
        HandWatch c = waiting.get(1);
        Thread.sleep(250);
        delayed.sweep();
        assertThat(List.of(b.looks.get(), c.looks.get())).containsExactly(1, 1);
        delayed.exit();
        assertThat(b.looks).as("the sweep's look is recent enough").hasValue(1);
        Thread.sleep(250);
        delayed.exit();
        assertThat(c.looks).as("looked at again: the sweep's look is older than the watch delay").hasValue(2);
        assertThat(events).containsExactly("admit a", "admit b", "admit c");
    }

    @Test
    void aClientIsLookedAtOnlyOnceItsRequestHasWaitedTheWatchDelayAndThenEverySweep() throws Exception {
        AdmissionGate delayed = new AdmissionGate(timer, clock::get, 300, 50);
        List<HandWatch> waiting = oneRunsTwoWait(delayed);
        HandWatch b = waiting.get(0);
        HandWatch c = waiting.get(1);
        delayed.exit();
        assertThat(events).containsExactly("admit a", "admit b");
        Thread.sleep(100);
        assertThat(c.looks).as("not looked at within the delay").hasValue(0);

        awaitTrue(() -> c.looks.get() >= 2);
        assertThat(events).as("a client that stays keeps its place").containsExactly("admit a", "admit b");
        c.close();
        awaitTrue(() -> events.contains("gone c"));
        assertThat(events).containsExactly("admit a", "admit b", "gone c");
        assertThat(delayed.queued()).isZero();
        Thread.sleep(200);
        assertThat(b.looks).as("admitted before the delay: never looked at").hasValue(0);
    }

    @Test
    void aSweepLooksAtTheWaitersThatWaitedTheDelayAndAtNoOther() throws Exception {
        AdmissionGate delayed = new AdmissionGate(timer, clock::get, 150, 0);
        delayed.setLimits(1, 10, 60_000);
        delayed.enter(() -> events.add("admit a"), () -> events.add("reject a"));
        HandWatch old = new HandWatch();
        delayed.enter(() -> events.add("admit old"), () -> events.add("reject old"), old, () -> { });
        Thread.sleep(200);
        HandWatch young = new HandWatch();
        delayed.enter(() -> events.add("admit young"), () -> events.add("reject young"), young, () -> { });
        delayed.enter(() -> events.add("admit unwatched"), () -> events.add("reject unwatched"));
        delayed.sweep();
        assertThat(old.looks).hasValue(1);
        assertThat(young.looks).hasValue(0);
    }

    @Test
    void noSweepIsDueWhileNobodyWaits() throws Exception {
        ScheduledThreadPoolExecutor clockThread = new ScheduledThreadPoolExecutor(1);
        clockThread.setRemoveOnCancelPolicy(true);
        try {
            AdmissionGate swept = new AdmissionGate(clockThread, clock::get, 0, 20);
            swept.setLimits(1, 10, 60_000);
            swept.enter(() -> events.add("admit a"), () -> events.add("reject a"));
            HandWatch b = new HandWatch();
            swept.enter(() -> events.add("admit b"), () -> events.add("reject b"), b, () -> { });
            awaitTrue(() -> b.looks.get() >= 3);
            swept.exit();
            assertThat(events).containsExactly("admit a", "admit b");
            int looks = b.looks.get();
            awaitTrue(() -> clockThread.getQueue().isEmpty());
            Thread.sleep(100);
            assertThat(clockThread.getQueue()).as("no sweep, no timeout left").isEmpty();
            assertThat(b.looks.get()).as("at most the sweep under way when it was admitted").isLessThanOrEqualTo(looks + 1);
        } finally {
            clockThread.shutdownNow();
        }
    }

    @Test
    void aWaiterLookedAtTimesOutNoEarlierThanTheQueueTimeoutAndItsWatchEnds() throws Exception {
        AdmissionGate delayed = new AdmissionGate(timer, clock::get, 100, 50);
        delayed.setLimits(1, 10, 400);
        delayed.enter(() -> events.add("admit a"), () -> events.add("reject a"));
        long arrived = System.nanoTime();
        CountDownLatch rejected = new CountDownLatch(1);
        HandWatch b = new HandWatch();
        delayed.enter(() -> events.add("admit b"), () -> {
            events.add("reject b");
            rejected.countDown();
        }, b, () -> events.add("gone b"));
        assertThat(rejected.await(10, TimeUnit.SECONDS)).isTrue();
        long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - arrived);
        assertThat(waitedMillis).as("answered after the queue timeout").isGreaterThanOrEqualTo(390L);
        assertThat(b.looks.get()).as("looked at while it waited").isPositive();
        assertThat(b.released).as("the watch ends with the wait").isTrue();
        assertThat(events).containsExactly("admit a", "reject b");
    }

    private static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("within 10 s").isLessThan(deadline);
            Thread.sleep(10);
        }
    }

    /** Moves the patience's clock to the next window. */
    private void nextWindow() {
        clock.addAndGet(Patience.WINDOW_NANOS);
    }

    @Test
    void theAgeAtWhichClientsLeaveSecondAfterSecondIsTheirPatience() throws Exception {
        gate.setLimits(1, 10, 60_000);
        enter("a");
        for (int second = 0; second < 3; second++) {
            HandWatch b = enterWatched("b" + second);
            Thread.sleep(200);
            leave(b);
            nextWindow();
        }
        assertThat(gate.patienceMillis(false)).as("judged once the window after it is over").isZero();
        enter("c");
        assertThat(gate.patienceMillis(false)).isBetween(200L, 2_000L);
        assertThat(gate.patienceMillis(true)).as("one client a second is no pattern yet: the queue does not go by it")
                .isZero();
        for (int second = 0; second < Patience.SAMPLES; second++) {
            HandWatch b = enterWatched("d" + second);
            Thread.sleep(200);
            leave(b);
            nextWindow();
            enter("e" + second);
        }
        assertThat(gate.patienceMillis(true)).as("known after enough departures").isBetween(200L, 2_000L);
    }

    @Test
    void aDepartureSeenBetweenTwoLooksIsCountedHalfwayBetweenThem() throws Exception {
        gate.setLimits(1, 10, 60_000);
        enter("a");
        for (int second = 0; second < 3; second++) {
            HandWatch b = enterWatched("b" + second);
            Thread.sleep(50);
            gate.sweep(); // still there at about 50 ms
            Thread.sleep(400);
            leave(b); // gone at about 450 ms: it left somewhere in between
            nextWindow();
        }
        enter("c");
        assertThat(gate.patienceMillis(false)).as("about 250 ms, not the 450 ms at which it was seen gone")
                .isBetween(200L, 400L);
    }

    @Test
    void clientsThatAllLeaveTogetherTeachNothing() throws Exception {
        gate.setLimits(1, 100, 60_000);
        enter("a");
        List<HandWatch> all = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            all.add(enterWatched("r" + i));
        }
        Thread.sleep(100);
        leave(all.subList(0, 25)); // the end of a load test: everyone leaves at once, ...
        nextWindow();
        leave(all.subList(25, 50)); // ... across the turn of a second
        nextWindow();
        for (int i = 0; i < 100; i++) {
            enter("next" + i); // and the next load begins
        }
        nextWindow();
        enter("b");
        assertThat(gate.patienceMillis(false)).isZero();
    }

    @Test
    void firstInFirstOutWhileTheOldestWaitedLessThanHalfOfThePatience() {
        gate.setLimits(1, 10, 60_000);
        enter("a");
        enter("b");
        enter("c");
        gate.exit();
        assertThat(events).containsExactly("admit a", "admit b");
    }

    @Test
    void newestFirstOnceTheOldestWaitedHalfOfTheTimeout() throws Exception {
        gate.setLimits(1, 10, 300);
        enter("a");
        enter("b");
        enter("c");
        Thread.sleep(200);
        gate.exit();
        assertThat(events).containsExactly("admit a", "admit c");
    }

    /** a runs on a gate with one slot and room for 1,000 waiters; old0 to old29 wait. */
    private void aRunsThirtyWait() {
        gate.setLimits(1, 1000, 60_000);
        enter("a");
        for (int i = 0; i < 30; i++) {
            enter("old" + i);
        }
    }

    /** In the next window "new" joins; old0 goes first, and once the oldest waited a second "new" goes next. */
    private void newcomerFirstOnceTheOldestWaitedASecond(String why) throws InterruptedException {
        nextWindow();
        enter("new");
        gate.exit();
        assertThat(events).as("the oldest waited less than a second: in order").last().isEqualTo("admit old0");
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(QueueOrder.GROWING_AGE_NANOS) + 100);
        gate.exit();
        assertThat(events).as(why).last().isEqualTo("admit new");
    }

    @Test
    void newestFirstOnceTheOldestWaitedASecondWhileTheQueueGrows() throws Exception {
        aRunsThirtyWait(); // thirty join in one second and none leaves: an overload
        newcomerFirstOnceTheOldestWaitedASecond("far from half of the 60 s timeout, but the queue grows");
    }

    @Test
    void aLevelQueueIsServedInOrderHoweverLongItsOldestWaited() throws Exception {
        aRunsThirtyWait();
        nextWindow();
        for (int i = 0; i < 30; i++) {
            gate.exit(); // a closed loop: each answer brings the next request
            enter("next" + i);
        }
        assertThat(events).as("growing, but nobody waited a second yet").filteredOn(e -> e.startsWith("admit old"))
                .hasSize(30).first().isEqualTo("admit old0");
        assertThat(events).last().isEqualTo("admit old29");
        nextWindow();
        enter("last");
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(QueueOrder.GROWING_AGE_NANOS) + 100);
        gate.exit();
        assertThat(events).as("the queue stayed level over the last second").last().isEqualTo("admit next0");
    }

    @Test
    void newestFirstOnceTheOldestWaitedASecondWhileClientsKeepLeavingAQueueThatStandsLevel() throws Exception {
        aRunsThirtyWait();
        List<HandWatch> leaving = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            leaving.add(enterWatched("leaves" + i));
        }
        // Second after second one waiting client leaves and one new request joins: the queue stands level.
        for (int second = 0; second < 3; second++) {
            nextWindow();
            leave(leaving.get(second));
            enter("next" + second);
        }
        newcomerFirstOnceTheOldestWaitedASecond("level, far from half of the 60 s timeout, but clients keep leaving");
        assertThat(gate.patienceMillis(true)).as("three departures are no patience yet").isZero();
        nextWindow();
        enter("later");
        gate.exit();
        assertThat(events).as("a second without a departure: in order again").last().isEqualTo("admit old1");
    }

    @Test
    void aFullQueueServingTheNewestFirstRefusesItsOldestInsteadOfTheNewcomer() throws Exception {
        gate.setLimits(1, 2, 300);
        enter("a");
        enter("b");
        enter("c");
        Thread.sleep(200);
        enter("d");
        assertThat(events).containsExactly("admit a", "reject b");
        assertThat(gate.queued()).isEqualTo(2);
        gate.exit();
        gate.exit();
        assertThat(events).containsExactly("admit a", "reject b", "admit d", "admit c");
        assertThat(gate.queued()).isZero();
    }

    @Test
    void aFullQueueServedInOrderRefusesTheNewcomer() throws Exception {
        gate.setLimits(1, 2, 60_000);
        enter("a");
        enter("b");
        enter("c");
        Thread.sleep(50);
        enter("d");
        assertThat(events).containsExactly("admit a", "reject d");
        gate.exit();
        assertThat(events).containsExactly("admit a", "reject d", "admit b");
    }

    @Test
    void newestFirstOnceTheOldestWaitedHalfOfTheClientsObservedPatience() throws Exception {
        gate.setLimits(1, 100, 60_000);
        enter("a");
        List<HandWatch> early = new ArrayList<>();
        for (int i = 0; i < 3 * Patience.SAMPLES; i++) {
            early.add(enterWatched("early" + i));
        }
        Thread.sleep(100);
        // Clients leave after about 100 ms, ten in each of three seconds, while as many arrive.
        leave(early.subList(0, Patience.SAMPLES));
        nextWindow();
        for (int i = 0; i < Patience.SAMPLES; i++) {
            enter("q" + i);
        }
        leave(early.subList(Patience.SAMPLES, 2 * Patience.SAMPLES));
        nextWindow();
        for (int i = 0; i < Patience.SAMPLES; i++) {
            enter("r" + i);
        }
        leave(early.subList(2 * Patience.SAMPLES, 3 * Patience.SAMPLES));
        Thread.sleep(200);
        gate.exit();
        assertThat(events).as("not judged before the window after the departures is over: first in, first out")
                .last().isEqualTo("admit q0");
        nextWindow();
        enter("z");
        gate.exit();
        assertThat(events).last().as("q1 waited 200 ms, more than half of the patience").isEqualTo("admit z");
        gate.exit();
        assertThat(events).last().isEqualTo("admit r9");
    }

    @Test
    void tryEnterTakesAFreeSlotButNeverJumpsTheQueue() {
        gate.setLimits(1, 10, 60_000);
        assertThat(gate.tryEnter()).isTrue();
        assertThat(gate.tryEnter()).isFalse();
        enter("b");
        gate.setLimits(3, 10, 60_000);
        assertThat(events).containsExactly("admit b");
        assertThat(gate.tryEnter()).isTrue();
        gate.setLimits(10, 10, 60_000);
        enter("c");
        assertThat(gate.running()).isEqualTo(4);
    }
}
