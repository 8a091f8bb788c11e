package io.github.slingvt.http.internal.adaptive;

/**
 * The concurrency limit of {@code maxConcurrentRequests=auto}. Requests on virtual threads mostly wait (repository,
 * remote calls), and a wait costs a carrier nothing: the limit has no business there. It matters when the carriers
 * are the bottleneck, because every request admitted beyond what keeps them busy only queues for a carrier, makes the
 * others dearer (Oak's per-session work, the collector) and adds no throughput. The law, judged once per
 * {@link #INTERVAL_READINGS} readings on the smallest runnable queue seen in them (the queue that stood the whole
 * interval, as CoDel judges a network queue, so that a burst of wake-ups is not mistaken for saturation):
 * <ul>
 * <li><b>Standing queue</b> (more than {@link #QUEUED_PER_CARRIER} runnable per carrier at every reading): the
 * backlog is cut: the limit falls to what keeps the carriers busy and nothing more, the requests that waited off the
 * carriers (at their most in the interval: requests admitted together run their CPU work together, and a reading in
 * that moment sees them runnable, not waiting), one running and one queued per carrier, and the square root of those
 * waits, the spread of how many come back to the carriers at once when waits end at random. Requests that wait are
 * kept whatever their number: they cost no carrier. The next cut waits until the last one is in force (no more
 * running than the limit).</li>
 * <li><b>Room</b> (fewer than that at some reading: a carrier may have idled) while requests wait for admission and
 * the limit is at least half used: the limit doubles, so a load that waits reaches any concurrency it needs in a few
 * intervals.</li>
 * <li>Otherwise it holds.</li>
 * </ul>
 * On JDK 21-23 there are no scheduler counts; the process's own CPU time stands in: at {@link #CPU_BUSY} of the CPUs
 * the JVM may use or more over an interval the limit falls to that share of the running requests, below it there is
 * room. Latency is deliberately no signal: a Sling request's latency is mostly waiting on purpose, and a limit that
 * read "slower" as "overloaded" would throttle exactly the waits virtual threads make cheap. Design:
 * docs/design/admission.md. Not thread-safe: one clock thread updates it.
 */
public final class CarrierLimit {

    /**
     * Readings per judgement (5 &times; 100 ms): long enough that a queue seen at every reading is a standing one and
     * not the wake-up burst of requests whose waits ended together; short enough that a load that waits doubles its
     * way from 200 to 6,400 in under three seconds.
     */
    static final int INTERVAL_READINGS = 5;
    /**
     * Runnable virtual threads per carrier the carriers may keep queued: one each keeps every carrier busy as the
     * running one blocks or ends; more is backlog that only delays.
     */
    static final int QUEUED_PER_CARRIER = 1;
    /** JDK 21-23: the process's CPU share that counts as saturated, and the share of the running kept then. */
    static final double CPU_BUSY = 0.9;

    private final int min;
    private final int max;
    private int limit;
    private int readings;
    private long smallestQueue = Long.MAX_VALUE;
    private long mostWaits;
    private double cpuTotal;
    private int cpuReadings;

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
     * One reading; the limit moves only at the last reading of an interval.
     *
     * @param reading the carriers now, {@code null} when they could not be read (not counted)
     * @param running requests admitted and running now
     * @param waiting requests waiting for admission now
     * @return the limit after the reading
     */
    public int update(CarrierReading reading, int running, int waiting) {
        if (reading == null) {
            return limit;
        }
        smallestQueue = Math.min(smallestQueue, reading.queued());
        mostWaits = Math.max(mostWaits, Math.max(0, running - reading.mounted() - reading.queued()));
        if (reading.cpuShare() >= 0) {
            cpuTotal += reading.cpuShare();
            cpuReadings++;
        }
        if (++readings < INTERVAL_READINGS) {
            return limit;
        }
        long queue = smallestQueue;
        long waits = mostWaits;
        double cpu = cpuReadings == 0 ? -1 : cpuTotal / cpuReadings;
        readings = 0;
        smallestQueue = Long.MAX_VALUE;
        mostWaits = 0;
        cpuTotal = 0;
        cpuReadings = 0;
        judge(reading, queue, waits, cpu, running, waiting);
        return limit;
    }

    /** What a cut keeps: every wait, a running and {@link #QUEUED_PER_CARRIER} queued per carrier, and √waits. */
    static long kept(int carriers, long waits) {
        return waits + (1L + QUEUED_PER_CARRIER) * carriers + (long) Math.ceil(Math.sqrt(waits));
    }

    private void judge(CarrierReading reading, long queue, long waits, double cpu, int running, int waiting) {
        long queuedKept = (long) QUEUED_PER_CARRIER * reading.parallelism();
        boolean standing = reading.counts() ? queue > queuedKept : cpu >= CPU_BUSY;
        if (standing) {
            if (running <= limit) {
                long target = reading.counts() ? kept(reading.parallelism(), waits)
                        : (long) Math.floor(running * CPU_BUSY);
                limit = (int) Math.max(min, Math.min(limit, target));
            }
            return;
        }
        boolean room = reading.counts() ? queue < queuedKept : cpu >= 0;
        if (room && waiting > 0 && running * 2L >= limit) {
            limit = (int) Math.min(max, limit * 2L);
        }
    }
}
