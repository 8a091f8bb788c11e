package io.github.slingvt.http.internal;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Admission control that runs before a request gets a thread: at most {@code maxRunning} admitted at once, at
 * most {@code maxQueued} waiting, each waiter rejected after {@code timeoutMillis}. Callbacks run outside the lock.
 * Limits can change at any time; a lower limit is honoured as running requests finish.
 */
final class AdmissionGate {

    private final ReentrantLock lock = new ReentrantLock();
    private final LinkedHashSet<Waiter> waiting = new LinkedHashSet<>();
    private final ScheduledExecutorService timeouts;
    /**
     * Requests running: atomic, so that {@link #track()} and {@link #exit()} stay lock-free while nobody waits (every
     * request of the unbounded and kernel modes passes them). Changed under the lock only together with the queue.
     */
    private final AtomicInteger running = new AtomicInteger();
    /** Whether {@link #waiting} is non-empty; written under the lock, read by {@link #exit()} without it. */
    private volatile boolean anyWaiting;
    /** Written under the lock; volatile so that the adaptive limit can compare without it. */
    private volatile int maxRunning = Integer.MAX_VALUE;
    /** Who may move the cap through {@link #moveCap}: the adaptive limit in force, or nobody. Guarded by the lock. */
    private Object capOwner;
    private int maxQueued;
    private long timeoutMillis = 1;

    AdmissionGate(ScheduledExecutorService timeouts) {
        this.timeouts = timeouts;
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
            this.maxRunning = maxRunning <= 0 ? Integer.MAX_VALUE : maxRunning;
            this.maxQueued = maxQueued;
            this.timeoutMillis = timeoutMillis;
            admitted = admitWaitersLocked();
        } finally {
            lock.unlock();
        }
        admitted.forEach(Waiter::admit);
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
            this.maxRunning = Math.max(1, maxRunning);
            admitted = admitWaitersLocked();
        } finally {
            lock.unlock();
        }
        admitted.forEach(Waiter::admit);
    }

    /** The cap now; {@link Integer#MAX_VALUE} when unbounded. */
    int maxRunning() {
        return maxRunning;
    }

    /** Runs exactly one of the two callbacks: now, when a slot frees, or on timeout. */
    void enter(Runnable onAdmit, Runnable onReject) {
        Waiter waiter = null;
        boolean admitNow = false;
        List<Waiter> admitted = List.of();
        long timeout;
        lock.lock();
        try {
            timeout = timeoutMillis;
            if (running.get() < maxRunning && waiting.isEmpty()) {
                running.incrementAndGet();
                admitNow = true;
            } else if (waiting.size() < maxQueued) {
                waiter = new Waiter(onAdmit, onReject);
                waiting.add(waiter);
                anyWaiting = true;
                // An exit() that read anyWaiting before it was set did not admit anyone: its decrement is visible
                // now, so admit here what it would have admitted.
                admitted = admitWaitersLocked();
            }
        } finally {
            lock.unlock();
        }
        if (admitNow) {
            onAdmit.run();
        } else if (waiter == null) {
            onReject.run();
        } else {
            if (!admitted.contains(waiter)) {
                waiter.timer = timeouts.schedule(waiter::expire, timeout, TimeUnit.MILLISECONDS);
            }
            admitted.forEach(Waiter::admit);
        }
    }

    /**
     * Counts a request that runs without waiting for admission (kernel mode, a request already on a virtual thread,
     * an admin request), so that the cap counts every running request whatever path it took: after a switch to a
     * bounded mode, new requests are admitted only as the running count falls below the cap. Undone by {@link #exit}.
     */
    void track() {
        running.incrementAndGet();
    }

    /** Called once for every admitted or tracked request when it is finished. */
    void exit() {
        running.decrementAndGet();
        if (!anyWaiting) {
            return;
        }
        List<Waiter> admitted;
        lock.lock();
        try {
            admitted = admitWaitersLocked();
        } finally {
            lock.unlock();
        }
        admitted.forEach(Waiter::admit);
    }

    int running() {
        return running.get();
    }

    int queued() {
        lock.lock();
        try {
            return waiting.size();
        } finally {
            lock.unlock();
        }
    }

    private List<Waiter> admitWaitersLocked() {
        List<Waiter> admitted = new ArrayList<>();
        Iterator<Waiter> it = waiting.iterator();
        while (running.get() < maxRunning && it.hasNext()) {
            Waiter next = it.next();
            it.remove();
            running.incrementAndGet();
            admitted.add(next);
        }
        anyWaiting = !waiting.isEmpty();
        return admitted;
    }

    private final class Waiter {
        private final Runnable onAdmit;
        private final Runnable onReject;
        private volatile ScheduledFuture<?> timer;

        Waiter(Runnable onAdmit, Runnable onReject) {
            this.onAdmit = onAdmit;
            this.onReject = onReject;
        }

        void admit() {
            ScheduledFuture<?> t = timer;
            if (t != null) {
                t.cancel(false);
            }
            onAdmit.run();
        }

        void expire() {
            boolean removed;
            lock.lock();
            try {
                removed = waiting.remove(this);
                anyWaiting = !waiting.isEmpty();
            } finally {
                lock.unlock();
            }
            if (removed) {
                onReject.run();
            }
        }
    }
}
