package io.github.slingvt.http.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.SequencedCollection;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Lock;
import java.util.function.BooleanSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Looks at the clients of the requests that have waited for admission longer than the watch delay, every period while
 * any request waits, on the admission clock's thread (docs/design/admission.md, "Clients that left"). A look is one
 * read that does not block, instead of a selector registration per request, so that what the watch costs follows how
 * many requests wait, not how many pass through the queue. A request is looked at every period until it has waited four
 * periods, then after a quarter of its age: a request that waits a minute is looked at 18 times, not 240, and a client
 * that leaves is seen at most about 40 % later than the age at which it left. The age its departure teaches the
 * clients' patience is the middle between the look that found it there and the one that found it gone
 * ({@link Waiter#look}).
 */
final class ClientSweep {

    /** Beyond four periods of waiting a request is looked at again once it has waited this share longer. */
    static final int AGE_SHARE_BETWEEN_LOOKS = 4;

    private static final Logger LOG = LoggerFactory.getLogger(ClientSweep.class);

    private final ScheduledExecutorService clock;
    private final long periodMillis;
    private final long watchAfterNanos;
    /** The gate's lock and its waiters in arrival order, guarded by that lock. */
    private final Lock lock;
    private final SequencedCollection<Waiter> waiting;
    private final BooleanSupplier anyWaiting;
    /** A sweep is scheduled or running: at most one at a time. */
    private final AtomicBoolean scheduled = new AtomicBoolean();

    /**
     * @param periodMillis time between sweeps; 0 or less sweeps only when {@link #sweep()} is called (tests)
     * @param watchAfterMillis how long a request waits before its client is looked at; 0 at the first sweep
     * @param lock the admission gate's lock, which guards {@code waiting}
     * @param waiting the gate's waiting requests, oldest first
     * @param anyWaiting whether any request still waits, read without the lock
     */
    ClientSweep(ScheduledExecutorService clock, long periodMillis, long watchAfterMillis, Lock lock,
            SequencedCollection<Waiter> waiting, BooleanSupplier anyWaiting) {
        this.clock = clock;
        this.periodMillis = periodMillis;
        this.watchAfterNanos = TimeUnit.MILLISECONDS.toNanos(watchAfterMillis);
        this.lock = lock;
        this.waiting = waiting;
        this.anyWaiting = anyWaiting;
    }

    /** A request started waiting: a sweep is due within a period, unless one is already. */
    void waiting() {
        // Read before the update: under a standing queue every arrival finds a sweep scheduled, and a failed
        // compare-and-set would still take the flag's cache line from the other cores.
        if (periodMillis <= 0 || scheduled.get() || !scheduled.compareAndSet(false, true)) {
            return;
        }
        try {
            clock.schedule(this::run, periodMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // The clock is shut down with the connector: the waiting requests end with it.
            scheduled.set(false);
        }
    }

    /**
     * Looks at the client of every waiter that has waited the watch delay, now, whenever it was looked at before
     * (tests); a waiter whose client left is dropped by its own {@link Waiter}.
     */
    void sweep() {
        look(false);
    }

    private void look(boolean spaced) {
        long now = System.nanoTime();
        // Looked at outside the gate's lock: a look is a system call, and a client that left takes the lock to go.
        for (Waiter waiter : due(now, spaced)) {
            waiter.look(now);
        }
    }

    /**
     * Whether a waiter is looked at in a sweep, all in nanoseconds.
     *
     * @param sinceLookNanos since it was last looked at; negative when never
     */
    static boolean due(long ageNanos, long sinceLookNanos, long watchAfterNanos, long periodNanos) {
        if (ageNanos < watchAfterNanos) {
            return false;
        }
        if (sinceLookNanos < 0) {
            return true;
        }
        long between = Math.max(periodNanos, ageNanos / AGE_SHARE_BETWEEN_LOOKS);
        // Half a period of slack: the clock's thread runs a sweep a little early or late.
        return sinceLookNanos + periodNanos / 2 >= between;
    }

    /** The watched waiters due for a look, oldest first; {@code spaced}: by {@link #due}, otherwise all. */
    private List<Waiter> due(long now, boolean spaced) {
        List<Waiter> due = new ArrayList<>();
        long periodNanos = TimeUnit.MILLISECONDS.toNanos(periodMillis);
        lock.lock();
        try {
            for (Waiter waiter : waiting) {
                long age = now - waiter.since();
                // In arrival order: every later one is younger still.
                if (age < watchAfterNanos) {
                    break;
                }
                if (waiter.watched() && (!spaced
                        || due(age, waiter.sinceLook(now), watchAfterNanos, periodNanos))) {
                    due.add(waiter);
                }
            }
        } finally {
            lock.unlock();
        }
        return due;
    }

    private void run() {
        try {
            look(true);
        } catch (RuntimeException e) {
            LOG.warn("Could not look at the clients of waiting requests; looking again in {} ms", periodMillis, e);
        } finally {
            scheduled.set(false);
            // A request that started waiting while this ran found it scheduled and left the next sweep to it.
            if (anyWaiting.getAsBoolean()) {
                waiting();
            }
        }
    }
}
