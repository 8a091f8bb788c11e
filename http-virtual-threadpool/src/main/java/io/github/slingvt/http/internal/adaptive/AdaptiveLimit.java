package io.github.slingvt.http.internal.adaptive;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import com.netflix.concurrency.limits.limit.AIMDLimit;

/**
 * The limit of {@code maxConcurrentRequests=auto}: Netflix concurrency-limits' {@link AIMDLimit}, fed with the two
 * signals that matter for requests on virtual threads.
 * <ul>
 * <li>Every finished request is a sample: while at least half of the limit is in use, the limit grows by one per
 * finished request (additive increase, so it can grow as fast as requests finish).</li>
 * <li>Every period in which the carrier threads stayed saturated is a "drop": the limit falls by 10 %
 * (multiplicative decrease), never below the configured minimum.</li>
 * </ul>
 * Under saturation the two balance where the limit equals about one second of throughput (10 drops of 10 % per
 * second against one step per finished request). That is enough concurrency to keep the CPU busy for any request
 * that waits up to a second, and far less than an unbounded flood holds in memory.
 *
 * <p>Why not latency as the signal (the library's Vegas and Gradient2): a Sling request's latency is mostly waiting
 * on purpose (repository, remote calls), and the mix changes over a day; a limit that reads "slower than before"
 * as "overloaded" throttles exactly the waits virtual threads make cheap. Saturated carriers are overload whatever
 * the mix: more concurrency then only adds memory and latency. The library's request timeout is therefore set out
 * of reach.
 *
 * <p>The library's {@code onSample} is {@code synchronized}; a virtual thread that blocked on that monitor would pin
 * its carrier on JDK 21. Request threads therefore only try this class's lock and skip the sample when another
 * thread holds it (a lost increase step, no wait).
 */
public final class AdaptiveLimit {

    /** Multiplicative decrease per saturated period. */
    static final double BACKOFF = 0.9;

    private final AIMDLimit aimd;
    private final ReentrantLock lock = new ReentrantLock();
    private final int min;
    private final int max;

    public AdaptiveLimit(int min, int max, int initial) {
        if (min < 1 || max < min) {
            throw new IllegalArgumentException("adaptive limits must satisfy 1 <= min <= max; got " + min + ", " + max);
        }
        this.min = min;
        this.max = max;
        this.aimd = AIMDLimit.newBuilder()
                .minLimit(min)
                .maxLimit(max)
                .initialLimit(Math.max(min, Math.min(max, initial)))
                .backoffRatio(BACKOFF)
                .timeout(1, TimeUnit.DAYS)
                .build();
    }

    /** The limit now. */
    public int limit() {
        return aimd.getLimit();
    }

    public int min() {
        return min;
    }

    public int max() {
        return max;
    }

    /**
     * One admitted request finished.
     *
     * @param latencyNanos from admission to the end of the response
     * @param inFlight requests running when it finished, itself included
     */
    public void completed(long latencyNanos, int inFlight) {
        if (!lock.tryLock()) {
            return;
        }
        try {
            aimd.onSample(0, Math.max(0, latencyNanos), inFlight, false);
        } finally {
            lock.unlock();
        }
    }

    /** The carriers stayed saturated for one period. Called by a platform thread, which may wait for the lock. */
    public void saturated() {
        lock.lock();
        try {
            aimd.onSample(0, 0, 0, true);
        } finally {
            lock.unlock();
        }
    }
}
