package io.github.slingvt.http.internal.adaptive;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;

import org.junit.jupiter.api.Test;

class CarrierSaturationTest {

    @Test
    void moreThanTwoQueuedVirtualThreadsPerCarrierIsSaturation() throws Exception {
        MBeanServer server = MBeanServerFactory.newMBeanServer();
        Scheduler scheduler = new Scheduler();
        server.registerMBean(scheduler, CarrierSaturation.SCHEDULER);
        CarrierSaturation carriers = new CarrierSaturation(server);
        assertThat(carriers.signal()).isEqualTo("virtual thread scheduler queue");

        scheduler.parallelism = 4;
        scheduler.queued = 8;
        assertThat(carriers.saturatedNow()).isFalse();
        scheduler.queued = 9;
        assertThat(carriers.saturatedNow()).isTrue();
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

    @Test
    void thisJvmsSchedulerReadsBusyCarriersAsSaturated() throws Exception {
        CarrierSaturation carriers = new CarrierSaturation(ManagementFactory.getPlatformMBeanServer());
        if (Runtime.version().feature() < 24) {
            // JDK 21 has no scheduler bean; the CPU load, the machine's, is no thing for a unit test to drive.
            assertThat(carriers.signal()).isEqualTo("system CPU load");
            return;
        }
        assertThat(carriers.signal()).isEqualTo("virtual thread scheduler queue");
        assertThat(carriers.saturatedNow()).as("idle").isFalse();
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
            boolean seen = false;
            for (int i = 0; i < 100 && !seen; i++) {
                seen = carriers.saturatedNow();
                Thread.sleep(10);
            }
            assertThat(seen).as("saturated while " + spinners.size() + " virtual threads spin").isTrue();
        } finally {
            stop.set(true);
            for (Thread t : spinners) {
                t.join();
            }
        }
    }

    public interface SchedulerMBean {
        long getQueuedVirtualThreadCount();

        int getParallelism();
    }

    public static final class Scheduler implements SchedulerMBean {
        volatile long queued;
        volatile int parallelism;

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
