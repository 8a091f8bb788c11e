package io.github.slingvt.http.internal;

import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * The order in which the {@link AdmissionGate} takes its waiters: first in, first out, as a thread pool does, unless
 * the queue is in overload; then the newest first (adaptive LIFO, as in Facebook's "Fail at Scale"), because the newest
 * still have their clients while first in, first out would answer every newcomer later than the one before until the
 * waits outlast the clients. Judged once per {@link #INTERVAL_NANOS} on two facts of that interval:
 * <ul>
 * <li><b>standing</b>: the oldest waiter had waited more than {@link #TARGET_NANOS} at every moment a waiter was taken,
 * and the queue never ran empty (CoDel's rule: the shortest wait over an interval above a target is a queue that does
 * not drain, not a burst);</li>
 * <li><b>flow</b>: the requests in the server (running and waiting) grew, counting those the queue refused (full, or
 * timed out) as still there: more came than finished (growing), as many (level) or fewer (draining), "as many" meaning
 * within the square root of the queue's arrivals, the noise of a count of random arrivals. Every request counts, also
 * one that took a free slot at once: a limit that moves only moves requests from the queue to running, and a closed
 * loop whose clients each send their next request after their answer holds as many as before.</li>
 * </ul>
 * A standing queue that grows is an overload: the newest go first. They keep going first while the queue stands and
 * does not stand level, so that the backlog an overload leaves behind is served newest first while it drains, instead
 * of making every new request wait behind requests whose clients are likely gone. A standing queue that stands level
 * is a closed loop (every client sends its next request after its answer): it is served in order, however long it is,
 * because newest first would let its oldest waiters starve: in a closed loop the newest are the clients just answered,
 * and they would be answered again and again. A queue that drains is served in order.
 * <p>
 * Not thread-safe: the gate calls it under its lock.
 */
final class QueueDiscipline {

    /** The interval judged: a queue that stood for it is no burst; the order can change twice a second. */
    static final long INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    /**
     * The wait a standing queue exceeds: below it, a waiter is answered well within any client's patience whatever
     * the order, and bursts of a load below capacity are served in order, which gives them the shorter tail.
     */
    static final long TARGET_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    /** The requests in the server: running and waiting. */
    private final IntSupplier held;
    private int heldBefore;
    private boolean started;
    private long intervalStart;
    private int arrivals;
    /** Requests the queue refused in this interval: full, or timed out. */
    private int refusals;
    /** The shortest age of the oldest waiter seen at a taking or an emptying in this interval. */
    private long shortestOldest = Long.MAX_VALUE;
    private boolean newestFirst;

    /** @param held the requests in the server now, running and waiting (read under the gate's lock) */
    QueueDiscipline(IntSupplier held) {
        this.held = held;
    }

    /** A request began to wait at {@code now}; {@code first}: the queue was empty before it. */
    void arrived(long now, boolean first) {
        roll(now);
        arrivals++;
        if (first) {
            shortestOldest = 0;
        }
    }

    /** A request that would have waited, that a newer one displaced or that timed out was refused at {@code now}. */
    void refused(long now) {
        roll(now);
        refusals++;
    }

    /** A waiter was taken to run at {@code now}, when the oldest waiter had waited {@code oldestAge}. */
    void admitted(long now, long oldestAge) {
        roll(now);
        shortestOldest = Math.min(shortestOldest, oldestAge);
    }

    /** The queue ran empty at {@code now} (timeouts, failures): it drained. */
    void emptied(long now) {
        roll(now);
        shortestOldest = 0;
    }

    /** The order as last judged, without judging an interval that ended since (a status read). */
    boolean judged() {
        return newestFirst;
    }

    /** Whether the newest waiter goes first at {@code now}. */
    boolean newestFirst(long now) {
        roll(now);
        return newestFirst;
    }

    private void roll(long now) {
        if (!started) {
            started = true;
            intervalStart = now;
            heldBefore = held.getAsInt();
            return;
        }
        if (now - intervalStart < INTERVAL_NANOS) {
            return;
        }
        boolean standing = shortestOldest > TARGET_NANOS;
        int heldNow = held.getAsInt();
        long net = (long) heldNow - heldBefore + refusals;
        heldBefore = heldNow;
        double noise = Math.sqrt(arrivals);
        boolean growing = net > noise;
        boolean level = Math.abs(net) <= noise;
        newestFirst = standing && (growing || newestFirst && !level);
        // An interval without events keeps its judgement for the next one: nothing arrived or left to change it.
        intervalStart = now - intervalStart < 2 * INTERVAL_NANOS ? intervalStart + INTERVAL_NANOS : now;
        arrivals = 0;
        refusals = 0;
        shortestOldest = Long.MAX_VALUE;
    }
}
