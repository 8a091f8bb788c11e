package io.github.slingvt.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The real {@link AdmissionGate} under many threads at once that enter, leave, time out, are failed by Jetty while
 * they wait (at once, or later from another thread, racing their admission and their timeout), throw in their
 * admission and move the cap: never more than the cap running, every request answered exactly once, and every slot
 * given back at the end.
 */
class AdmissionGateStressTest {

    /** The highest cap set; the cap moves between 1 and this. */
    private static final int CAP = 4;
    private static final int THREADS = 32;
    private static final int OPERATIONS_PER_THREAD = 2_000;
    /** Short, so that many waits time out; long enough that many are admitted. */
    private static final long QUEUE_TIMEOUT_MILLIS = 20;
    private static final int MAX_QUEUED = 16;
    /** Threads racing for one slot, and for how long. */
    private static final int RACERS = 8;
    private static final long RACE_SECONDS = 5;
    /** The whole run is bounded in time as well as in count. */
    private static final long DEADLINE_SECONDS = 60;

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final AdmissionGate gate = new AdmissionGate(timer);
    private final ExecutorService work = Executors.newVirtualThreadPerTaskExecutor();

    private final LongAdder arrived = new LongAdder();
    private final LongAdder admitted = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final LongAdder abandoned = new LongAdder();
    private final LongAdder completed = new LongAdder();
    /** Outcomes beyond the first of one request: none may happen. */
    private final LongAdder answeredTwice = new LongAdder();
    private final AtomicInteger inWork = new AtomicInteger();
    private final AtomicInteger peakInWork = new AtomicInteger();
    private final AtomicInteger peakRunning = new AtomicInteger();

    @AfterEach
    void stop() {
        work.shutdownNow();
        timer.shutdownNow();
    }

    @Test
    void neverMoreThanTheCapRunAndEverySlotAndRequestIsAccountedFor() throws Exception {
        Object owner = new Object();
        gate.setLimits(CAP, MAX_QUEUED, QUEUE_TIMEOUT_MILLIS, owner);
        AtomicBoolean stop = new AtomicBoolean();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
        List<Future<?>> drivers = new ArrayList<>();
        try (ExecutorService threads = Executors.newFixedThreadPool(THREADS + 1)) {
            for (int t = 0; t < THREADS; t++) {
                drivers.add(threads.submit(() -> drive(deadline)));
            }
            // The cap moves all the while, by reconfiguration and by the adaptive limit's hand.
            threads.submit(() -> {
                while (!stop.get()) {
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    if (random.nextBoolean()) {
                        gate.moveCap(owner, 1 + random.nextInt(CAP));
                    } else {
                        gate.setLimits(1 + random.nextInt(CAP), MAX_QUEUED, QUEUE_TIMEOUT_MILLIS, owner);
                    }
                    sleepMicros(200);
                }
            });
            try {
                for (Future<?> driver : drivers) {
                    driver.get(DEADLINE_SECONDS + 10, TimeUnit.SECONDS);
                }
                // Every wait ends by its timeout at the latest.
                awaitQuiet(deadline);
            } finally {
                // Also when an assertion failed: the pool's close waits for the cap's mover.
                stop.set(true);
            }
        }

        assertThat(peakRunning.get()).as("the gate's running count seen by admitted work").isBetween(1, CAP);
        assertThat(peakInWork.get()).as("admitted work at once").isBetween(1, CAP);
        assertThat(gate.running()).as("every slot given back").isZero();
        assertThat(gate.queued()).as("nobody left waiting").isZero();
        assertThat(arrived.sum()).as("every request answered once")
                .isEqualTo(THREADS * (long) OPERATIONS_PER_THREAD)
                .isEqualTo(admitted.sum() + rejected.sum() + abandoned.sum());
        assertThat(answeredTwice.sum()).as("requests answered more than once").isZero();
        assertThat(completed.sum()).as("every admitted request ended").isEqualTo(admitted.sum());
        assertThat(List.of(admitted.sum(), rejected.sum(), abandoned.sum())).as("each outcome happened")
                .allMatch(n -> n > 0);
    }

    /**
     * The race of the fast path (lock-free) and the queue (under the lock) for the last slot, as narrow as it is in
     * production: one slot, requests that hold it for no time, so that the queue keeps emptying and filling while
     * other threads take the slot without the lock. Bounded in time; the race, where it exists, shows within it.
     */
    @Test
    void theLastSlotIsNeverTakenTwiceByTheFastPathAndTheQueueAtOnce() throws Exception {
        gate.setLimits(1, MAX_QUEUED, TimeUnit.SECONDS.toMillis(DEADLINE_SECONDS));
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(RACE_SECONDS);
        List<Future<?>> racers = new ArrayList<>();
        try (ExecutorService threads = Executors.newFixedThreadPool(RACERS)) {
            for (int t = 0; t < RACERS; t++) {
                racers.add(threads.submit(() -> {
                    while (System.nanoTime() < until) {
                        arrived.increment();
                        gate.enter(new Outcomes(slot -> {
                            admitted.increment();
                            peakRunning.accumulateAndGet(gate.running(), Math::max);
                            completed.increment();
                            slot.giveBack();
                        }, rejected::increment, failure -> abandoned.increment()), Outcomes.NO_FAILURES);
                    }
                }));
            }
            for (Future<?> racer : racers) {
                racer.get(RACE_SECONDS + DEADLINE_SECONDS, TimeUnit.SECONDS);
            }
        }
        awaitQuiet(System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS));
        assertThat(peakRunning.get()).as("the running count seen by %d admitted requests", admitted.sum())
                .isEqualTo(1);
        assertThat(gate.running()).isZero();
        assertThat(admitted.sum() + rejected.sum()).isEqualTo(arrived.sum());
    }

    /** One thread's requests, each of a kind drawn at random, until its count is done or the deadline passed. */
    private void drive(long deadline) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < OPERATIONS_PER_THREAD && System.nanoTime() < deadline; i++) {
            arrived.increment();
            int draw = random.nextInt(100);
            // 2 % throw in their admission (each one logged); 10 % are failed by Jetty as soon as they wait (a
            // connection already failed), 10 % some time later from another thread (an idle timeout, a reset).
            boolean throwing = draw < 2;
            boolean failedAtOnce = draw >= 2 && draw < 12;
            boolean failedLater = draw >= 12 && draw < 22;
            AtomicReference<Consumer<Throwable>> jetty = new AtomicReference<>();
            AtomicBoolean answered = new AtomicBoolean();
            Consumer<Slot> admit = throwing ? this::admitAndThrow : this::admitAndRun;
            try {
                gate.enter(new Outcomes(slot -> {
                    once(answered);
                    admit.accept(slot);
                }, () -> {
                    once(answered);
                    rejected.increment();
                }, failure -> {
                    once(answered);
                    abandoned.increment();
                }), jetty::set);
            } catch (IllegalStateException expected) {
                // Thrown by an admission at once, on this thread: its slot is the gate's to give back.
            }
            Consumer<Throwable> listener = jetty.get();
            if (listener != null && failedAtOnce) {
                listener.accept(new java.io.EOFException("connection failed"));
                // Jetty may report more than one failure: the request still has one outcome.
                listener.accept(new java.io.EOFException("connection failed, again"));
            } else if (listener != null && failedLater) {
                // Within one and a half queue timeouts: before, at and after its admission or its timeout.
                long micros = random.nextLong(QUEUE_TIMEOUT_MILLIS * 1_500);
                work.execute(() -> {
                    sleepMicros(micros);
                    listener.accept(new java.util.concurrent.TimeoutException("Idle timeout"));
                });
            }
            if (random.nextInt(8) == 0) {
                sleepMicros(random.nextInt(100));
            }
        }
    }

    /** Books a request's outcome: a second one is counted as a failure of the test. */
    private void once(AtomicBoolean answered) {
        if (!answered.compareAndSet(false, true)) {
            answeredTwice.increment();
        }
    }

    /** Runs on a thread of its own, as a request does: holds the slot a moment, then gives it back, twice. */
    private void admitAndRun(Slot slot) {
        admitted.increment();
        work.execute(() -> {
            peakInWork.accumulateAndGet(inWork.incrementAndGet(), Math::max);
            peakRunning.accumulateAndGet(gate.running(), Math::max);
            if (ThreadLocalRandom.current().nextBoolean()) {
                Thread.yield();
            } else {
                sleepMicros(ThreadLocalRandom.current().nextInt(300));
            }
            inWork.decrementAndGet();
            completed.increment();
            slot.giveBack();
            // A second give-back (a completion and a thread's end both reporting) must change nothing.
            slot.giveBack();
        });
    }

    /** The admission itself fails before the request took its slot over (a bug, an exhausted thread factory). */
    private void admitAndThrow(Slot slot) {
        admitted.increment();
        completed.increment();
        throw new IllegalStateException("cannot start");
    }

    private void awaitQuiet(long deadline) throws InterruptedException {
        while (gate.queued() > 0 || gate.running() > 0
                || admitted.sum() + rejected.sum() + abandoned.sum() < arrived.sum()
                || completed.sum() < admitted.sum()) {
            assertThat(System.nanoTime()).as("quiet within %d s: running %d, queued %d", DEADLINE_SECONDS,
                    gate.running(), gate.queued()).isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    private static void sleepMicros(long micros) {
        try {
            TimeUnit.MICROSECONDS.sleep(micros);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
