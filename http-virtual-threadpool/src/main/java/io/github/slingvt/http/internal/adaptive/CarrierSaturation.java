package io.github.slingvt.http.internal.adaptive;

import java.lang.management.ManagementFactory;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the carrier threads that run virtual threads: from the JDK's virtual thread scheduler MXBean (JDK 24 and
 * newer) how many carriers there are, how many virtual threads are mounted and how many runnable ones wait for a
 * carrier. JDK 21 has no such bean; there this process's CPU time stands in, as a share of the CPUs the JVM may use
 * ({@link Runtime#availableProcessors()}, which honours a container's CPU quota and CPU set): the carriers are as many
 * as those CPUs, so a process that keeps them all busy has busy carriers. Never the machine's load, which other
 * processes move.
 *
 * <p>Read through the platform MBean server by name, so the bundle imports no JDK-internal package and runs on both.
 */
public final class CarrierSaturation {

    static final ObjectName SCHEDULER = name("jdk.management:type=VirtualThreadScheduler");
    static final ObjectName OPERATING_SYSTEM = name("java.lang:type=OperatingSystem");

    private static final Logger LOG = LoggerFactory.getLogger(CarrierSaturation.class);

    private final MBeanServer server;
    private final boolean scheduler;
    private final boolean operatingSystem;
    private volatile boolean failed;
    /** The process's CPU time and the wall clock at the reading before, nanoseconds; 0 before the first. */
    private long cpuTimeBefore;
    private long wallBefore;

    public CarrierSaturation() {
        this(ManagementFactory.getPlatformMBeanServer());
    }

    CarrierSaturation(MBeanServer server) {
        this.server = server;
        this.scheduler = server.isRegistered(SCHEDULER);
        this.operatingSystem = server.isRegistered(OPERATING_SYSTEM);
    }

    /** Whether the readings count the carriers (JDK 24+) rather than stand in with the CPU load. */
    public boolean counts() {
        return scheduler;
    }

    /** What the reading is based on, for the status views. */
    public String signal() {
        return scheduler ? "virtual thread scheduler queue" : "process CPU time";
    }

    /** The carriers now, or {@code null} when they cannot be read (logged once): no reading never lowers a limit. */
    public CarrierReading read() {
        try {
            if (scheduler) {
                return CarrierReading.ofCounts(number(SCHEDULER, "Parallelism").intValue(),
                        number(SCHEDULER, "MountedVirtualThreadCount").longValue(),
                        number(SCHEDULER, "QueuedVirtualThreadCount").longValue());
            }
            int cpus = Runtime.getRuntime().availableProcessors();
            return CarrierReading.ofCpuShare(cpus, cpuShare(cpus));
        } catch (JMException | RuntimeException e) {
            if (!failed) {
                failed = true;
                LOG.warn("Cannot read the {}; adaptive admission will not lower its limit", signal(), e);
            }
            return null;
        }
    }

    /**
     * The process's CPU time since the reading before over the wall time and the CPUs it may use, or -1 at the first
     * reading and where the platform does not tell. Called by one clock thread.
     */
    private double cpuShare(int cpus) throws JMException {
        if (!operatingSystem) {
            return -1;
        }
        long cpuTime = number(OPERATING_SYSTEM, "ProcessCpuTime").longValue();
        long wall = System.nanoTime();
        long cpuBefore = cpuTimeBefore;
        long before = wallBefore;
        cpuTimeBefore = cpuTime;
        wallBefore = wall;
        if (before == 0 || cpuTime < 0 || wall <= before) {
            return -1;
        }
        return Math.min(1, Math.max(0, (cpuTime - cpuBefore) / ((double) (wall - before) * cpus)));
    }

    private Number number(ObjectName bean, String attribute) throws JMException {
        return (Number) server.getAttribute(bean, attribute);
    }

    private static ObjectName name(String name) {
        try {
            return new ObjectName(name);
        } catch (JMException e) {
            throw new IllegalStateException(e);
        }
    }
}
