package io.github.slingvt.http.internal;

import java.util.concurrent.TimeUnit;

/**
 * The clients' patience: the age at which clients closed their connection while their request waited for admission,
 * a moving average over about the last 20 such departures, known once {@link #SAMPLES} were seen.
 * <p>
 * Only departures that keep coming while the load goes on count. Impatient clients give up second after second while
 * others keep arriving; clients that all leave together (the end of a load test, a load balancer that takes the node
 * out) are done, and leave at every age from zero up, within a second or two. Learned from them, the patience would
 * be a fraction of the wait, and adaptive LIFO would then starve the oldest of a standing queue that a pool answers
 * within the clients' real patience (measured: p99 8.1 s at R10ms C = 1,000 after such an end, where the A/A twin had
 * 0.5 s; a next load a second later does not tell the two apart). So the departures of a window count only when the
 * window before and the window after it had departures too, and the window after brought at least as many new
 * waiting requests as there were departures; a window without any event counts as one without either.
 * <p>
 * The same judgement tells whether clients keep leaving now ({@link #leavingSteadily}): the last window judged passed
 * it, no more than {@link #STEADY_NANOS} ago.
 * <p>
 * Not thread-safe: the admission gate calls it under its lock.
 */
final class Patience {

    /** Weight of one departure (about the last 20 count). */
    static final double SMOOTHING = 0.05;
    /** Departures that count before their age is the clients' patience: a few early leavers are no pattern. */
    static final int SAMPLES = 10;
    /** The window by which departures of waiting clients are counted and judged. */
    static final long WINDOW_NANOS = TimeUnit.SECONDS.toNanos(1);
    /**
     * How long the last judgement that clients keep leaving holds: a window is judged at the first event after it
     * ends, about once a second while requests keep coming; an older judgement means the queue has been quiet.
     */
    static final long STEADY_NANOS = 2 * WINDOW_NANOS;

    private long windowStart;
    private boolean started;
    /** This window's new waiting requests and departures (count, sum of ages). */
    private int arrivals;
    private int departures;
    private double departedAgeNanos;
    /** Departures of the window before {@link #pending}'s. */
    private int earlier;
    /** The window before's departures, waiting for this window to judge them. */
    private int pending;
    private double pendingAgeNanos;
    private double patienceNanos;
    private int learned;
    /** Whether the last window judged had steady departures, and when it was judged. */
    private boolean steady;
    private long steadyAt;

    /** A request began to wait at {@code now} (nanoseconds of the gate's clock). */
    void arrived(long now) {
        roll(now);
        arrivals++;
    }

    /** A waiting request's client left at {@code now}, {@code ageNanos} after its request arrived. */
    void departed(long ageNanos, long now) {
        roll(now);
        departures++;
        departedAgeNanos += ageNanos;
    }

    /** The patience in nanoseconds once known; {@code 0} before. */
    double nanos() {
        return learned >= SAMPLES ? patienceNanos : 0;
    }

    /**
     * Whether a wait of {@code ageNanos} is past half of the clients' patience: of the queue timeout, or of the
     * patience once known and shorter.
     */
    boolean pastHalf(long ageNanos, long timeoutMillis) {
        double limit = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        double learned = nanos();
        if (learned > 0) {
            limit = Math.min(limit, learned);
        }
        return ageNanos > limit / 2;
    }

    /**
     * Whether clients keep leaving while others keep arriving: the departures of the last window judged counted,
     * judged no more than {@link #STEADY_NANOS} before {@code now}. A crowd that leaves together never is.
     */
    boolean leavingSteadily(long now) {
        return steady && now - steadyAt < STEADY_NANOS;
    }

    /** The moving average so far, known or not. */
    double seenNanos() {
        return patienceNanos;
    }

    private void roll(long now) {
        if (!started) {
            started = true;
            windowStart = now;
            return;
        }
        if (now - windowStart < WINDOW_NANOS) {
            return;
        }
        steady = pending > 0 && earlier > 0 && departures > 0 && arrivals >= pending;
        steadyAt = now;
        if (steady) {
            learn(pending, pendingAgeNanos / pending);
        }
        if (now - windowStart < 2 * WINDOW_NANOS) {
            earlier = pending;
            pending = departures;
            pendingAgeNanos = departedAgeNanos;
            windowStart += WINDOW_NANOS;
        } else {
            // A whole window passed without any event: this window's departures were followed by none.
            earlier = 0;
            pending = 0;
            pendingAgeNanos = 0;
            windowStart = now;
        }
        arrivals = 0;
        departures = 0;
        departedAgeNanos = 0;
    }

    /** {@code count} departures at the mean age {@code meanNanos}, as if averaged in one by one. */
    private void learn(int count, double meanNanos) {
        if (patienceNanos == 0) {
            patienceNanos = meanNanos;
        } else {
            double weight = 1 - Math.pow(1 - SMOOTHING, count);
            patienceNanos += weight * (meanNanos - patienceNanos);
        }
        learned = Math.min(SAMPLES, learned + count);
    }
}
