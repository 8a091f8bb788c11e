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
 * carrier, and the machine's CPU load since the reading before. JDK 21 has no such bean; there the CPU load stands
 * in (the carriers are as many as the cores, so a busy machine is a busy scheduler), without counts.
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
        return scheduler ? "virtual thread scheduler queue" : "system CPU load";
    }

    /** The carriers now, or {@code null} when they cannot be read (logged once): no reading never lowers a limit. */
    public CarrierReading read() {
        try {
            if (scheduler) {
                return CarrierReading.ofCounts(number(SCHEDULER, "Parallelism").intValue(),
                        number(SCHEDULER, "MountedVirtualThreadCount").longValue(),
                        number(SCHEDULER, "QueuedVirtualThreadCount").longValue(), cpuLoad());
            }
            return CarrierReading.ofCpuLoad(Runtime.getRuntime().availableProcessors(),
                    number(OPERATING_SYSTEM, "CpuLoad").doubleValue());
        } catch (JMException | RuntimeException e) {
            if (!failed) {
                failed = true;
                LOG.warn("Cannot read the {}; adaptive admission will not lower its limit", signal(), e);
            }
            return null;
        }
    }

    /** Whether the carriers are saturated now; false when they cannot be read. */
    public boolean saturatedNow() {
        CarrierReading reading = read();
        return reading != null && reading.saturated();
    }

    /** The machine's CPU load, or -1 where the platform does not tell (the queue then decides alone). */
    private double cpuLoad() {
        try {
            return operatingSystem ? number(OPERATING_SYSTEM, "CpuLoad").doubleValue() : -1;
        } catch (JMException | RuntimeException e) {
            return -1;
        }
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
