package io.github.slingvt.http.internal.adaptive;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.StandardMBean;

import org.junit.jupiter.api.Test;

class CarrierSaturationTest {

    @Test
    void theSchedulersCountsAreRead() throws Exception {
        MBeanServer server = MBeanServerFactory.newMBeanServer();
        Scheduler scheduler = new Scheduler();
        server.registerMBean(scheduler, CarrierSaturation.SCHEDULER);
        CarrierSaturation carriers = new CarrierSaturation(server);
        assertThat(carriers.counts()).isTrue();
        assertThat(carriers.signal()).isEqualTo("virtual thread scheduler queue");

        scheduler.parallelism = 4;
        scheduler.mounted = 4;
        scheduler.queued = 5;
        assertThat(carriers.read()).isEqualTo(CarrierReading.ofCounts(4, 4, 5));
    }

    @Test
    void withoutTheSchedulerBeanTheProcesssCpuTimeStandsInAsAShareOfItsCpus() throws Exception {
        MBeanServer server = MBeanServerFactory.newMBeanServer();
        OperatingSystem os = new OperatingSystem();
        server.registerMBean(os, CarrierSaturation.OPERATING_SYSTEM);
        CarrierSaturation carriers = new CarrierSaturation(server);
        assertThat(carriers.counts()).isFalse();
        assertThat(carriers.signal()).isEqualTo("process CPU time");
        int cpus = Runtime.getRuntime().availableProcessors();

        CarrierReading first = carriers.read();
        assertThat(first.counts()).isFalse();
        assertThat(first.parallelism()).isEqualTo(cpus);
        assertThat(first.cpuShare()).as("no interval yet").isEqualTo(-1);

        long start = System.nanoTime();
        Thread.sleep(50);
        // As if the process had kept every CPU it may use busy, and ten times more: capped at all of them.
        os.cpuTime += 10L * cpus * (System.nanoTime() - start);
        assertThat(carriers.read().cpuShare()).isEqualTo(1.0);
        Thread.sleep(50);
        assertThat(carriers.read().cpuShare()).as("no CPU time since").isZero();
    }

    @Test
    void aSignalThatCannotBeReadIsNoReading() {
        CarrierSaturation carriers = new CarrierSaturation(MBeanServerFactory.newMBeanServer());
        assertThat(carriers.read()).as("no operating system bean: unknown, not idle")
                .isEqualTo(CarrierReading.ofCpuShare(Runtime.getRuntime().availableProcessors(), -1));
    }

    /**
     * The JDK 21-23 stand-in on every JDK: a server holding only the real operating system bean, as JDK 21's platform
     * server has no scheduler bean. Virtual threads spinning on every carrier keep the process's CPUs busy, whatever
     * the rest of the machine does.
     */
    @Test
    void theJdk21StandInReadsThisProcesssBusyCarriersAsBusy() throws Exception {
        MBeanServer server = MBeanServerFactory.newMBeanServer();
        server.registerMBean(new StandardMBean(
                ManagementFactory.getPlatformMXBean(com.sun.management.OperatingSystemMXBean.class),
                com.sun.management.OperatingSystemMXBean.class, true), CarrierSaturation.OPERATING_SYSTEM);
        CarrierSaturation carriers = new CarrierSaturation(server);
        assertThat(busiestShareWhileEveryCarrierSpins(carriers)).isGreaterThanOrEqualTo(CarrierLimit.CPU_BUSY);
    }

    /** On JDK 24+ this JVM's own scheduler: spinning virtual threads queue for the carriers. */
    @Test
    void thisJvmsSchedulerCountsTheQueueOfSpinningVirtualThreads() throws Exception {
        CarrierSaturation carriers = new CarrierSaturation(ManagementFactory.getPlatformMBeanServer());
        boolean jdk24 = Runtime.version().feature() >= 24;
        assertThat(carriers.counts()).isEqualTo(jdk24);
        if (!jdk24) {
            return;
        }
        int parallelism = carriers.read().parallelism();
        long queued = spinning(parallelism * 10, () -> carriers.read().queued());
        assertThat(queued).as("ten spinning virtual threads per carrier").isGreaterThan(parallelism);
    }

    private static double busiestShareWhileEveryCarrierSpins(CarrierSaturation carriers) throws Exception {
        carriers.read();
        return spinning(Runtime.getRuntime().availableProcessors() * 10, () -> {
            double most = 0;
            // Ten readings of 100 ms: the CPU time is measured between two reads.
            for (int i = 0; i < 10; i++) {
                Thread.sleep(100);
                most = Math.max(most, carriers.read().cpuShare());
            }
            return most;
        });
    }

    private interface Probe<T> {
        T read() throws Exception;
    }

    /** Runs {@code probe} while {@code count} virtual threads spin. */
    private static <T> T spinning(int count, Probe<T> probe) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> spinners = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            spinners.add(Thread.ofVirtual().start(() -> {
                while (!stop.get()) {
                    Thread.onSpinWait();
                }
            }));
        }
        try {
            Thread.sleep(200);
            return probe.read();
        } finally {
            stop.set(true);
            for (Thread t : spinners) {
                t.join();
            }
        }
    }

    public interface SchedulerMBean {
        long getQueuedVirtualThreadCount();

        int getMountedVirtualThreadCount();

        int getParallelism();
    }

    public static final class Scheduler implements SchedulerMBean {
        volatile long queued;
        volatile int mounted;
        volatile int parallelism;

        @Override
        public int getMountedVirtualThreadCount() {
            return mounted;
        }

        @Override
        public long getQueuedVirtualThreadCount() {
            return queued;
        }

        @Override
        public int getParallelism() {
            return parallelism;
        }
    }

    public interface OperatingSystemMBean {
        long getProcessCpuTime();
    }

    public static final class OperatingSystem implements OperatingSystemMBean {
        volatile long cpuTime = 1;

        @Override
        public long getProcessCpuTime() {
            return cpuTime;
        }
    }
}
