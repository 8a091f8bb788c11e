package io.github.slingvt.http.internal.adaptive;

/**
 * One reading of the carrier threads that run virtual threads.
 *
 * @param counts whether the scheduler's counts were read (JDK 24+); otherwise only {@code cpuLoad} is known
 * @param parallelism the carriers (the scheduler's parallelism); on JDK 21-23 the available processors
 * @param mounted virtual threads running on a carrier now (JDK 24+)
 * @param queued runnable virtual threads waiting for a carrier now (JDK 24+)
 * @param cpuLoad the machine's CPU load from 0 to 1, negative when unknown (read on JDK 21-23 only)
 */
public record CarrierReading(boolean counts, int parallelism, long mounted, long queued, double cpuLoad) {

    /** More runnable virtual threads wait than there are carriers: every carrier is busy and work queues. */
    static final int QUEUED_PER_CARRIER_SATURATED = 1;
    /** On JDK 21-23: the machine's CPU at or above this is saturation. */
    static final double CPU_SATURATED = 0.95;
    /** Below this, the CPU has room for more (between the two: hold). */
    static final double CPU_HEADROOM = 0.85;

    /** From the scheduler's counts (JDK 24+). */
    public static CarrierReading ofCounts(int parallelism, long mounted, long queued) {
        return new CarrierReading(true, Math.max(1, parallelism), Math.max(0, mounted), Math.max(0, queued), -1);
    }

    /** From the machine's CPU load (JDK 21-23). */
    public static CarrierReading ofCpuLoad(int parallelism, double cpuLoad) {
        return new CarrierReading(false, Math.max(1, parallelism), 0, 0, cpuLoad);
    }

    /** Every carrier busy and runnable virtual threads waiting for one. */
    public boolean saturated() {
        return counts ? queued > (long) QUEUED_PER_CARRIER_SATURATED * parallelism : cpuLoad >= CPU_SATURATED;
    }

    /** Room for more runnable work: at most half a carrier's worth queued, or the CPU below 85 %. */
    public boolean headroom() {
        return counts ? queued * 2 <= parallelism : cpuLoad >= 0 && cpuLoad < CPU_HEADROOM;
    }

    /** Virtual threads that want a carrier now (JDK 24+): the mounted and the queued. */
    public long runnable() {
        return mounted + queued;
    }
}
