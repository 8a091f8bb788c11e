package io.github.slingvt.observability.internal.status;

import java.lang.management.ManagementFactory;

import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Figures of the JDK's virtual-thread scheduler (the ForkJoinPool whose carrier threads mount virtual threads),
 * read by attribute name from the platform MBean {@code jdk.management:type=VirtualThreadScheduler}. Read through
 * JMX rather than {@code jdk.management.VirtualThreadSchedulerMXBean} because that interface exists only from
 * JDK 24: the bundle compiles for release 21 and on JDK 21–23 the figures are simply "not available".
 */
public final class SchedulerStats {

    static final String OBJECT_NAME = "jdk.management:type=VirtualThreadScheduler";
    public static final String NOT_AVAILABLE = "not available (needs JDK 24+)";

    private static final Logger LOG = LoggerFactory.getLogger(SchedulerStats.class);

    private final MBeanServer server;
    private final ObjectName name;

    /** @param server the platform MBean server in production; tests pass one without the scheduler bean */
    public SchedulerStats(MBeanServer server) {
        this.server = server;
        try {
            this.name = new ObjectName(OBJECT_NAME);
        } catch (MalformedObjectNameException e) {
            throw new IllegalStateException(e);
        }
    }

    public static SchedulerStats platform() {
        return new SchedulerStats(ManagementFactory.getPlatformMBeanServer());
    }

    /** Never throws: the console page and the status dump must render whatever the JDK offers. */
    public Figures read() {
        try {
            return new Figures(true, number("Parallelism"), number("PoolSize"),
                    number("MountedVirtualThreadCount"), number("QueuedVirtualThreadCount"), "");
        } catch (InstanceNotFoundException e) {
            return Figures.unavailable(NOT_AVAILABLE);
        } catch (JMException | RuntimeException e) {
            // A JDK that renamed an attribute should not break the page; say what failed instead.
            LOG.debug("Reading {} failed", OBJECT_NAME, e);
            return Figures.unavailable("not available (" + OBJECT_NAME + ": " + e + ")");
        }
    }

    private long number(String attribute) throws JMException {
        return ((Number) server.getAttribute(name, attribute)).longValue();
    }

    /**
     * One reading. {@code poolSize} counts the carrier threads that exist, {@code mounted} the virtual threads on a
     * carrier right now and {@code queued} those ready to run but waiting for a carrier: queued > 0 for long with
     * poolSize = parallelism means the carriers are the bottleneck (CPU-bound or pinned work).
     */
    public record Figures(boolean available, long parallelism, long poolSize, long mountedVirtualThreadCount,
            long queuedVirtualThreadCount, String unavailableReason) {

        public static Figures unavailable(String reason) {
            return new Figures(false, 0, 0, 0, 0, reason);
        }

        /** One line for the status printer's TEXT form. */
        public String toText() {
            if (!available) {
                return "Virtual thread scheduler: " + unavailableReason;
            }
            return "Virtual thread scheduler: parallelism " + parallelism + ", pool size " + poolSize
                    + ", mounted virtual threads " + mountedVirtualThreadCount + ", queued virtual threads "
                    + queuedVirtualThreadCount;
        }
    }
}
