package io.github.slingvt.http.internal.adaptive;

/**
 * The concurrency limit of {@code maxConcurrentRequests=auto}, moved once per reading of the carriers
 * ({@link CarrierReading}, every {@link AdaptiveAdmission#PERIOD_MILLIS} ms). Requests on virtual threads mostly wait
 * (repository, remote calls), and waiting costs a carrier nothing: the limit has no business there. It matters when
 * the carriers are saturated, because every request admitted beyond what keeps them busy makes every other one
 * dearer (Oak's per-session work, the collector) while it adds no throughput.
 * <ul>
 * <li><b>Saturated</b> for two readings in a row (more runnable virtual threads wait than there are carriers): the
 * limit moves halfway towards the concurrency that keeps about {@link #TARGET_RUNNABLE_PER_CARRIER} runnable virtual
 * threads per carrier, estimated from the reading as running &times; target runnable / runnable now (the share of
 * its life a request is runnable is what the reading shows): down, or up while requests wait for admission. A
 * saturated-from-start load therefore reaches its limit in a few readings whatever the limit started at, and a load
 * that becomes heavier or lighter moves it again. On JDK 21-23, without counts, a saturated CPU lowers the limit by
 * {@link #CPU_BACKOFF} of what runs.</li>
 * <li><b>Not saturated</b> while requests wait for admission and at least half of the limit is used: the limit
 * doubles (on JDK 21-23 only below 85 % CPU). A load that mostly waits is never held back for longer than a few
 * readings, and one that the limit held too low recovers as fast.</li>
 * <li>Otherwise it holds.</li>
 * </ul>
 * Latency is deliberately no signal: a Sling request's latency is mostly waiting on purpose, and the mix changes
 * over a day; a limit that read "slower" as "overloaded" would throttle exactly the waits virtual threads make cheap.
 * Not thread-safe: one clock thread updates it.
 */
public final class CarrierLimit {

    /**
     * Runnable virtual threads per carrier the limit aims at under saturation: one running and three waiting, so that
     * the carriers never run dry between readings (with two, R = 1 s at C = 8,000 made 0.85x unbounded).
     */
    static final int TARGET_RUNNABLE_PER_CARRIER = 4;
    /** JDK 21-23, saturated CPU: the limit falls to this share of the requests running. */
    static final double CPU_BACKOFF = 0.9;
    /** Saturated readings in a row before the limit falls: a burst shorter than a period does not count. */
    static final int SATURATED_READINGS = 2;

    private final int min;
    private final int max;
    private int limit;
    private int saturatedInARow;

    public CarrierLimit(int min, int max, int initial) {
        if (min < 1 || max < min) {
            throw new IllegalArgumentException("adaptive limits must satisfy 1 <= min <= max; got " + min + ", " + max);
        }
        this.min = min;
        this.max = max;
        this.limit = Math.max(min, Math.min(max, initial));
    }

    public int limit() {
        return limit;
    }

    public int min() {
        return min;
    }

    public int max() {
        return max;
    }

    /**
     * One reading of the carriers.
     *
     * @param reading the carriers now, {@code null} when they could not be read (the limit holds)
     * @param running requests admitted and running now
     * @param waiting requests waiting for admission now
     * @return the limit after the reading
     */
    public int update(CarrierReading reading, int running, int waiting) {
        if (reading == null) {
            return limit;
        }
        if (reading.saturated()) {
            saturatedInARow++;
            if (saturatedInARow >= SATURATED_READINGS) {
                long target = Math.min(max, Math.max(min, target(reading, running)));
                // Towards the estimate, down or up: a share of runnable work that fell raises it again.
                if (target < limit || (reading.counts() && waiting > 0)) {
                    limit = (int) Math.max(min, (limit + target) / 2);
                }
            }
            return limit;
        }
        saturatedInARow = 0;
        boolean room = reading.counts() || reading.headroom();
        if (room && waiting > 0 && running * 2L >= limit) {
            limit = (int) Math.min(max, limit * 2L);
        }
        return limit;
    }

    /** The concurrency that would keep the carriers busy with a short queue, from what runs now. */
    private static long target(CarrierReading reading, int running) {
        if (!reading.counts()) {
            return (long) Math.ceil(running * CPU_BACKOFF);
        }
        long runnable = Math.max(1, reading.runnable());
        double perRequest = Math.min(1.0, (double) runnable / Math.max(1, running));
        return (long) Math.ceil(TARGET_RUNNABLE_PER_CARRIER * reading.parallelism() / perRequest);
    }
}
