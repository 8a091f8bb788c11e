package io.github.slingvt.threads.internal;

import io.github.slingvt.threads.api.ThreadPoolSnapshot;
import static io.github.slingvt.threads.internal.Fixture.TIMEOUT_SECONDS;
import static io.github.slingvt.threads.internal.Fixture.await;
import static io.github.slingvt.threads.internal.Fixture.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.sling.commons.threads.ModifiableThreadPoolConfig;
import org.apache.sling.commons.threads.ThreadPool;
import org.apache.sling.commons.threads.ThreadPoolConfig.ThreadPoolPolicy;
import org.apache.sling.commons.threads.ThreadPoolConfig.ThreadPriority;
import org.apache.sling.testing.mock.osgi.junit5.OsgiContext;
import org.apache.sling.testing.mock.osgi.junit5.OsgiContextExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** Virtual pool semantics, through the components as DS wires them (osgi-mock). */
@ExtendWith(OsgiContextExtension.class)
@Timeout(value = 2 * TIMEOUT_SECONDS, unit = TimeUnit.SECONDS)
class PoolSemanticsTest {

    private final OsgiContext context = new OsgiContext();
    private Fixture fixture;
    private VirtualThreadPoolManager manager;

    @BeforeEach
    void setUp() {
        fixture = new Fixture(context);
        manager = fixture.manager("virtual");
    }

    @Test
    void capOf50IsNeverExceededWith10000TasksAndEveryTaskGetsItsOwnVirtualThread() throws Exception {
        fixture.define("capped", "maxPoolSize", 50, "queueSize", -1);
        ThreadPool pool = manager.get("capped");
        int tasks = 10_000;
        AtomicInteger current = new AtomicInteger();
        AtomicInteger max = new AtomicInteger();
        AtomicBoolean allVirtual = new AtomicBoolean(true);
        Set<Long> threadIds = ConcurrentHashMap.newKeySet();
        Set<String> badNames = ConcurrentHashMap.newKeySet();
        CountDownLatch firstWave = new CountDownLatch(50);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(tasks);
        for (int i = 0; i < tasks; i++) {
            pool.execute(() -> {
                max.accumulateAndGet(current.incrementAndGet(), Math::max);
                Thread self = Thread.currentThread();
                allVirtual.compareAndSet(true, self.isVirtual());
                threadIds.add(self.threadId());
                if (!self.getName().matches("sling-capped-vt-\\d+")) {
                    badNames.add(self.getName());
                }
                firstWave.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                current.decrementAndGet();
                done.countDown();
            });
        }
        await(firstWave);
        ThreadPoolSnapshot blocked = status(manager, "capped");
        assertThat(blocked.running()).isEqualTo(50);
        assertThat(blocked.queued()).isEqualTo(tasks - 50);
        assertThat(current.get()).isEqualTo(50);

        release.countDown();
        await(done);
        assertThat(max.get()).isEqualTo(50);
        assertThat(allVirtual.get()).isTrue();
        assertThat(threadIds).hasSize(tasks);
        assertThat(badNames).isEmpty();
        Fixture.awaitCondition("all tasks counted", () -> status(manager, "capped").completed() == tasks);
        assertThat(status(manager, "capped").rejected()).isZero();
    }

    @Test
    void getConfigurationReportsMaxPoolSizeAsConfiguredForQuartz() {
        fixture.define("quartz", "maxPoolSize", 7, "minPoolSize", 2, "queueSize", 100);
        fixture.define("unlimited", "maxPoolSize", -1);
        assertThat(manager.get("quartz").getConfiguration().getMaxPoolSize()).isEqualTo(7);
        assertThat(manager.get("quartz").getConfiguration().getMinPoolSize()).isEqualTo(2);
        assertThat(manager.get("quartz").getConfiguration().getQueueSize()).isEqualTo(100);
        assertThat(manager.get("unlimited").getConfiguration().getMaxPoolSize()).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void submitFuturesCompleteAndPropagateExceptions() throws Exception {
        ThreadPool pool = manager.get("futures");
        Future<Boolean> onVirtual = pool.submit(() -> Thread.currentThread().isVirtual());
        assertThat(onVirtual.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();

        Future<Object> failing = pool.submit(() -> {
            throw new IllegalStateException("boom");
        });
        assertThatThrownBy(() -> failing.get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(IllegalStateException.class)
                .hasRootCauseMessage("boom");

        AtomicBoolean ran = new AtomicBoolean();
        Future<?> runnable = pool.submit(() -> ran.set(true));
        assertThat(runnable.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isNull();
        assertThat(ran).isTrue();

        // A plain execute() whose task throws must not break the pool.
        CountDownLatch after = new CountDownLatch(1);
        pool.execute(() -> {
            throw new IllegalStateException("expected in test: uncaught task failure");
        });
        pool.execute(after::countDown);
        await(after);
    }

    @Test
    void daemonFalseAndPriorityOnAVirtualPoolDoNotThrow() throws Exception {
        fixture.define("non-daemon", "daemon", false, "priority", "MAX");
        ThreadPool configured = manager.get("non-daemon");
        assertThat(configured.submit(() -> Thread.currentThread().isVirtual()).get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                .isTrue();
        assertThat(configured.getConfiguration().isDaemon()).isFalse();
        assertThat(configured.getConfiguration().getPriority()).isEqualTo(ThreadPriority.MAX);

        // The same through create(), the way Sling Event builds its job pools.
        ModifiableThreadPoolConfig config = new ModifiableThreadPoolConfig();
        config.setDaemon(false);
        config.setPriority(ThreadPriority.MIN);
        ThreadPool created = manager.create(config, "test label");
        assertThat(created.submit(() -> Thread.currentThread().isVirtual()).get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                .isTrue();
        assertThat(created.getConfiguration().isDaemon()).isFalse();
        assertThat(created.getName()).startsWith("ThreadPool-").endsWith(" (test label)");
    }

    @Test
    void tasksGetTheContextClassLoaderOfTheSubmitterButNoInheritableThreadLocals() throws Exception {
        fixture.define("context", "maxPoolSize", 1);
        ThreadPool pool = manager.get("context");
        InheritableThreadLocal<String> inheritable = new InheritableThreadLocal<>();
        ClassLoader original = Thread.currentThread().getContextClassLoader();
        ClassLoader submitters = new ClassLoader(original) { };
        CountDownLatch release = new CountDownLatch(1);
        try {
            Thread.currentThread().setContextClassLoader(submitters);
            inheritable.set("leaks");
            Future<ClassLoader> first = pool.submit(() -> {
                inheritable.set("from first task");
                release.await();
                return Thread.currentThread().getContextClassLoader();
            });
            // Queued, so its thread is created by the first task's thread.
            Future<String> second = pool.submit(() -> inheritable.get());
            release.countDown();
            assertThat(first.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isSameAs(submitters);
            assertThat(second.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isNull();
        } finally {
            Thread.currentThread().setContextClassLoader(original);
            inheritable.remove();
        }
    }

    @Test
    void gracefulShutdownWaitsForRunningAndQueuedTasks() throws Exception {
        fixture.define("graceful", "maxPoolSize", 1, "shutdownGraceful", true, "shutdownWaitTime", 60_000);
        ThreadPool pool = manager.get("graceful");
        List<String> events = new CopyOnWriteArrayList<>();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        pool.execute(() -> {
            started.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                interrupted.set(true);
                Thread.currentThread().interrupt();
            }
            events.add("running task done");
        });
        pool.execute(() -> events.add("queued task done"));
        await(started);

        Thread shutdown = Thread.ofPlatform().start(() -> {
            manager.release(pool);
            events.add("shutdown returned");
        });
        Fixture.awaitCondition("pool closed", () -> ((ManagedThreadPool) pool).isShutdown());
        assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(RejectedExecutionException.class);
        assertThat(events).isEmpty();

        release.countDown();
        shutdown.join(TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
        assertThat(events).containsExactly("running task done", "queued task done", "shutdown returned");
        assertThat(interrupted).isFalse();
    }

    @Test
    void nonGracefulShutdownInterruptsRunningTasksAndDropsQueuedOnes() throws Exception {
        fixture.define("abrupt", "maxPoolSize", 1, "shutdownGraceful", false);
        ThreadPool pool = manager.get("abrupt");
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        pool.execute(() -> {
            started.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                interrupted.countDown();
                Thread.currentThread().interrupt();
            }
        });
        AtomicBoolean queuedRan = new AtomicBoolean();
        Future<?> queued = pool.submit(() -> queuedRan.set(true));
        await(started);

        manager.release(pool);
        await(interrupted);
        assertThat(queued.isCancelled()).isTrue();
        assertThat(queuedRan).isFalse();
    }

    @Test
    void gracefulShutdownInterruptsWhatOutlivesTheWaitTime() throws Exception {
        fixture.define("stubborn", "maxPoolSize", 1, "shutdownGraceful", true, "shutdownWaitTime", 100);
        ThreadPool pool = manager.get("stubborn");
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        pool.execute(() -> {
            started.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                interrupted.countDown();
                Thread.currentThread().interrupt();
            }
        });
        await(started);
        manager.release(pool);
        await(interrupted);
    }

    @Test
    void namedPoolsAreSharedAndShutDownWithTheLastRelease() throws Exception {
        ThreadPool first = manager.get(null);
        ThreadPool second = manager.get("default");
        assertThat(second).isSameAs(first);
        assertThat(first.getName()).isEqualTo("default");
        assertThat(first.getConfiguration().getMaxPoolSize()).isEqualTo(5);
        assertThat(first.getConfiguration().getBlockPolicy()).isEqualTo(ThreadPoolPolicy.RUN);

        manager.release(first);
        assertThat(second.submit(() -> "still open").get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo("still open");
        manager.release(second);
        assertThatThrownBy(() -> second.execute(() -> { })).isInstanceOf(RejectedExecutionException.class);
        assertThat(manager.get("default")).isNotSameAs(first);
    }
}
