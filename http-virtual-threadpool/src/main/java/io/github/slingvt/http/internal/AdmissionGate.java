package io.github.slingvt.http.internal;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Admission control that runs before a request gets a thread: at most {@code maxRunning} admitted at once, at most
 * {@code maxQueued} waiting, each waiter answered as rejected after {@code timeoutMillis}. Limits can change at any
 * time; a lower limit is honoured as running requests finish. Callbacks run outside the lock.
 * <p>
 * The queue is served first in, first out, as a thread pool's is, while that answers every waiter within the
 * clients' patience. Two things a pool cannot do keep the goodput under sustained overload: a waiter whose client
 * closed its connection is dropped ({@link ClientWatch}; looked at by the {@link ClientSweep} once it has waited
 * {@link Waiter#WATCH_AFTER_MILLIS}, and once more when it is admitted),
 * and once the oldest waits outlast their clients the newest is served first (adaptive LIFO, Facebook's "Fail at
 * Scale"; when that is, {@link QueueOrder}). A full queue then refuses its oldest waiter rather than the newcomer.
 */
final class AdmissionGate {

    private final ReentrantLock lock = new ReentrantLock();
    /** In arrival order; removal of any waiter and of both ends in constant time. Guarded by the lock. */
    private final LinkedHashSet<Waiter> waiting = new LinkedHashSet<>();
    private final ScheduledExecutorService timeouts;
    private final ClientSweep sweep;
    /** The time of arrivals and departures for the queue's {@link #order}. */
    private final LongSupplier clock;
    /** Requests running and their cap: lock-free, so that entering and leaving take no lock while nobody waits. */
    private final RunningCap slots = new RunningCap();
    /** Whether {@link #waiting} is non-empty; written under the lock, read without it. */
    private volatile boolean anyWaiting;
    /** Who may move the cap through {@link #moveCap}: the adaptive limit in force, or nobody. Guarded by the lock. */
    private Object capOwner;
    private int maxQueued;
    private long timeoutMillis = 1;
    private final QueueOrder order = new QueueOrder(); // guarded by the lock
    /** How long a request waits before its client is looked at, nanoseconds ({@link Waiter#admitUnlessGone}). */
    private final long watchAfterNanos;

    AdmissionGate(ScheduledExecutorService timeouts) {
        this(timeouts, System::nanoTime, Waiter.WATCH_AFTER_MILLIS, Waiter.WATCH_AFTER_MILLIS);
    }

    /**
     * @param clock the time of arrivals and departures, in nanoseconds (a test's hand-moved clock)
     * @param watchAfterMillis how long a waiter waits before its client is looked at; 0 looks at once
     * @param sweepMillis how often the waiters' clients are looked at; 0 only by {@link #sweep()} (tests)
     */
    AdmissionGate(ScheduledExecutorService timeouts, LongSupplier clock, long watchAfterMillis, long sweepMillis) {
        this.timeouts = timeouts;
        this.clock = clock;
        this.watchAfterNanos = TimeUnit.MILLISECONDS.toNanos(watchAfterMillis);
        this.sweep = new ClientSweep(timeouts, sweepMillis, watchAfterMillis, lock, waiting, () -> anyWaiting);
    }

    /** Unbounded when {@code maxRunning} is 0. */
    void setLimits(int maxRunning, int maxQueued, long timeoutMillis) {
        setLimits(maxRunning, maxQueued, timeoutMillis, null);
    }

    /**
     * As {@link #setLimits(int, int, long)}, and hands the cap to {@code capOwner} (an adaptive limit), which may then
     * move it with {@link #moveCap}; {@code null} takes it from whoever had it.
     */
    void setLimits(int maxRunning, int maxQueued, long timeoutMillis, Object capOwner) {
        List<Waiter> admitted;
        lock.lock();
        try {
            this.capOwner = capOwner;
            slots.cap(maxRunning <= 0 ? Integer.MAX_VALUE : maxRunning);
            this.maxQueued = maxQueued;
            this.timeoutMillis = timeoutMillis;
            admitted = admitWaitersLocked();
        } finally {
            lock.unlock();
        }
        Waiter.runAll(admitted, watchAfterNanos);
    }

    /**
     * Moves the cap to {@code maxRunning} (at least 1) if {@code owner} still owns it: an adaptive limit that a
     * reconfiguration replaced cannot move the cap of the settings that replaced it. A higher cap admits waiters now.
     */
    void moveCap(Object owner, int maxRunning) {
        List<Waiter> admitted;
        lock.lock();
        try {
            if (owner == null || owner != capOwner) {
                return;
            }
            slots.cap(Math.max(1, maxRunning));
            admitted = admitWaitersLocked();
        } finally {
            lock.unlock();
        }
        Waiter.runAll(admitted, watchAfterNanos);
    }

    /** The cap now; {@link Integer#MAX_VALUE} when unbounded. */
    int maxRunning() {
        return slots.cap();
    }

    /**
     * Takes a slot at once if one is free and nobody waits for one (waiters come first); lock-free. A taken slot is
     * given back by {@link #exit()}.
     */
    boolean tryEnter() {
        return !anyWaiting && slots.take();
    }

    /**
     * Ends in exactly one of the {@code outcomes}: admitted now or when a slot frees, rejected when the queue is full,
     * the wait times out or a newer request takes its place in a full queue that serves the newest first, gone when
     * the {@code watch} finds its client gone while it waits, failed when Jetty fails it while it waits.
     *
     * @param failures registers a listener of Jetty's failures of the request ({@code Request::addFailureListener});
     *                 called only if the request waits, and the listener does nothing once it stopped waiting
     */
    void enter(Outcomes outcomes, ClientWatch watch, Consumer<Consumer<Throwable>> failures) {
        if (tryEnter()) {
            Slot.handOver(new Slot(this), outcomes.admit());
            return;
        }
        Waiter waiter = null;
        Waiter displaced = null;
        List<Waiter> admitted = List.of();
        long timeout;
        lock.lock();
        try {
            timeout = timeoutMillis;
            if (waiting.size() >= maxQueued && maxQueued > 0 && newestFirstLocked()) {
                // Full while the newest are served first: the oldest would be served last, after its client's
                // patience, so it makes room and is answered now (503) instead of the newcomer, which has the best
                // chance of an answer in time.
                displaced = waiting.removeFirst();
            }
            if (waiting.size() < maxQueued) {
                order.arrived(clock.getAsLong(), waiting.size());
                waiter = new Waiter(this, outcomes, watch);
                waiting.add(waiter);
                anyWaiting = true;
                // A slot freed (or an exit() that read anyWaiting before it was set admitted nobody): admit now.
                admitted = admitWaitersLocked();
            }
        } finally {
            lock.unlock();
        }
        if (displaced != null) {
            displaced.refuse();
        }
        if (waiter == null) {
            outcomes.reject().run();
            return;
        }
        if (!admitted.contains(waiter)) {
            failures.accept(waiter::failed);
            waiter.startWaiting(timeouts, timeout);
            if (waiter.watched()) {
                sweep.waiting();
            }
        }
        Waiter.runAll(admitted, watchAfterNanos);
    }

    /** As {@link #enter(Outcomes, ClientWatch, Consumer)}, for a request that Jetty does not fail while it waits. */
    void enter(Runnable onAdmit, Runnable onReject, ClientWatch watch, Runnable onGone) {
        enter(Outcomes.of(onAdmit, onReject, onGone), watch, Outcomes.NO_FAILURES);
    }

    /** As {@link #enter(Outcomes, ClientWatch, Consumer)} for a request whose client is not watched. */
    void enter(Runnable onAdmit, Runnable onReject) {
        enter(onAdmit, onReject, ClientWatch.NONE, () -> { });
    }

    /**
     * Counts a request that runs without waiting for admission (a request already on its thread, an admin request),
     * so that the cap counts every running request whatever path it took. Undone by {@link #exit}.
     */
    void track() {
        slots.count();
    }

    /** Called once for every admitted or tracked request when it is finished (through its {@link Slot}). */
    void exit() {
        Waiter.runAll(gaveBack(), watchAfterNanos);
    }

    /** Gives a slot back; answers the waiters it admits, for the caller to run. */
    List<Waiter> gaveBack() {
        slots.giveBack();
        if (!anyWaiting) {
            return List.of();
        }
        lock.lock();
        try {
            return admitWaitersLocked();
        } finally {
            lock.unlock();
        }
    }

    int running() {
        return slots.running();
    }

    int queued() {
        lock.lock();
        try {
            return waiting.size();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The clients' patience, milliseconds: when {@code known}, the one the queue goes by (newest first past half of
     * it), 0 while not known and the queue timeout stands in; otherwise as learned so far, 0 before any departure.
     */
    long patienceMillis(boolean known) {
        lock.lock();
        try {
            return TimeUnit.NANOSECONDS.toMillis(Math.round(known ? order.patienceNanos() : order.patienceSeenNanos()));
        } finally {
            lock.unlock();
        }
    }

    /** Removes a waiter that timed out or that Jetty failed; true if it was still waiting. */
    boolean withdrawn(Waiter waiter) {
        return remove(waiter, -1);
    }

    /** Removes a waiter whose client left, a departure for the clients' patience; true if it was waiting. */
    boolean gone(Waiter waiter, long ageNanos) {
        return remove(waiter, ageNanos);
    }

    /** @param departedAtNanos the age at which its client left, or negative where it did not */
    private boolean remove(Waiter waiter, long departedAtNanos) {
        lock.lock();
        try {
            boolean removed = waiting.remove(waiter);
            anyWaiting = !waiting.isEmpty();
            if (removed && departedAtNanos >= 0) {
                order.departed(departedAtNanos, clock.getAsLong());
            }
            return removed;
        } finally {
            lock.unlock();
        }
    }

    /** Looks at the clients of the waiters that waited the watch delay, once, now (tests). */
    void sweep() {
        sweep.sweep();
    }

    /**
     * An admitted waiter's client left at this age before it ran ({@link Waiter#runAll}): its slot goes on, to the
     * newest waiter ({@link QueueOrder#goneAtAdmission}).
     */
    List<Waiter> leftBeforeRun(long departedAtNanos) {
        lock.lock();
        try {
            order.goneAtAdmission(departedAtNanos, clock.getAsLong());
            slots.giveBack();
            return admitWaitersLocked();
        } finally {
            lock.unlock();
        }
    }

    /** Takes waiters off the queue into free slots, each taken as the fast path takes one ({@link RunningCap}). */
    private List<Waiter> admitWaitersLocked() {
        List<Waiter> admitted = new ArrayList<>();
        if (!waiting.isEmpty() && slots.free()) {
            boolean newestFirst = newestFirstLocked();
            while (!waiting.isEmpty() && slots.take()) {
                admitted.add(newestFirst ? waiting.removeLast() : waiting.removeFirst());
            }
        }
        anyWaiting = !waiting.isEmpty();
        return admitted;
    }

    /** Adaptive LIFO ({@link QueueOrder}). */
    private boolean newestFirstLocked() {
        return order.newestFirst(System.nanoTime() - waiting.getFirst().since(), timeoutMillis, clock);
    }
}
