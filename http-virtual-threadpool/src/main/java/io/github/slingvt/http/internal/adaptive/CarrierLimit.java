package io.github.slingvt.http.internal.adaptive;

/**
 * The concurrency limit of {@code maxConcurrentRequests=auto}, moved once per reading of the carriers
 * ({@link CarrierReading}, every {@link AdaptiveAdmission#PERIOD_MILLIS} ms). Requests on virtual threads mostly wait
 * (repository, remote calls), and waiting costs a carrier nothing: the limit has no business there. It matters when
 * the carriers are saturated, because every request admitted beyond what keeps them busy makes every other one
 * dearer (Oak's per-session work, the collector) while it adds no throughput.
 * <ul>
 * <li><b>Saturated</b> for two readings in a row (more runnable virtual threads wait than there are carriers, and the
 * CPU is busy where its load is known): the limit falls to {@link #STEP_DOWN} of what runs, once the step before is
 * in force (no more running than the limit). A limit far above what runs therefore falls at once to where it binds,
 * and then by a tenth per reading at most, as fast as requests finish: a saturated-from-start load reaches its limit
 * in a few seconds. It never falls below the requests that wait (neither on a carrier nor queued for one, the most
 * of the last second) plus a runnable margin ({@link #kept}): the limit is there to cap the work that competes
 * for the carriers, and a load whose requests wait 100 ms each needs 100 in flight per 1,000 answers a second,
 * whatever the CPU. The margin is two runnable per carrier and three per square root of the waits: waits end at
 * random, and a carrier whose queue runs dry for a moment loses that moment for good.</li>
 * <li><b>Headroom</b> (at most half a carrier's worth queued, or the CPU below 85 %) for {@link #HEADROOM_READINGS}
 * readings in a row while requests wait for admission and at least half of the limit is used: the limit doubles, and
 * the next doubling needs as many readings again. A load that mostly waits is never held back for longer than a few
 * tenths of a second per doubling; one that the limit held too low recovers as fast only while its readings show
 * headroom three times in a row, more slowly where they alternate with saturated ones. One reading is not enough:
 * under a CPU-bound overload the queue is a snapshot that reads empty now and then, and the CPU load of one period
 * dips below 85 % now and then, while the readings before and after are saturated; doubling on each such reading
 * took the limit from about 30 to its ceiling within a minute, faster than the step-down could follow.</li>
 * <li><b>Some room</b> ({@link CarrierReading#spare()}: not saturated, and headroom or the machine's CPU below 95 %)
 * for {@link #SPARE_READINGS} readings in a row, the last without headroom, while requests wait for admission and
 * at least half of the limit is used: the limit rises by the inverse of {@link #STEP_DOWN}, the mirror of a
 * step-down. Between 85 % and 95 % the carriers are busy and their queue is short; a limit held there for good
 * keeps requests waiting for admission while the machine still has CPU to give. Raised a ninth at a time, the limit
 * climbs until the readings saturate and the step-down takes it back: it stays near the edge of saturation.</li>
 * <li>Otherwise it holds: the CPU is saturated with a short queue, or its load is unknown.</li>
 * </ul>
 * An estimate of the right concurrency from one reading (running &times; target runnable / runnable) is deliberately
 * not used: with the CPU saturated the runnable count is a backlog, the estimate undershoots, the carriers run dry and
 * the limit alternates between too low and doubled (0.72x unbounded at R = 100 ms, C = 1,000).
 * Latency is no signal either: a Sling request's latency is mostly waiting on purpose, and the mix changes over a
 * day; a limit that read "slower" as "overloaded" would throttle exactly the waits virtual threads make cheap.
 * Not thread-safe: one clock thread updates it.
 */
public final class CarrierLimit {

    /** Under saturation the limit falls to this share of the requests running. */
    static final double STEP_DOWN = 0.9;
    /**
     * Runnable requests per carrier that a step-down keeps besides the waiting ones: one on each carrier and one
     * queued for it, the edge of saturation ({@link CarrierReading#saturated()} needs more than one queued each).
     */
    static final int RUNNABLE_PER_CARRIER_KEPT = 2;
    /**
     * Runnable requests a step-down keeps per square root of the requests that wait. Waits end at random, so the
     * requests that come back to the carriers in a moment scatter around their mean by about its square root; a
     * margin of a few of those keeps the carriers fed (the square-root staffing rule of many-server queues). Kept
     * at two per carrier alone, a load that waits 100 ms per request (C = 1,000) left the carriers idle in one
     * reading of nine and made 0.83x to 0.89x of unbounded admission; with the waits at W the margin is
     * 3&radic;W (60 at 400 waiting, 190 at 4,000), a few percent of what runs.
     */
    static final double RUNNABLE_PER_ROOT_OF_WAITS = 3;
    /**
     * Readings over which the requests that wait are counted at their most (one second): requests admitted together
     * run their CPU work together, and a reading in that moment sees most of them runnable and few waiting.
     */
    static final int WAITS_READINGS = 10;
    /** Saturated readings in a row before the limit falls: a burst shorter than a period does not count. */
    static final int SATURATED_READINGS = 2;
    /**
     * Readings with headroom in a row before the limit doubles (0.3 s): a lone reading with headroom between saturated
     * ones is a snapshot of a busy scheduler, not room for twice the work.
     */
    static final int HEADROOM_READINGS = 3;

    /**
     * Readings with some room in a row before the limit rises by a ninth (0.3 s). Under a CPU-bound overload a reading
     * between saturated ones may show some room (the CPU load of one period dips); it takes three in a row.
     */
    static final int SPARE_READINGS = 3;

    private final int min;
    private final int max;
    private int limit;
    private int saturatedInARow;
    private int headroomInARow;
    private int spareInARow;
    /** The requests that waited off the carriers at each of the last readings, a ring. */
    private final long[] waits = new long[WAITS_READINGS];
    private int nextWait;

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
     * The running requests that neither run on a carrier nor wait for one at this reading: they wait for the
     * repository, a remote call, a timer. Without the scheduler's counts (JDK 21-23) none are known.
     */
    static long waits(CarrierReading reading, int running) {
        return reading.counts() ? Math.max(0, running - reading.mounted() - reading.queued()) : 0;
    }

    /**
     * What a step-down keeps: the most requests that waited off the carriers in the last {@link #WAITS_READINGS}
     * readings, plus {@link #RUNNABLE_PER_CARRIER_KEPT} runnable ones per carrier and
     * {@link #RUNNABLE_PER_ROOT_OF_WAITS} per square root of those waits. Those waits cost no carrier;
     * cutting them only stretches every request's time in the server, so that a load that waits 100 ms per request
     * would make fewer answers per second than the CPU could give (Little's law) and its queue for admission would
     * grow. A load saturated by its CPU work (nothing waiting) still falls by a tenth per reading. Without the
     * scheduler's counts (JDK 21-23) nothing is kept beyond the step.
     */
    long kept(CarrierReading reading) {
        if (!reading.counts()) {
            return 0;
        }
        long most = 0;
        for (long w : waits) {
            most = Math.max(most, w);
        }
        long margin = (long) Math.ceil(RUNNABLE_PER_ROOT_OF_WAITS * Math.sqrt(most));
        return most + (long) RUNNABLE_PER_CARRIER_KEPT * reading.parallelism() + margin;
    }

    /**
     * {@code limit / STEP_DOWN} rounded up, at least one more: 180 becomes 200 again after a step-down from 200. The
     * quotient is nudged down first, since 180 / 0.9 is 200.00000000000003 in floating point.
     */
    static long riseUndoingAStepDown(int limit) {
        return Math.max(limit + 1L, (long) Math.ceil(limit / STEP_DOWN - 1e-9));
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
        waits[nextWait] = waits(reading, running);
        nextWait = (nextWait + 1) % WAITS_READINGS;
        if (reading.saturated()) {
            headroomInARow = 0;
            spareInARow = 0;
            saturatedInARow++;
            // running > limit: the step before is not in force yet (requests admitted above it still finish).
            if (saturatedInARow >= SATURATED_READINGS && running <= limit) {
                long step = (long) Math.floor(Math.min(limit, running) * STEP_DOWN);
                limit = (int) Math.max(min, Math.min(limit, Math.max(step, kept(reading))));
            }
            return limit;
        }
        saturatedInARow = 0;
        boolean headroom = reading.headroom();
        headroomInARow = headroom ? headroomInARow + 1 : 0;
        spareInARow = reading.spare() ? spareInARow + 1 : 0;
        if (waiting <= 0 || running * 2L < limit) {
            return limit;
        }
        if (headroomInARow >= HEADROOM_READINGS) {
            limit = (int) Math.min(max, limit * 2L);
        } else if (spareInARow >= SPARE_READINGS && !headroom) {
            // A reading with headroom waits for the doubling its run may bring instead.
            limit = (int) Math.min(max, riseUndoingAStepDown(limit));
        } else {
            return limit;
        }
        // The next raise is judged on readings taken with this limit in force.
        headroomInARow = 0;
        spareInARow = 0;
        return limit;
    }
}
