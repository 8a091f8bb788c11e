package io.github.slingvt.http.internal.adaptive.sim;

/**
 * What one run of the {@link CarrierModel} measured: answers and answers in time after the warm-up, the admission
 * waits of the requests admitted after it, and a trace of every reading with the limit it produced.
 */
final class Run {

    final int carriers;
    final double seconds;
    final double warmupSeconds;
    final int[] limits;
    final double[] cpuLoads;
    final int[] inFlight;
    final int[] waiting;
    /** Answers per whole second since the start (after the warm-up only). */
    final int[] answersPerSecond;
    int gone;
    private int readings;
    private long answered;
    private long inTime;
    private long admitted;
    private final long[] waitBuckets = new long[CarrierModel.WAIT_BUCKETS + 1];
    private double maxWaitMillis;

    Run(int carriers, double seconds, double warmupSeconds, int readings) {
        this.carriers = carriers;
        this.seconds = seconds;
        this.warmupSeconds = warmupSeconds;
        this.limits = new int[readings];
        this.cpuLoads = new double[readings];
        this.inFlight = new int[readings];
        this.waiting = new int[readings];
        this.answersPerSecond = new int[(int) Math.ceil(seconds) + 1];
    }

    void admitted(double waitMillis) {
        admitted++;
        waitBuckets[(int) Math.min(CarrierModel.WAIT_BUCKETS, waitMillis)]++;
        maxWaitMillis = Math.max(maxWaitMillis, waitMillis);
    }

    void answered(double nowMillis, boolean onTime) {
        answered++;
        if (onTime) {
            inTime++;
        }
        answersPerSecond[(int) (nowMillis / 1_000)]++;
    }

    void traced(AdmissionLaw.Reading reading, int limit) {
        if (readings < limits.length) {
            limits[readings] = limit;
            cpuLoads[readings] = reading.cpuLoad();
            inFlight[readings] = reading.running();
            waiting[readings] = reading.waiting();
            readings++;
        }
    }

    double measuredSeconds() {
        return seconds - warmupSeconds;
    }

    /** Answers per second after the warm-up. */
    double throughput() {
        return answered / measuredSeconds();
    }

    /** Answers within the clients' patience per second after the warm-up (all of them in the closed model). */
    double inTime() {
        return inTime / measuredSeconds();
    }

    /** The limit at the last reading. */
    int limitAtEnd() {
        return limits[readings - 1];
    }

    /** The reading index of {@code second} since the start. */
    static int reading(double second) {
        return (int) Math.round(second * 1_000 / AdmissionLaw.PERIOD_MILLIS) - 1;
    }

    /** Mean CPU load of the readings from {@code fromSecond} to {@code toSecond}. */
    double cpuLoad(double fromSecond, double toSecond) {
        double sum = 0;
        int n = 0;
        for (int i = reading(fromSecond) + 1; i <= Math.min(readings - 1, reading(toSecond)); i++) {
            sum += cpuLoads[i];
            n++;
        }
        return sum / n;
    }

    /** Most requests in flight at a reading from {@code fromSecond} to {@code toSecond}. */
    int maxInFlight(double fromSecond, double toSecond) {
        int most = 0;
        for (int i = reading(fromSecond) + 1; i <= Math.min(readings - 1, reading(toSecond)); i++) {
            most = Math.max(most, inFlight[i]);
        }
        return most;
    }

    /**
     * Seconds from {@code fromSecond} until the first reading after which, up to {@code toSecond}, every reading
     * holds for {@code holds}; {@code NaN} if none does.
     */
    double secondsUntil(double fromSecond, double toSecond, java.util.function.IntPredicate holds) {
        int last = Math.min(readings - 1, reading(toSecond));
        int first = last + 1;
        for (int i = last; i > reading(fromSecond); i--) {
            if (!holds.test(i)) {
                break;
            }
            first = i;
        }
        return first > last ? Double.NaN : (first + 1) * AdmissionLaw.PERIOD_MILLIS / 1_000 - fromSecond;
    }

    /** The admission wait that {@code share} of the requests admitted after the warm-up did not exceed, ms. */
    double admissionWait(double share) {
        long target = (long) Math.ceil(share * admitted);
        long seen = 0;
        for (int ms = 0; ms < waitBuckets.length; ms++) {
            seen += waitBuckets[ms];
            if (seen >= target && target > 0) {
                return ms + 1;
            }
        }
        return 0;
    }

    double maxAdmissionWait() {
        return maxWaitMillis;
    }
}
