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
 * {@code maxQueued} waiting, each waiter answered as refused after {@code timeoutMillis}. Limits can change at any
 * time; a lower limit is honoured as running requests finish. Callbacks run outside the lock.
 * <p>
 * The queue is served first in, first out, as a thread pool's is, and newest first while it is in overload
 * ({@link QueueDiscipline}); a full queue that serves the newest first refuses its oldest waiter rather than the
 * newcomer. A waiting request is never read from or written to: its connection is Jetty's, so a client that
 * half-closes its side or pipelines its next request is served as a pool serves it. A waiter that Jetty fails (idle
 * timeout, HTTP/2 stream reset, a failed connection) leaves the queue unrun. The waits time out by one timer for the
 * whole queue ({@link WaitTimeouts}).
 */
final class AdmissionGate {

    private final ReentrantLock lock = new ReentrantLock();
    /** In arrival order; removal of any waiter and of both ends in constant time. Guarded by the lock. */
    private final LinkedHashSet<Waiter> waiting = new LinkedHashSet<>();
    /** The time of arrivals, admissions and timeouts, nanoseconds. */
    private final LongSupplier clock;
    /** Requests running and their cap: lock-free, so that entering and leaving take no lock while nobody waits. */
    private final RunningCap slots = new RunningCap();
    private final QueueDiscipline discipline = new QueueDiscipline(() -> slots.running() + waiting.size()); // locked
    private final WaitTimeouts timeouts;
    /** Whether {@link #waiting} is non-empty; written under the lock, read without it. */
    private volatile boolean anyWaiting;
    /** Who may move the cap through {@link #moveCap}: the adaptive limit in force, or nobody. Guarded by the lock. */
    private Object capOwner;
    private int maxQueued;
    private long timeoutNanos = TimeUnit.MILLISECONDS.toNanos(1);

    AdmissionGate(ScheduledExecutorService timer) {
        this(timer, System::nanoTime);
    }

    /** @param clock the time of arrivals, admissions and timeouts, in nanoseconds (a test's hand-moved clock) */
    AdmissionGate(ScheduledExecutorService timer, LongSupplier clock) {
        this.clock = clock;
        this.timeouts = new WaitTimeouts(timer, this::expire, () -> refuseAllUnless(false));
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
        boolean timed;
        lock.lock();
        try {
            this.capOwner = capOwner;
            slots.cap(maxRunning <= 0 ? Integer.MAX_VALUE : maxRunning);
            this.maxQueued = maxQueued;
            this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
            admitted = admitWaitersLocked();
            timed = scheduleTimeoutLocked();
        } finally {
            lock.unlock();
        }
        Waiter.runAll(admitted);
        refuseAllUnless(timed);
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
        Waiter.runAll(admitted);
    }

    /** The cap now; {@link Integer#MAX_VALUE} when unbounded. */
    int maxRunning() {
        return slots.cap();
    }

    /** Takes a free slot at once if nobody waits for one (waiters come first); lock-free; {@link #exit()} frees it. */
    boolean tryEnter() {
        return !anyWaiting && slots.take();
    }

    /**
     * Ends in exactly one of the {@code outcomes}: admitted now or when a slot frees; refused when the queue is full,
     * the wait times out or a newer request takes its place in a full queue that serves the newest first; failed when
     * Jetty fails it while it waits.
     *
     * @param failures registers a listener of Jetty's failures of the request ({@code Request::addFailureListener});
     *                 called only if the request waits, and the listener does nothing once it stopped waiting
     */
    void enter(Outcomes outcomes, Consumer<Consumer<Throwable>> failures) {
        if (tryEnter()) {
            Slot.handOver(new Slot(this), outcomes.admit());
            return;
        }
        Waiter waiter = null;
        Waiter displaced = null;
        List<Waiter> admitted = List.of();
        boolean timed = true;
        lock.lock();
        try {
            long now = clock.getAsLong();
            if (waiting.size() >= maxQueued && maxQueued > 0 && discipline.newestFirst(now)) {
                // Full while the newest are served first: the oldest would be served last, after its client's
                // patience, so it makes room and is answered now (503) instead of the newcomer, which has the best
                // chance of an answer in time.
                displaced = waiting.removeFirst();
                discipline.refused(now);
            }
            if (waiting.size() < maxQueued) {
                discipline.arrived(now, waiting.isEmpty());
                waiter = new Waiter(this, outcomes, now);
                waiting.add(waiter);
                anyWaiting = true;
                timed = scheduleTimeoutLocked();
                // A slot freed (or an exit() that read anyWaiting before it was set admitted nobody): admit now.
                admitted = admitWaitersLocked();
            } else if (maxQueued > 0) {
                discipline.refused(now);
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
        }
        Waiter.runAll(admitted);
        refuseAllUnless(timed);
    }

    /** Counts a request that runs without waiting (one on its thread already, an admin one); {@link #exit} ends it. */
    void track() {
        slots.count();
    }

    /** Called once for every admitted or tracked request when it is finished (through its {@link Slot}). */
    void exit() {
        Waiter.runAll(gaveBack());
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

    /** Whether the queue serves the newest first, as last judged ({@link QueueDiscipline}); a read changes nothing. */
    boolean newestFirst() {
        lock.lock();
        try {
            return discipline.judged();
        } finally {
            lock.unlock();
        }
    }

    /** Removes a waiter that Jetty failed; true if it was still waiting. */
    boolean withdrawn(Waiter waiter) {
        lock.lock();
        try {
            boolean removed = waiting.remove(waiter);
            leftLocked();
            return removed;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The timer's run ({@link WaitTimeouts}): refuses the waiters that waited the queue timeout. They are the oldest,
     * at the head of the queue: every waiter has the same timeout, so arrival order is expiry order.
     *
     * @return nanoseconds until the next waiter's timeout, or negative when nobody waits
     */
    private long expire() {
        List<Waiter> expired = new ArrayList<>();
        long next;
        lock.lock();
        try {
            long now = clock.getAsLong();
            while (!waiting.isEmpty() && now - waiting.getFirst().since() >= timeoutNanos) {
                // Counted before it leaves: an interval ending here holds it, the next one counts it refused.
                discipline.refused(now);
                expired.add(waiting.removeFirst());
            }
            leftLocked();
            next = waiting.isEmpty() ? -1 : waiting.getFirst().since() + timeoutNanos - now;
        } finally {
            lock.unlock();
        }
        expired.forEach(Waiter::refuse);
        return next;
    }

    /**
     * Refuses every waiter at once unless their timeouts are {@code timed}: the timer is shut down with the component,
     * so they end now, as timed-out ones do, rather than wait for a slot that may never free.
     */
    private void refuseAllUnless(boolean timed) {
        if (timed) {
            return;
        }
        List<Waiter> all;
        lock.lock();
        try {
            all = new ArrayList<>(waiting);
            waiting.clear();
            leftLocked();
        } finally {
            lock.unlock();
        }
        all.forEach(Waiter::refuse);
    }

    /** After a waiter left unrun: the queue may have run empty. */
    private void leftLocked() {
        anyWaiting = !waiting.isEmpty();
        if (!anyWaiting) {
            discipline.emptied(clock.getAsLong());
        }
    }

    /** Has the timer run when the oldest waiter's time is up; false when the timer is shut down. */
    private boolean scheduleTimeoutLocked() {
        return waiting.isEmpty() || timeouts.due(waiting.getFirst().since() + timeoutNanos - clock.getAsLong());
    }

    /** Takes waiters off the queue into free slots, each taken as the fast path takes one ({@link RunningCap}). */
    private List<Waiter> admitWaitersLocked() {
        if (waiting.isEmpty() || !slots.free()) {
            anyWaiting = !waiting.isEmpty();
            return List.of();
        }
        List<Waiter> admitted = new ArrayList<>();
        long now = clock.getAsLong();
        boolean newestFirst = discipline.newestFirst(now);
        while (!waiting.isEmpty() && slots.take()) {
            discipline.admitted(now, now - waiting.getFirst().since());
            admitted.add(newestFirst ? waiting.removeLast() : waiting.removeFirst());
        }
        anyWaiting = !waiting.isEmpty();
        if (!anyWaiting) {
            discipline.emptied(now);
        }
        return admitted;
    }
}
