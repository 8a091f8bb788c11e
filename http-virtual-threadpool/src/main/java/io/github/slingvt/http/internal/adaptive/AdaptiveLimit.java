package io.github.slingvt.http.internal.adaptive;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import com.netflix.concurrency.limits.limit.AIMDLimit;

/**
 * The limit of {@code maxConcurrentRequests=auto}: Netflix concurrency-limits' {@link AIMDLimit}, fed with the two
 * signals that matter for requests on virtual threads.
 * <ul>
 * <li>Every period in which the carrier threads stayed saturated is a "drop": the limit falls by 10 %
 * (multiplicative decrease), never below the configured minimum. At most ten drops a second take about 65 % of the
 * limit per second away.</li>
 * <li>Every finished request is a sample. While the carriers are not saturated, the limit grows by one per finished
 * request (as fast as requests finish, so a load that needs more concurrency gets it quickly). While they are
 * saturated, it grows by ({@link #MARGIN} &times; R&#8320; + {@link #FLOOR_NANOS 100 ms}) / 1 s per finished request,
 * where R&#8320; is the latency of requests that finished while the carriers were <em>not</em> saturated (a moving
 * average, frozen during saturation). Both steps only while at least half of the limit is in use.</li>
 * </ul>
 * Under saturation the two balance at L &asymp; X &times; (MARGIN &times; R&#8320; + 100 ms), X the throughput: Little's
 * law's concurrency for the requests' own latency with a margin, whatever that latency is, and never less than 100 ms
 * of throughput. A fixed step of one per finished request balances at one second of throughput whatever the latency:
 * several times what a 100 ms request needs, and too little for requests that wait seconds. The floor is there
 * because a limit near Little's concurrency of short requests is hit by every burst (measured: R = 10 ms, 100
 * clients, 0.79 &times; the unbounded throughput with the margin alone), while 100 ms of throughput costs little
 * memory.
 * R&#8320; is measured only while the carriers have headroom because latency measured under saturation includes the
 * carriers' own queue: a step that grew with it would raise the limit, which raises the latency (positive feedback).
 *
 * <p>Why latency is not the overload signal (the library's Vegas and Gradient2 read "slower than before" as
 * "overloaded"): a Sling request's latency is mostly waiting on purpose (repository, remote calls), and the mix
 * changes over a day; such a limit throttles exactly the waits virtual threads make cheap. Saturated carriers are
 * overload whatever the mix. The library's request timeout is therefore set out of reach.
 *
 * <p>The library's {@code onSample} is {@code synchronized}; a virtual thread that blocked on that monitor would pin
 * its carrier on JDK 21. Request threads therefore only try this class's lock and skip the sample when another
 * thread holds it (a lost increase step, no wait).
 */
public final class AdaptiveLimit {

    /** Multiplicative decrease per saturated period. */
    static final double BACKOFF = 0.9;
    /** m in the balance L = m &times; X &times; R&#8320; under saturation. */
    static final double MARGIN = 1.5;
    /** The step's floor under saturation: the limit settles at no less than this much throughput in flight. */
    static final long FLOOR_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** Weight of one unsaturated sample in R&#8320; (about the last 50 requests count). */
    static final double SMOOTHING = 0.02;
    /** R&#8320; before the first unsaturated sample: the balance of a fixed step of one per finished request. */
    static final long INITIAL_LATENCY_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** Most increase steps one finished request makes (a request that waited minutes must not jump the limit). */
    static final int MAX_STEPS = 10;
    private static final double ONE_SECOND_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final AIMDLimit aimd;
    private final ReentrantLock lock = new ReentrantLock();
    private final int min;
    private final int max;
    /** Written under {@link #lock}; read without it by tests. */
    private volatile double unsaturatedLatencyNanos = INITIAL_LATENCY_NANOS;
    /** Fractional increase steps not taken yet; guarded by {@link #lock}. */
    private double credit;

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

    /** R&#8320;: the moving average of the latency of requests that finished while the carriers had headroom. */
    long unsaturatedLatencyNanos() {
        return Math.round(unsaturatedLatencyNanos);
    }

    /**
     * One admitted request finished.
     *
     * @param latencyNanos from admission to the end of the response
     * @param inFlight requests running when it finished, itself included
     * @param saturated whether the carriers were saturated at the last reading
     */
    public void completed(long latencyNanos, int inFlight, boolean saturated) {
        if (!lock.tryLock()) {
            return;
        }
        try {
            long latency = Math.max(0, latencyNanos);
            int steps;
            if (saturated) {
                credit += (MARGIN * unsaturatedLatencyNanos + FLOOR_NANOS) / ONE_SECOND_NANOS;
                steps = (int) Math.min(credit, MAX_STEPS);
                credit = Math.min(credit - steps, 1);
            } else {
                unsaturatedLatencyNanos += SMOOTHING * (latency - unsaturatedLatencyNanos);
                steps = 1;
            }
            for (int i = 0; i < steps; i++) {
                aimd.onSample(0, latency, inFlight, false);
            }
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
