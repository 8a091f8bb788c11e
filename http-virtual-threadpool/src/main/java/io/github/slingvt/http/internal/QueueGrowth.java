package io.github.slingvt.http.internal;

import java.util.concurrent.TimeUnit;

/**
 * Whether the admission queue grew over the last whole second: more requests began to wait than left the queue
 * (admitted, dropped, refused), by at least {@link #MIN_GROWTH} and by more than one in {@link #ARRIVALS_PER_GROWTH}
 * of the arrivals. Arrivals faster than the server answers make the queue grow second after second; a closed loop
 * (every client sends its next request after its answer) keeps it level once its clients are connected, however long
 * its wait. That is what tells an overload whose oldest waiters will outlast their clients from a standing queue that
 * a pool answers within their patience, before any client has left (docs/design/admission.md, "Newest first").
 * <p>
 * Judged at the first arrival after each second: a queue that nobody joins any more keeps the last judgement, and
 * while nobody arrives the order in which it is served changes no wait. After a second without any arrival the next
 * one starts afresh, not growing.
 * <p>
 * Not thread-safe: the admission gate calls it under its lock.
 */
final class QueueGrowth {

    /** The window over which the growth is judged. */
    static final long WINDOW_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** Fewer new waiters than this in a window is no growth: a few requests more or less is noise. */
    static final int MIN_GROWTH = 10;
    /**
     * Growth by more than one in this many arrivals of the window: an overload of 110 % grows by one in eleven,
     * a closed loop holds its queue level within a few requests.
     */
    static final int ARRIVALS_PER_GROWTH = 20;

    private boolean started;
    private long windowStart;
    private int sizeAtStart;
    private int arrivals;
    private boolean growing;

    /**
     * A request began to wait at {@code now} (nanoseconds of the gate's clock).
     *
     * @param waitingBefore the requests that waited before it joined
     */
    void arrived(long now, int waitingBefore) {
        if (!started || now - windowStart >= 2 * WINDOW_NANOS) {
            // The first arrival, or one after a whole window without any: nothing to judge.
            started = true;
            growing = false;
            startWindow(now, waitingBefore);
        } else if (now - windowStart >= WINDOW_NANOS) {
            int growth = waitingBefore - sizeAtStart;
            growing = growth >= MIN_GROWTH && (long) growth * ARRIVALS_PER_GROWTH > arrivals;
            startWindow(now, waitingBefore);
        }
        arrivals++;
    }

    /** Whether the queue grew over the last whole window. */
    boolean growing() {
        return growing;
    }

    private void startWindow(long now, int waiting) {
        windowStart = now;
        sizeAtStart = waiting;
        arrivals = 0;
    }
}
