package io.github.slingvt.http.internal;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A request waiting in the {@link AdmissionGate}: exactly one of its {@link Outcomes} happens, decided by whoever takes
 * it off the gate's queue (under the gate's lock): admit, reject (timeout, or displaced by a newer one), gone, or
 * failed by Jetty.
 */
final class Waiter {

    /**
     * How long a request waits before its client is watched, and how often the gate's sweep then looks at it in its
     * first second ({@link ClientSweep}; docs/design/admission.md, "Clients that left"). Work for a gone client is
     * wasted only when the client leaves while its request waits; no HTTP client, browser or proxy gives up within a
     * quarter of a second, and the waits that matter under overload last seconds. A client closed earlier is seen at
     * the first look (its connection reads as closed).
     */
    static final long WATCH_AFTER_MILLIS = 250;

    private static final Logger LOG = LoggerFactory.getLogger(Waiter.class);

    private final AdmissionGate gate;
    private final Outcomes outcomes;
    private final ClientWatch watch;
    private final long since = System.nanoTime();
    /** Admitted, rejected or gone: the watch is released or about to be. */
    private final AtomicBoolean done = new AtomicBoolean();
    private volatile ScheduledFuture<?> timer;
    /**
     * When its client was last looked at ({@link System#nanoTime()}): written by the sweep's thread, read also by the
     * thread that admits it.
     */
    private volatile long lookedAt;
    private volatile boolean looked;

    Waiter(AdmissionGate gate, Outcomes outcomes, ClientWatch watch) {
        this.gate = gate;
        this.outcomes = outcomes;
        this.watch = watch;
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
        ScheduledFuture<?> expiry;
        try {
            expiry = executor.schedule(this::expire, timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // The clock is shut down with the component: nothing would ever time this wait out, so it ends now, as
            // a timed-out one does, rather than wait for a slot that may never free.
            expire();
            return;
        }
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
            clientGone(departedAt(before, previous, now));
        }
    }

    /**
     * The age at which the client left, found gone at {@code now}: it left between the look before, which found it
     * there, and this one; halfway is the estimate that is neither early nor late on average, so that the clients'
     * patience learned from it is not either. A client that left before the first look is known only to have left
     * by now.
     */
    private long departedAt(boolean lookedBefore, long previous, long now) {
        return (lookedBefore ? previous + (now - previous) / 2 : now) - since;
    }

    /** Nanoseconds since the sweep last looked at its client at {@code now}; negative when it never did. */
    long sinceLook(long now) {
        return looked ? now - lookedAt : -1;
    }

    /**
     * Taken off the queue by the gate: runs the request, unless its client is found gone at a last look, made when it
     * has waited {@code lookAfterNanos} and nobody looked within that time (one read that does not block). A request
     * found gone is answered as gone instead, and the age at which its client left is returned for the clients'
     * patience (halfway since the look before, as the sweep counts it); -1 when it runs.
     */
    long admitUnlessGone(long lookAfterNanos, Slot slot) {
        long now = System.nanoTime();
        boolean before = looked;
        long previous = lookedAt;
        if (watched() && now - since >= lookAfterNanos && (!before || now - previous >= lookAfterNanos)
                && watch.gone()) {
            stopWaiting();
            outcomes.gone().run();
            return departedAt(before, previous, now);
        }
        stopWaiting();
        outcomes.admit().accept(slot);
        return -1;
    }

    /**
     * Runs waiters just taken off the queue, each {@link #admitUnlessGone unless its client is found gone}: the sweep
     * looks at a long wait only every quarter of its age, and under a standing queue, where the waits reach the
     * clients' patience, most clients that left in between would otherwise have their request run for nobody. The
     * slot of one found gone goes to the next waiter, in a loop rather than by recursion, however many left.
     */
    static void runAll(List<Waiter> admitted, long lookAfterNanos) {
        // Called whenever a slot frees while requests wait: no allocation unless a client is found gone.
        Deque<Waiter> more = null;
        for (Waiter waiter : admitted) {
            more = runOne(waiter, lookAfterNanos, more);
        }
        while (more != null && !more.isEmpty()) {
            more = runOne(more.poll(), lookAfterNanos, more);
        }
    }

    /**
     * Runs one; where its client is gone, the waiters its slot admits join {@code more} (created on first use). A
     * callback that throws is logged and the rest still run: they are off the queue, and nothing else would answer
     * them before their clients time out. The slot taken for the one that threw is given back, unless the callback
     * gave it back itself before it threw.
     */
    private static Deque<Waiter> runOne(Waiter waiter, long lookAfterNanos, Deque<Waiter> more) {
        Slot slot = new Slot(waiter.gate);
        long departedAt;
        try {
            departedAt = waiter.admitUnlessGone(lookAfterNanos, slot);
        } catch (RuntimeException | Error e) {
            LOG.error("A request taken off the admission queue could not be started or dropped; the others go on", e);
            return slot.claim() ? join(more, waiter.gate.gaveBack()) : more;
        }
        if (departedAt < 0) {
            return more;
        }
        // Not run: its slot was never handed over, and goes on.
        slot.claim();
        return join(more, waiter.gate.leftBeforeRun(departedAt));
    }

    private static Deque<Waiter> join(Deque<Waiter> more, List<Waiter> admitted) {
        if (admitted.isEmpty()) {
            return more;
        }
        Deque<Waiter> next = more == null ? new ArrayDeque<>() : more;
        next.addAll(admitted);
        return next;
    }

    /** Off the queue without being admitted (timed out, or displaced by a newer request): answered as refused. */
    void refuse() {
        stopWaiting();
        outcomes.reject().run();
    }

    private void expire() {
        if (gate.withdrawn(this)) {
            refuse();
        }
    }

    private void clientGone(long ageNanos) {
        if (gate.gone(this, ageNanos)) {
            stopWaiting();
            outcomes.gone().run();
        }
    }

    /**
     * Jetty failed the request (its listener, registered while it waits): if it still waits, it leaves the queue at
     * once, unrun. Not a departure for the clients' patience: an idle timeout or a failed connection says nothing of
     * how long a client waits. Once it stopped waiting this does nothing: a request that runs handles its failure.
     */
    void failed(Throwable failure) {
        if (!done.get() && gate.withdrawn(this)) {
            stopWaiting();
            outcomes.failed().accept(failure);
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
