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
     * How long a request waits before its client is watched. A watch registers read interest with Jetty's selector,
     * and that costs the selector a wake-up and a system call per request: at R = 100 ms, C = 1,000 on 2 cores, where
     * {@code auto} keeps about half of the requests waiting a few tens of milliseconds each, watching every waiter cost
     * about 15 % of the answers per second (4,305 and 4,334/s against 4,979/s without the watch, JFR profile). Work
     * for a gone client is wasted only when the client leaves while its request waits; no HTTP client, browser or
     * proxy gives up within a quarter of a second, and the waits that matter under overload last seconds. A client
     * closed earlier is seen as soon as the watch starts (its connection reads as closed).
     */
    static final long WATCH_AFTER_MILLIS = 250;

    private final AdmissionGate gate;
    private final Runnable onAdmit;
    private final Runnable onReject;
    private final ClientWatch watch;
    private final Runnable onGone;
    private final long since = System.nanoTime();
    /** Admitted, rejected or gone: no watch may start any more. */
    private final AtomicBoolean done = new AtomicBoolean();
    private final AtomicBoolean watching = new AtomicBoolean();
    /** The task due next: the start of the watch, then the timeout. */
    private volatile ScheduledFuture<?> timer;
    private ScheduledExecutorService timeouts;
    private long timeoutMillis;

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

    /**
     * Schedules the timeout, and the watch of the client after {@code watchAfterMillis} (at once when 0; never when
     * the timeout comes first); called once, after it was queued.
     */
    void startWaiting(ScheduledExecutorService executor, long timeoutMillis, long watchAfterMillis) {
        if (done.get()) {
            return;
        }
        this.timeouts = executor;
        this.timeoutMillis = timeoutMillis;
        if (watchAfterMillis <= 0) {
            timer = executor.schedule(this::expire, timeoutMillis, TimeUnit.MILLISECONDS);
            watch();
        } else if (watchAfterMillis >= timeoutMillis) {
            timer = executor.schedule(this::expire, timeoutMillis, TimeUnit.MILLISECONDS);
        } else {
            timer = executor.schedule(this::watchLate, watchAfterMillis, TimeUnit.MILLISECONDS);
        }
    }

    /** Still waiting after the watch's delay: the timeout for the rest of the wait, and the watch. */
    private void watchLate() {
        if (done.get()) {
            return;
        }
        long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
        ScheduledFuture<?> expiry = timeouts.schedule(this::expire, Math.max(0, timeoutMillis - waitedMillis),
                TimeUnit.MILLISECONDS);
        timer = expiry;
        // Admitted meanwhile: stopWaiting may have cancelled the task before this one.
        if (done.get()) {
            expiry.cancel(false);
            return;
        }
        watch();
    }

    private void watch() {
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
