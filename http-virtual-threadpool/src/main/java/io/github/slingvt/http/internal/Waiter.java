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

    private final AdmissionGate gate;
    private final Runnable onAdmit;
    private final Runnable onReject;
    private final ClientWatch watch;
    private final Runnable onGone;
    private final long since = System.nanoTime();
    /** Admitted, rejected or gone: no watch may start any more. */
    private final AtomicBoolean done = new AtomicBoolean();
    private final AtomicBoolean watching = new AtomicBoolean();
    private volatile ScheduledFuture<?> timer;

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

    /** Schedules the timeout and starts watching the client; called once, after it was queued. */
    void startWaiting(ScheduledExecutorService timeouts, long timeoutMillis) {
        timer = timeouts.schedule(this::expire, timeoutMillis, TimeUnit.MILLISECONDS);
        if (done.get()) {
            return;
        }
        watching.set(true);
        watch.watch(this::clientGone);
        // Admitted by another thread while the watch started: it must not outlive the wait.
        if (done.get() && watching.compareAndSet(true, false)) {
            watch.release();
        }
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

    private void clientGone() {
        if (gate.gone(this, System.nanoTime() - since)) {
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
        if (watching.compareAndSet(true, false)) {
            watch.release();
        }
    }
}
