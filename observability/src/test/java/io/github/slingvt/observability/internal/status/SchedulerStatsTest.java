package io.github.slingvt.observability.internal.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import javax.management.StandardMBean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SchedulerStatsTest {

    /** As the JDK computes it: the system property, else one carrier per available processor. */
    private static final int EXPECTED_PARALLELISM = Integer.getInteger("jdk.virtualThreadScheduler.parallelism",
            Runtime.getRuntime().availableProcessors());

    private static final boolean JDK_24_OR_NEWER = Runtime.version().feature() >= 24;

    @Test
    void platformServerHasTheSchedulerBeanExactlyFromJdk24() {
        SchedulerStats.Figures figures = SchedulerStats.platform().read();
        assertThat(figures.available()).as("%s on JDK %s", figures, Runtime.version()).isEqualTo(JDK_24_OR_NEWER);
        if (!JDK_24_OR_NEWER) {
            assertThat(figures.unavailableReason()).isEqualTo(SchedulerStats.NOT_AVAILABLE);
        }
    }

    @Test
    void readsTheRealSchedulerOfThisJdk() {
        assumeTrue(JDK_24_OR_NEWER, "the scheduler MXBean exists from JDK 24");
        SchedulerStats.Figures figures = SchedulerStats.platform().read();

        assertThat(figures.available()).as("%s", figures).isTrue();
        assertThat(figures.parallelism()).isGreaterThanOrEqualTo(1).isEqualTo(EXPECTED_PARALLELISM);
        assertThat(StatusJson.scheduler(figures).toString()).startsWith("{\"available\":true,\"parallelism\":" + EXPECTED_PARALLELISM
                + ",\"poolSize\":").contains(",\"mountedVirtualThreadCount\":", ",\"queuedVirtualThreadCount\":");
        assertThat(figures.toText()).startsWith("Virtual thread scheduler: parallelism " + EXPECTED_PARALLELISM
                + ", pool size ");
    }

    /** Read from a virtual thread, the figures count that thread: it is mounted, so a carrier exists. */
    @Test
    void aVirtualThreadReadingTheFiguresSeesItselfMounted() throws Exception {
        assumeTrue(JDK_24_OR_NEWER, "the scheduler MXBean exists from JDK 24");
        SchedulerStats.Figures[] seen = new SchedulerStats.Figures[1];
        Thread.ofVirtual().start(() -> seen[0] = SchedulerStats.platform().read()).join();

        assertThat(seen[0].mountedVirtualThreadCount()).as("%s", seen[0]).isGreaterThanOrEqualTo(1);
        assertThat(seen[0].poolSize()).as("%s", seen[0]).isGreaterThanOrEqualTo(1);
    }

    /** Each figure comes from its own attribute: distinct values on a stand-in bean come back where they belong. */
    @Test
    void eachFigureIsReadFromItsOwnAttribute() throws Exception {
        var server = MBeanServerFactory.newMBeanServer();
        server.registerMBean(new StandardMBean(new Scheduler(), SchedulerMBean.class),
                new ObjectName(SchedulerStats.OBJECT_NAME));

        SchedulerStats.Figures figures = new SchedulerStats(server).read();

        assertThat(figures.available()).isTrue();
        assertThat(figures.parallelism()).isEqualTo(4);
        assertThat(figures.poolSize()).isEqualTo(5);
        assertThat(figures.mountedVirtualThreadCount()).isEqualTo(3);
        assertThat(figures.queuedVirtualThreadCount()).isEqualTo(17);
        assertThat(StatusJson.scheduler(figures).toString()).isEqualTo("{\"available\":true,\"parallelism\":4,"
                + "\"poolSize\":5,\"mountedVirtualThreadCount\":3,\"queuedVirtualThreadCount\":17}");
    }

    /**
     * Every carrier busy with a spinning virtual thread (spinning never unmounts), then three more virtual threads
     * started: those three must wait for a carrier, so the figures show them queued and all carriers in use.
     */
    @Test
    void showsMountedAndQueuedVirtualThreadsWhenEveryCarrierIsBusy() throws Exception {
        assumeTrue(JDK_24_OR_NEWER, "the scheduler MXBean exists from JDK 24");
        int carriers = EXPECTED_PARALLELISM;
        CountDownLatch spinning = new CountDownLatch(carriers);
        CountDownLatch waitersRan = new CountDownLatch(3);
        long spinUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        List<Thread> threads = new ArrayList<>();
        Stop stop = new Stop();
        try {
            for (int i = 0; i < carriers; i++) {
                threads.add(Thread.ofVirtual().start(() -> {
                    spinning.countDown();
                    while (!stop.now && System.nanoTime() < spinUntil) {
                        Thread.onSpinWait();
                    }
                }));
            }
            assertThat(spinning.await(20, TimeUnit.SECONDS)).as("all carriers spinning").isTrue();
            for (int i = 0; i < 3; i++) {
                threads.add(Thread.ofVirtual().start(waitersRan::countDown));
            }
            SchedulerStats.Figures figures = SchedulerStats.platform().read();
            assertThat(figures.available()).isTrue();
            assertThat(figures.mountedVirtualThreadCount()).as("%s", figures).isGreaterThanOrEqualTo(carriers);
            assertThat(figures.poolSize()).as("%s", figures).isGreaterThanOrEqualTo(carriers);
            assertThat(figures.queuedVirtualThreadCount()).as("%s", figures).isGreaterThanOrEqualTo(3);
            assertThat(waitersRan.getCount()).as("the waiters had no carrier").isEqualTo(3);
        } finally {
            stop.now = true;
            for (Thread t : threads) {
                t.join();
            }
        }
        assertThat(waitersRan.getCount()).isZero();
    }

    @Test
    void saysNeedsJdk24WhenTheBeanIsMissing() {
        // A fresh MBeanServer has no platform beans, as the platform server of JDK 21-23 has no scheduler bean.
        SchedulerStats.Figures figures = new SchedulerStats(MBeanServerFactory.newMBeanServer()).read();

        assertThat(figures.available()).isFalse();
        assertThat(figures.unavailableReason()).isEqualTo("not available (needs JDK 24+)");
        assertThat(StatusJson.scheduler(figures).toString()).isEqualTo("{\"available\":false,\"reason\":\"not available (needs JDK 24+)\"}");
        assertThat(figures.toText()).isEqualTo("Virtual thread scheduler: not available (needs JDK 24+)");
    }

    @Test
    void namesTheProblemWhenTheBeanLacksAnAttribute() throws Exception {
        var server = MBeanServerFactory.newMBeanServer();
        server.registerMBean(new StandardMBean(new Other(), OtherMBean.class),
                new ObjectName(SchedulerStats.OBJECT_NAME));

        SchedulerStats.Figures figures = new SchedulerStats(server).read();

        assertThat(figures.available()).isFalse();
        assertThat(figures.unavailableReason()).startsWith("not available (" + SchedulerStats.OBJECT_NAME)
                .contains("Parallelism");
    }

    /** The attributes of the JDK's {@code jdk.management:type=VirtualThreadScheduler}, with distinct values. */
    public interface SchedulerMBean {
        int getParallelism();

        int getPoolSize();

        int getMountedVirtualThreadCount();

        long getQueuedVirtualThreadCount();
    }

    public static final class Scheduler implements SchedulerMBean {
        @Override
        public int getParallelism() {
            return 4;
        }

        @Override
        public int getPoolSize() {
            return 5;
        }

        @Override
        public int getMountedVirtualThreadCount() {
            return 3;
        }

        @Override
        public long getQueuedVirtualThreadCount() {
            return 17;
        }
    }

    public interface OtherMBean {
        int getSomethingElse();
    }

    public static final class Other implements OtherMBean {
        @Override
        public int getSomethingElse() {
            return 1;
        }
    }

    private static final class Stop {
        volatile boolean now;
    }
}
