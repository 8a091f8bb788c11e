package io.github.slingvt.http.internal.adaptive;

/**
 * One reading of this JVM's carriers, the threads that run virtual threads.
 *
 * @param counts whether the scheduler's counts were read (JDK 24+); otherwise only {@code cpuShare} is known
 * @param parallelism the carriers (the scheduler's parallelism); on JDK 21-23 the CPUs the JVM may use
 * @param mounted virtual threads running on a carrier now (JDK 24+)
 * @param queued runnable virtual threads waiting for a carrier now (JDK 24+)
 * @param cpuShare this process's CPU time since the reading before, as a share of the CPUs it may use (its
 *     container's quota or CPU set included), from 0 to 1; negative when unknown. Never the machine's load: another
 *     process on the host moves that, and a server confined to one CPU of many never reads busy by it.
 */
public record CarrierReading(boolean counts, int parallelism, long mounted, long queued, double cpuShare) {

    /** From the scheduler's counts (JDK 24+). */
    public static CarrierReading ofCounts(int parallelism, long mounted, long queued) {
        return ofCounts(parallelism, mounted, queued, -1);
    }

    /** From the scheduler's counts (JDK 24+) and the process's CPU share (negative when unknown). */
    public static CarrierReading ofCounts(int parallelism, long mounted, long queued, double cpuShare) {
        return new CarrierReading(true, Math.max(1, parallelism), Math.max(0, mounted), Math.max(0, queued), cpuShare);
    }

    /** From the process's CPU share alone (JDK 21-23, which have no scheduler counts). */
    public static CarrierReading ofCpuShare(int parallelism, double cpuShare) {
        return new CarrierReading(false, Math.max(1, parallelism), 0, 0, cpuShare);
    }
}
