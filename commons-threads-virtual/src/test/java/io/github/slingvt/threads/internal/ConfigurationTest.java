package io.github.slingvt.threads.internal;

import static io.github.slingvt.threads.internal.Fixture.TIMEOUT_SECONDS;
import static io.github.slingvt.threads.internal.Fixture.await;
import static io.github.slingvt.threads.internal.Fixture.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Dictionary;
import java.util.Hashtable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.Phaser;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.sling.commons.threads.ModifiableThreadPoolConfig;
import org.apache.sling.commons.threads.ThreadPool;
import org.apache.sling.commons.threads.ThreadPoolConfig.ThreadPoolPolicy;
import org.apache.sling.commons.threads.ThreadPoolManager;
import io.github.slingvt.config.ConfigProblem;
import io.github.slingvt.threads.api.ThreadPoolMode;
import io.github.slingvt.threads.api.ThreadPoolSnapshot;
import io.github.slingvt.threads.api.ThreadPools;
import io.github.slingvt.threads.api.ThreadPoolsModeSwitch;
import org.osgi.service.cm.ConfigurationAdmin;
import org.apache.sling.testing.mock.osgi.junit5.OsgiContext;
import org.apache.sling.testing.mock.osgi.junit5.OsgiContextExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** Mode configuration, live kernel/virtual switching, pool definitions and the status printer. */
@ExtendWith(OsgiContextExtension.class)
@Timeout(value = 2 * TIMEOUT_SECONDS, unit = TimeUnit.SECONDS)
class ConfigurationTest {

    private final OsgiContext context = new OsgiContext();
    private Fixture fixture;

    @BeforeEach
    void setUp() {
        fixture = new Fixture(context);
    }

    private static boolean runsVirtual(ThreadPool pool) throws Exception {
        return pool.submit(() -> Thread.currentThread().isVirtual()).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void defaultModeAndPerNameOverridesDecideTheThreadKind() throws Exception {
        VirtualThreadPoolManager manager = fixture.manager("kernel", "oak=virtual", "Apache Sling Job Thread Pool=virtual");
        assertThat(context.getService(ThreadPoolManager.class)).isSameAs(manager);
        assertThat(runsVirtual(manager.get("oak"))).isTrue();
        assertThat(runsVirtual(manager.get("default"))).isFalse();
        assertThat(manager.get("default").submit(() -> Thread.currentThread().getName())
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).matches("sling-default-\\d+");
        // Anonymous pools match by label, as Sling Event creates them.
        ThreadPool jobs = manager.create(new ModifiableThreadPoolConfig(), "Apache Sling Job Thread Pool");
        assertThat(runsVirtual(jobs)).isTrue();
        assertThat(runsVirtual(manager.create(new ModifiableThreadPoolConfig(), "other"))).isFalse();
    }

    @Test
    void invalidSettingsAreRefusedAndThePreviousOnesStayInForce() throws Exception {
        VirtualThreadPoolManager manager = fixture.manager("virtual", "oak=kernel");
        ThreadPool pool = manager.get("default");
        PoolModeSettings before = manager.modeSettings();

        fixture.reconfigure(manager, "turbo");
        fixture.reconfigure(manager, "kernel", "oak");
        fixture.reconfigure(manager, "kernel", "oak=kernel", "oak=virtual");
        fixture.reconfigure(manager, "kernel", "=virtual");

        assertThat(manager.modeSettings()).isEqualTo(before);
        assertThat(runsVirtual(pool)).isTrue();
        assertThat(runsVirtual(manager.get("oak"))).isFalse();
    }

    @Test
    void refusalsNameThePropertyTheValueAndWhatIsAllowed() {
        fixture.manager("turbo");
        fixture.define("refused", "blockPolicy", "WAIT", "maxPoolSize", "lots");

        assertThat(fixture.guard().problems()).extracting(ConfigProblem::message).containsExactly(
                VirtualThreadPoolsConfig.PID + ": property 'defaultMode' = 'turbo' refused; allowed: one of virtual, kernel",
                ThreadPoolFactoryConfig.FACTORY_PID + "~refused: property 'maxPoolSize' = 'lots' refused; allowed: "
                        + "a whole number from -1 to 2147483647",
                ThreadPoolFactoryConfig.FACTORY_PID + "~refused: property 'blockPolicy' = 'WAIT' refused; allowed: "
                        + "one of ABORT, DISCARD, DISCARDOLDEST, RUN");
    }

    @Test
    void aRefusedPoolConfigurationKeepsThePoolsLastAcceptedSettings() {
        VirtualThreadPoolManager manager = fixture.manager("virtual");
        ThreadPoolDefinition definition = fixture.define("kept", "maxPoolSize", 3);
        ThreadPool pool = manager.get("kept");

        fixture.redefine(definition, "kept", "maxPoolSize", new String[] {"7", "8"});

        assertThat(pool.getConfiguration().getMaxPoolSize()).isEqualTo(3);
        assertThat(fixture.guard().problems()).singleElement()
                .satisfies(p -> assertThat(p.value()).isEqualTo("[7, 8]"));
        fixture.delete(definition);
        assertThat(fixture.guard().problems()).isEmpty();
    }

    @Test
    void invalidStartConfigurationFallsBackToDefaults() throws Exception {
        VirtualThreadPoolManager manager = fixture.manager("turbo");
        assertThat(manager.modeSettings()).isEqualTo(PoolModeSettings.DEFAULTS);
        assertThat(runsVirtual(manager.get("default"))).isTrue();
    }

    @Test
    void liveSwitchKeepsTheSamePoolObjectAndLosesNoTask() throws Exception {
        VirtualThreadPoolManager manager = fixture.manager("kernel");
        fixture.define("switchy", "maxPoolSize", 2, "queueSize", -1);
        ThreadPool pool = manager.get("switchy");

        // Two running kernel tasks plus queued ones, held while the mode switches.
        CountDownLatch bothRunning = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        List<Future<Boolean>> oldTasks = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            oldTasks.add(pool.submit(() -> {
                bothRunning.countDown();
                release.await();
                return Thread.currentThread().isVirtual();
            }));
        }
        await(bothRunning);

        fixture.reconfigure(manager, "virtual");
        assertThat(manager.get("switchy")).isSameAs(pool);
        assertThat(runsVirtual(pool)).as("new task while the kernel executor drains").isTrue();
        assertThat(status(manager, "switchy").mode()).isEqualTo(ThreadPoolMode.VIRTUAL);
        assertThat(status(manager, "switchy").draining()).isEqualTo(1);

        release.countDown();
        for (Future<Boolean> old : oldTasks) {
            assertThat(old.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("old tasks finish on kernel threads").isFalse();
        }
        Fixture.awaitCondition("kernel executor drained", () -> status(manager, "switchy").draining() == 0);
    }

    @Test
    void tasksSubmittedWhileTheModeFlipsRepeatedlyAllRun() throws Exception {
        VirtualThreadPoolManager manager = fixture.manager("virtual");
        fixture.define("flip", "maxPoolSize", 4, "queueSize", -1);
        ThreadPool pool = manager.get("flip");
        int batches = 20;
        int batchSize = 500;
        int submitters = 4;
        int total = batches * batchSize * submitters;
        AtomicInteger ran = new AtomicInteger();
        CountDownLatch allRan = new CountDownLatch(total);
        // Flips happen both at batch boundaries (while earlier batches still drain from the old executor) and at
        // arbitrary points in between, from a free-running flipper.
        Phaser batchBoundary = new Phaser(submitters + 1);
        AtomicBoolean submitting = new AtomicBoolean(true);
        AtomicInteger flips = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int s = 0; s < submitters; s++) {
            threads.add(Thread.ofPlatform().start(() -> {
                for (int b = 0; b < batches; b++) {
                    for (int i = 0; i < batchSize; i++) {
                        pool.execute(() -> {
                            ran.incrementAndGet();
                            allRan.countDown();
                        });
                    }
                    batchBoundary.arriveAndAwaitAdvance();
                }
            }));
        }
        Thread freeFlipper = Thread.ofPlatform().start(() -> {
            while (submitting.get()) {
                fixture.reconfigure(manager, flips.incrementAndGet() % 2 == 0 ? "kernel" : "virtual");
            }
        });
        for (int b = 0; b < batches; b++) {
            fixture.reconfigure(manager, flips.incrementAndGet() % 2 == 0 ? "kernel" : "virtual");
            batchBoundary.arriveAndAwaitAdvance();
        }
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
        }
        submitting.set(false);
        freeFlipper.join(TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
        await(allRan);
        assertThat(ran.get()).isEqualTo(total);
        assertThat(flips.get()).isGreaterThanOrEqualTo(batches);
        assertThat(status(manager, "flip").rejected()).isZero();
        Fixture.awaitCondition("all counted", () -> status(manager, "flip").completed() == total);
        Fixture.awaitCondition("old executors drained", () -> status(manager, "flip").draining() == 0);
    }

    @Test
    void poolDefinitionsApplyLiveAndFallBackToSlingDefaultsWhenDeleted() throws Exception {
        VirtualThreadPoolManager manager = fixture.manager("virtual");
        ThreadPool pool = manager.get("sized");
        assertThat(pool.getConfiguration().getMaxPoolSize()).isEqualTo(5);

        ThreadPoolDefinition definition = fixture.define("sized", "maxPoolSize", 3);
        assertThat(pool.getConfiguration().getMaxPoolSize()).isEqualTo(3);
        fixture.redefine(definition, "sized", "maxPoolSize", 6, "blockPolicy", "nonsense");
        assertThat(pool.getConfiguration().getMaxPoolSize()).as("invalid update refused").isEqualTo(3);
        fixture.redefine(definition, "sized", "maxPoolSize", 6);
        assertThat(pool.getConfiguration().getMaxPoolSize()).isEqualTo(6);
        fixture.delete(definition);
        assertThat(pool.getConfiguration().getMaxPoolSize()).isEqualTo(5);
        assertThat(manager.get("sized")).isSameAs(pool);
        assertThat(runsVirtual(pool)).isTrue();
    }

    @Test
    void threadPoolsServiceShowsPoolsInUseAndConfiguredPools() throws Exception {
        VirtualThreadPoolManager manager = fixture.manager("virtual", "k=kernel");
        ThreadPool pool = manager.get("p");
        pool.submit(() -> { }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        manager.get("k");
        fixture.define("k", "maxPoolSize", 3);
        Fixture.awaitCondition("task counted", () -> status(manager, "p").completed() == 1);

        ThreadPools pools = context.getService(ThreadPools.class);
        assertThat(pools).as("registered under the API interface").isNotNull();
        assertThat(pools.settings()).isEqualTo("defaultMode=virtual, poolModes=[k=kernel]");
        assertThat(pools.pools()).containsExactly(
                new ThreadPoolSnapshot("k", ThreadPoolMode.KERNEL, 0, 0, 0, 0, 3, 0),
                new ThreadPoolSnapshot("p", ThreadPoolMode.VIRTUAL, 0, 0, 1, 0, 5, 0));
        assertThat(pools.configuredPools()).singleElement().satisfies(c -> {
            assertThat(c.name()).isEqualTo("k");
            assertThat(c.maxPoolSize()).isEqualTo(3);
            assertThat(c.blockPolicy()).isEqualTo("RUN");
        });
    }

    @Test
    void modeSwitchStoresDefaultModeInThisBundlesConfigurationAndKeepsPoolModes() throws Exception {
        ConfigurationAdmin admin = context.getService(ConfigurationAdmin.class);
        Hashtable<String, Object> existing = new Hashtable<>();
        existing.put("poolModes", new String[] {"oak=virtual"});
        admin.getConfiguration(VirtualThreadPoolsConfig.PID, null).update(existing);
        ThreadPoolsModeSwitch modeSwitch = context.registerInjectActivateService(PoolsModeSwitcher.class);

        modeSwitch.switchDefaultMode(ThreadPoolMode.KERNEL);

        Dictionary<String, Object> stored = admin.getConfiguration(VirtualThreadPoolsConfig.PID, null).getProperties();
        assertThat(stored.get("defaultMode")).isEqualTo("kernel");
        assertThat((String[]) stored.get("poolModes")).containsExactly("oak=virtual");
    }

    @Test
    void deactivationShutsDownEveryPool() {
        VirtualThreadPoolManager manager = fixture.manager("virtual");
        ManagedThreadPool pool = (ManagedThreadPool) manager.get("a");
        fixture.deactivate(manager);
        assertThat(pool.isShutdown()).isTrue();
    }
}
