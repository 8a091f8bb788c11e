package io.github.slingvt.http.internal;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A request waiting in the {@link AdmissionGate}: exactly one of admit, reject (timeout, or displaced by a newer one)
 * or gone happens.
 */
final class Waiter {

    /**
     * How long a request waits before its client is watched, and how often the gate's sweep then looks at it in its
     * first second ({@link ClientSweep}, decision 0038). Work for a gone client is wasted only when the client leaves
     * while its request waits; no HTTP client, browser or proxy gives up within a quarter of a second, and the waits
     * that matter under overload last seconds. A client closed earlier is seen at the first look (its connection
     * reads as closed).
     */
    static final long WATCH_AFTER_MILLIS = 250;

    private final AdmissionGate gate;
    private final Runnable onAdmit;
    private final Runnable onReject;
    private final ClientWatch watch;
    private final Runnable onGone;
    private final long since = System.nanoTime();
    /** Admitted, rejected or gone: the watch is released or about to be. */
    private final AtomicBoolean done = new AtomicBoolean();
    private volatile ScheduledFuture<?> timer;
    /** When the sweep last looked at its client ({@link System#nanoTime()}); only the sweep's thread reads it. */
    private long lookedAt;
    private boolean looked;

    Waiter(AdmissionGate gate, Runnable onAdmit, Runnable onReject, ClientWatch watch, Runnable onGone) {
        this.gate = gate;
        this.onAdmit = onAdmit;
        this.onReject = onReject;
        this.watch = watch;
        this.onGone = onGone;
    }

    long since() {
        return since;
    }

    /** Whether its client can be watched at all (a watch other than {@link ClientWatch#NONE}). */
    boolean watched() {
        return watch != ClientWatch.NONE;
    }

    /** Schedules the timeout; called once, after it was queued. */
    void startWaiting(ScheduledExecutorService executor, long timeoutMillis) {
        if (done.get()) {
            return;
        }
        ScheduledFuture<?> expiry = executor.schedule(this::expire, timeoutMillis, TimeUnit.MILLISECONDS);
        timer = expiry;
        // Admitted meanwhile: stopWaiting may have run before the timer was set.
        if (done.get()) {
            expiry.cancel(false);
        }
    }

    /** Asks the watch whether the client left (the gate's sweep); if it did, the request leaves the queue unrun. */
    void look(long now) {
        boolean before = looked;
        long previous = lookedAt;
        lookedAt = now;
        looked = true;
        if (!done.get() && watch.gone()) {
            // It left between the look before, which found it there, and this one: halfway is the estimate that is
            // neither early nor late on average, so that the clients' patience learned from it is not either. A
            // client that left before the first look is known only to have left by now.
            clientGone((before ? previous + (now - previous) / 2 : now) - since);
        }
    }

    /** Nanoseconds since the sweep last looked at its client at {@code now}; negative when it never did. */
    long sinceLook(long now) {
        return looked ? now - lookedAt : -1;
    }

    /** Taken off the queue by the gate: runs the request. */
    void admit() {
        stopWaiting();
        onAdmit.run();
    }

    /** Off the queue without being admitted (timed out, or displaced by a newer request): answered as refused. */
    void refuse() {
        stopWaiting();
        onReject.run();
    }

    private void expire() {
        if (gate.expired(this)) {
            refuse();
        }
    }

    private void clientGone(long ageNanos) {
        if (gate.gone(this, ageNanos)) {
            stopWaiting();
            onGone.run();
        }
    }

    private void stopWaiting() {
        done.set(true);
        ScheduledFuture<?> t = timer;
        if (t != null) {
            t.cancel(false);
        }
        watch.release();
    }
}
