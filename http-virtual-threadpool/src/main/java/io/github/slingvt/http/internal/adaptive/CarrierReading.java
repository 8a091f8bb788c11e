package io.github.slingvt.http.internal.adaptive;

/**
 * One reading of the carrier threads that run virtual threads.
 *
 * @param counts whether the scheduler's counts were read (JDK 24+); otherwise only {@code cpuLoad} is known
 * @param parallelism the carriers (the scheduler's parallelism); on JDK 21-23 the available processors
 * @param mounted virtual threads running on a carrier now (JDK 24+)
 * @param queued runnable virtual threads waiting for a carrier now (JDK 24+)
 * @param cpuLoad the machine's CPU load from 0 to 1 since the reading before, negative when unknown
 */
public record CarrierReading(boolean counts, int parallelism, long mounted, long queued, double cpuLoad) {

    /** More runnable virtual threads wait than there are carriers: every carrier is busy and work queues. */
    static final int QUEUED_PER_CARRIER_SATURATED = 1;
    /** On JDK 21-23: the machine's CPU at or above this is saturation. */
    static final double CPU_SATURATED = 0.95;
    /** Below this, the CPU has room for more (between the two: some room, {@link #spare()}). */
    static final double CPU_HEADROOM = 0.85;

    /** From the scheduler's counts (JDK 24+), the CPU load unknown. */
    public static CarrierReading ofCounts(int parallelism, long mounted, long queued) {
        return ofCounts(parallelism, mounted, queued, -1);
    }

    /** From the scheduler's counts (JDK 24+) and the machine's CPU load (negative when unknown). */
    public static CarrierReading ofCounts(int parallelism, long mounted, long queued, double cpuLoad) {
        return new CarrierReading(true, Math.max(1, parallelism), Math.max(0, mounted), Math.max(0, queued), cpuLoad);
    }

    /** From the machine's CPU load (JDK 21-23). */
    public static CarrierReading ofCpuLoad(int parallelism, double cpuLoad) {
        return new CarrierReading(false, Math.max(1, parallelism), 0, 0, cpuLoad);
    }

    /**
     * Every carrier busy and runnable virtual threads waiting for one. With counts, the CPU must be saturated as well
     * when its load is known: the queue is a snapshot, and a load that mostly waits wakes its requests in bursts that
     * queue for a moment while the CPU still has room (such bursts held R = 1 s at C = 8,000 to 0.82x unbounded).
     */
    public boolean saturated() {
        if (!counts) {
            return cpuLoad >= CPU_SATURATED;
        }
        return queued > (long) QUEUED_PER_CARRIER_SATURATED * parallelism && (cpuLoad < 0 || cpuLoad >= CPU_SATURATED);
    }

    /** Room for more runnable work: at most half a carrier's worth queued, or the CPU below 85 %. */
    public boolean headroom() {
        boolean cpuRoom = cpuLoad >= 0 && cpuLoad < CPU_HEADROOM;
        return counts ? queued * 2 <= parallelism || cpuRoom : cpuRoom;
    }

    /**
     * Some room, less than headroom: not saturated, and either headroom or the CPU known to be below saturation. Between
     * 85 % and 95 % the machine still has CPU to give while a short queue waits for the carriers; an unknown load is no
     * room.
     */
    public boolean spare() {
        return !saturated() && (headroom() || (cpuLoad >= 0 && cpuLoad < CPU_SATURATED));
    }
}
