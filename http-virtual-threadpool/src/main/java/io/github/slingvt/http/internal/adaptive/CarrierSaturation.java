package io.github.slingvt.http.internal.adaptive;

import java.lang.management.ManagementFactory;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the carrier threads that run virtual threads are saturated now: more runnable virtual threads wait for a
 * carrier than {@link #QUEUE_PER_CARRIER} per carrier. Read from the JDK's virtual thread scheduler MXBean (JDK 24
 * and newer). JDK 21 has no such bean; there the machine's CPU load at or above {@link #CPU_LOAD} stands in for it
 * (the carriers are as many as the cores, so a busy machine is a busy scheduler).
 *
 * <p>Read through the platform MBean server by name, so the bundle imports no JDK-internal package and runs on both.
 */
public final class CarrierSaturation {

    static final ObjectName SCHEDULER = name("jdk.management:type=VirtualThreadScheduler");
    static final ObjectName OPERATING_SYSTEM = name("java.lang:type=OperatingSystem");
    static final int QUEUE_PER_CARRIER = 2;
    static final double CPU_LOAD = 0.95;

    private static final Logger LOG = LoggerFactory.getLogger(CarrierSaturation.class);

    private final MBeanServer server;
    private final boolean scheduler;
    private volatile boolean failed;

    public CarrierSaturation() {
        this(ManagementFactory.getPlatformMBeanServer());
    }

    CarrierSaturation(MBeanServer server) {
        this.server = server;
        this.scheduler = server.isRegistered(SCHEDULER);
    }

    /** What the reading is based on, for the status views. */
    public String signal() {
        return scheduler ? "virtual thread scheduler queue" : "system CPU load";
    }

    /** False when the reading fails (logged once): no reading must never lower the limit. */
    public boolean saturatedNow() {
        try {
            if (scheduler) {
                long queued = ((Number) server.getAttribute(SCHEDULER, "QueuedVirtualThreadCount")).longValue();
                int parallelism = ((Number) server.getAttribute(SCHEDULER, "Parallelism")).intValue();
                return queued > (long) QUEUE_PER_CARRIER * Math.max(1, parallelism);
            }
            double load = ((Number) server.getAttribute(OPERATING_SYSTEM, "CpuLoad")).doubleValue();
            return load >= CPU_LOAD;
        } catch (JMException | RuntimeException e) {
            if (!failed) {
                failed = true;
                LOG.warn("Cannot read the {}; adaptive admission will not lower its limit", signal(), e);
            }
            return false;
        }
    }

    private static ObjectName name(String name) {
        try {
            return new ObjectName(name);
        } catch (JMException e) {
            throw new IllegalStateException(e);
        }
    }
}
