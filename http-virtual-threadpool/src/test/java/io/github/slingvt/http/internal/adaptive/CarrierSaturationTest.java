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
    void moreQueuedVirtualThreadsThanCarriersIsSaturation() throws Exception {
        MBeanServer server = MBeanServerFactory.newMBeanServer();
        Scheduler scheduler = new Scheduler();
        server.registerMBean(scheduler, CarrierSaturation.SCHEDULER);
        CarrierSaturation carriers = new CarrierSaturation(server);
        assertThat(carriers.signal()).isEqualTo("virtual thread scheduler queue");

        scheduler.parallelism = 4;
        scheduler.mounted = 4;
        scheduler.queued = 4;
        assertThat(carriers.saturatedNow()).isFalse();
        assertThat(carriers.read()).isEqualTo(CarrierReading.ofCounts(4, 4, 4));
        assertThat(carriers.read().headroom()).as("a carrier's worth queued is no headroom").isFalse();
        scheduler.queued = 5;
        assertThat(carriers.saturatedNow()).isTrue();
        assertThat(carriers.read()).isEqualTo(CarrierReading.ofCounts(4, 4, 5));
        scheduler.queued = 2;
        assertThat(carriers.read().headroom()).isTrue();
    }

    @Test
    void withTheCpuLoadKnownAQueueIsSaturationOnlyWhileTheCpuIsBusy() throws Exception {
        MBeanServer server = MBeanServerFactory.newMBeanServer();
        Scheduler scheduler = new Scheduler();
        OperatingSystem os = new OperatingSystem();
        server.registerMBean(scheduler, CarrierSaturation.SCHEDULER);
        server.registerMBean(os, CarrierSaturation.OPERATING_SYSTEM);
        CarrierSaturation carriers = new CarrierSaturation(server);
        scheduler.parallelism = 2;
        scheduler.mounted = 2;
        scheduler.queued = 40;

        os.cpuLoad = 0.80;
        assertThat(carriers.read()).isEqualTo(CarrierReading.ofCounts(2, 2, 40, 0.80));
        assertThat(carriers.saturatedNow()).as("a burst that queues while the CPU has room").isFalse();
        assertThat(carriers.read().headroom()).as("the CPU below 85 %").isTrue();
        os.cpuLoad = 0.97;
        assertThat(carriers.saturatedNow()).isTrue();
        assertThat(carriers.read().headroom()).isFalse();
        scheduler.queued = 1;
        assertThat(carriers.read().headroom()).as("half a carrier's worth queued").isTrue();
    }

    @Test
    void withoutTheSchedulerBeanTheCpuLoadStandsIn() throws Exception {
        MBeanServer server = MBeanServerFactory.newMBeanServer();
        OperatingSystem os = new OperatingSystem();
        server.registerMBean(os, CarrierSaturation.OPERATING_SYSTEM);
        CarrierSaturation carriers = new CarrierSaturation(server);
        assertThat(carriers.signal()).isEqualTo("system CPU load");

        os.cpuLoad = 0.94;
        assertThat(carriers.saturatedNow()).isFalse();
        os.cpuLoad = 0.95;
        assertThat(carriers.saturatedNow()).isTrue();
        os.cpuLoad = -1; // "not available"
        assertThat(carriers.saturatedNow()).isFalse();
    }

    @Test
    void aSignalThatCannotBeReadNeverLowersTheLimit() {
        CarrierSaturation carriers = new CarrierSaturation(MBeanServerFactory.newMBeanServer());
        assertThat(carriers.saturatedNow()).isFalse();
        assertThat(carriers.saturatedNow()).isFalse();
    }

    /**
     * On this JVM's platform server: the scheduler's queue on JDK 24+, the machine's CPU load on JDK 21-23. Either way
     * every carrier spinning must read as saturated; on JDK 24+ an idle scheduler must not.
     */
    @Test
    void thisJvmsSignalReadsBusyCarriersAsSaturated() throws Exception {
        CarrierSaturation carriers = new CarrierSaturation(ManagementFactory.getPlatformMBeanServer());
        boolean jdk24 = Runtime.version().feature() >= 24;
        assertThat(carriers.signal()).isEqualTo(jdk24 ? "virtual thread scheduler queue" : "system CPU load");
        if (jdk24) {
            assertThat(carriers.saturatedNow()).as("idle").isFalse();
        }
        assertThat(saturatedWhileEveryCarrierSpins(carriers)).isTrue();
    }

    /**
     * The JDK 21-23 stand-in on every JDK: a server holding only the real operating system bean, as JDK 21's platform
     * server has no scheduler bean. Virtual threads spinning on every carrier load every core of the machine.
     */
    @Test
    void theJdk21StandInReadsThisMachinesBusyCarriersAsSaturated() throws Exception {
        MBeanServer server = MBeanServerFactory.newMBeanServer();
        server.registerMBean(new StandardMBean(
                ManagementFactory.getPlatformMXBean(com.sun.management.OperatingSystemMXBean.class),
                com.sun.management.OperatingSystemMXBean.class, true), CarrierSaturation.OPERATING_SYSTEM);
        CarrierSaturation carriers = new CarrierSaturation(server);
        assertThat(carriers.signal()).isEqualTo("system CPU load");

        assertThat(saturatedWhileEveryCarrierSpins(carriers)).isTrue();
    }

    /** Ten spinning virtual threads per core for at most 10 s; true as soon as the signal reads saturated. */
    private static boolean saturatedWhileEveryCarrierSpins(CarrierSaturation carriers) throws InterruptedException {
        int parallelism = Runtime.getRuntime().availableProcessors();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> spinners = new ArrayList<>();
        for (int i = 0; i < parallelism * 10; i++) {
            spinners.add(Thread.ofVirtual().start(() -> {
                while (!stop.get()) {
                    Thread.onSpinWait();
                }
            }));
        }
        try {
            // The CPU load is measured between two reads: the first read only starts the interval.
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (System.nanoTime() < deadline) {
                if (carriers.saturatedNow()) {
                    return true;
                }
                Thread.sleep(100);
            }
            return false;
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
        double getCpuLoad();
    }

    public static final class OperatingSystem implements OperatingSystemMBean {
        volatile double cpuLoad;

        @Override
        public double getCpuLoad() {
            return cpuLoad;
        }
    }
}
