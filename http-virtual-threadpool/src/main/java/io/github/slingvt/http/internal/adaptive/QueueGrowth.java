package io.github.slingvt.http.internal.adaptive;

/**
 * Tells sustained overload from a standing queue, once per second, and bounds the admission queue while it lasts.
 * <p>
 * Under a fixed arrival rate above what the server completes (an open load: users, a crawler, a retry storm), the
 * queue grows every second by the difference, until the clients' timeouts empty it: every waiter then holds a
 * connection for the whole timeout, and once the clients have no connections left almost nothing is answered in time,
 * by a pool as by this queue. A queue that only grows is answered by no one in time, so a new request is better
 * answered 503 at once. A closed loop (every client waits for its answer before it asks again) also keeps a queue
 * when its clients outnumber what runs, but it does not grow: each finished request brings one new. Its clients arrive
 * together at the start, for a second or two. So the queue is bounded only after it has grown for
 * {@link #GROWING_WINDOWS} seconds in a row by more than an eighth of what finished meanwhile, and then to one second
 * of what finishes: the carriers never run dry and what waits is answered within about a second.
 * <p>
 * A bound lasts while the queue stays above half of it, at most {@link #EPISODE_WINDOWS} seconds; then the queue must
 * grow again for it to return. A load that only looked open (a closed loop whose clients answered 503 ask again at
 * once and keep the queue full) is so refused for ten seconds at most. Not thread-safe: one clock thread updates it.
 */
final class QueueGrowth {

    /** No bound but the configured maximum of queued requests. */
    static final int UNBOUNDED = Integer.MAX_VALUE;
    /** Seconds in a row the queue must grow before it is bounded: longer than a closed loop's start. */
    static final int GROWING_WINDOWS = 3;
    /** The most seconds one bound lasts before the queue must show its growth again. */
    static final int EPISODE_WINDOWS = 10;
    /** Growth in a second that counts whatever finished: a handful more waiters is no trend. */
    static final int MIN_GROWTH = 10;
    /** The lowest bound, for when little finished in a second (a pause). */
    static final int MIN_BOUND = 100;

    private int lastQueued;
    private long lastFinished = -1;
    private int growing;
    private int episode;
    private int bound = UNBOUNDED;

    /**
     * One second's reading: the requests waiting now and all requests finished so far. Returns the most that may wait
     * from now, {@link #UNBOUNDED} when no bound applies.
     */
    int update(int queued, long finished) {
        long served = lastFinished < 0 ? 0 : Math.max(0, finished - lastFinished);
        int growth = queued - lastQueued;
        lastQueued = queued;
        lastFinished = finished;
        if (bound != UNBOUNDED) {
            episode++;
            if (queued <= bound / 2 || episode >= EPISODE_WINDOWS) {
                bound = UNBOUNDED;
                growing = 0;
            } else {
                bound = oneSecondOf(served);
            }
            return bound;
        }
        growing = growth > Math.max(MIN_GROWTH, served / 8) ? growing + 1 : 0;
        if (growing >= GROWING_WINDOWS) {
            bound = oneSecondOf(served);
            episode = 0;
            growing = 0;
        }
        return bound;
    }

    int bound() {
        return bound;
    }

    private static int oneSecondOf(long served) {
        return (int) Math.min(UNBOUNDED - 1, Math.max(MIN_BOUND, served));
    }
}
