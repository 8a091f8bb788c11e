package io.github.slingvt.http.internal;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One timer for all the waits of an {@link AdmissionGate}, instead of a scheduled task per waiting request: every
 * waiter has the same timeout, so the oldest expires first, and one task due at the oldest's timeout is enough. When it
 * runs, the gate refuses the waiters whose time is up and answers when the next one is due; admitted waiters cost the
 * timer nothing (a run that finds nobody expired only moves on to the next). At most one task is scheduled at a time;
 * an earlier due time (a lowered timeout) replaces it.
 */
final class WaitTimeouts {

    private static final Logger LOG = LoggerFactory.getLogger(WaitTimeouts.class);

    private final ScheduledExecutorService timer;
    /** Refuses the expired waiters; answers nanoseconds until the next timeout, negative when nobody waits. */
    private final LongSupplier expire;
    /** Refuses every waiter: called when the timer is shut down while requests still wait. */
    private final Runnable stopped;
    /** The scheduled task, when it is due (System.nanoTime()) and its number; guarded by this. */
    private ScheduledFuture<?> task;
    private long dueAt;
    private long scheduled;

    WaitTimeouts(ScheduledExecutorService timer, LongSupplier expire, Runnable stopped) {
        this.timer = timer;
        this.expire = expire;
        this.stopped = stopped;
    }

    /**
     * A waiter's timeout is due in {@code delayNanos}: schedules a run unless one is due by then.
     *
     * @return false when the timer is shut down (the component stops): nothing will time the waits out any more
     */
    synchronized boolean due(long delayNanos) {
        if (timer.isShutdown()) {
            // A task scheduled before the shutdown may still run, but none after it: the caller ends the waits.
            return false;
        }
        long at = System.nanoTime() + Math.max(0, delayNanos);
        if (task != null && dueAt - at <= 0) {
            return true;
        }
        if (task != null) {
            task.cancel(false);
        }
        dueAt = at;
        long number = ++scheduled;
        try {
            task = timer.schedule(() -> run(number), Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
            return true;
        } catch (RejectedExecutionException e) {
            task = null;
            return false;
        }
    }

    private void run(long number) {
        synchronized (this) {
            // Cleared before the expired are refused: a waiter that arrives meanwhile schedules its own run, which
            // the due time answered below then keeps or moves earlier. A run that was replaced clears nothing.
            if (number == scheduled) {
                task = null;
            }
        }
        long next;
        try {
            next = expire.getAsLong();
        } catch (RuntimeException e) {
            LOG.warn("Could not time out waiting requests; trying again in a second", e);
            next = TimeUnit.SECONDS.toNanos(1);
        }
        if (next >= 0 && !due(next)) {
            stopped.run();
        }
    }
}
