package io.github.slingvt.threads.internal;

import static io.github.slingvt.threads.internal.Fixture.TIMEOUT_SECONDS;
import static io.github.slingvt.threads.internal.Fixture.await;
import static io.github.slingvt.threads.internal.Fixture.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.sling.commons.threads.ThreadPool;
import org.apache.sling.testing.mock.osgi.junit5.OsgiContext;
import org.apache.sling.testing.mock.osgi.junit5.OsgiContextExtension;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each block policy with one slot and a queue of one: task A runs (held), B waits, C overflows. Run in both modes,
 * since a pool switched to kernel must keep the behaviour its consumers rely on.
 */
@ExtendWith(OsgiContextExtension.class)
@Timeout(value = 2 * TIMEOUT_SECONDS, unit = TimeUnit.SECONDS)
class BlockPolicyTest {

    private final OsgiContext context = new OsgiContext();

    private final Map<String, Thread> ranOn = new ConcurrentHashMap<>();
    private final CountDownLatch aStarted = new CountDownLatch(1);
    private final CountDownLatch releaseA = new CountDownLatch(1);
    private VirtualThreadPoolManager manager;

    private ThreadPool pool(String mode, String policy, int queueSize) {
        Fixture fixture = new Fixture(context);
        VirtualThreadPoolManager manager = fixture.manager(mode);
        fixture.define("policy", "maxPoolSize", 1, "minPoolSize", 1, "queueSize", queueSize, "blockPolicy", policy);
        this.manager = manager;
        return manager.get("policy");
    }

    private Future<?> submitA(ThreadPool pool) throws InterruptedException {
        Future<?> a = pool.submit(() -> {
            ranOn.put("A", Thread.currentThread());
            aStarted.countDown();
            try {
                releaseA.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        await(aStarted);
        return a;
    }

    private Future<?> submit(ThreadPool pool, String name) {
        return pool.submit(() -> {
            ranOn.put(name, Thread.currentThread());
        });
    }

    private static void awaitDone(Future<?>... futures) throws Exception {
        for (Future<?> f : futures) {
            f.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"virtual", "kernel"})
    void abortThrowsAndCountsTheRejection(String mode) throws Exception {
        ThreadPool pool = pool(mode, "ABORT", 1);
        Future<?> a = submitA(pool);
        Future<?> b = submit(pool, "B");
        assertThatThrownBy(() -> submit(pool, "C")).isInstanceOf(RejectedExecutionException.class);
        releaseA.countDown();
        awaitDone(a, b);
        assertThat(ranOn).containsOnlyKeys("A", "B");
        assertThat(ranOn.get("A").isVirtual()).isEqualTo(mode.equals("virtual"));
        assertThat(status(manager, "policy").rejected()).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"virtual", "kernel"})
    void discardDropsTheNewTaskAndCancelsItsFuture(String mode) throws Exception {
        ThreadPool pool = pool(mode, "DISCARD", 1);
        Future<?> a = submitA(pool);
        Future<?> b = submit(pool, "B");
        Future<?> c = submit(pool, "C");
        assertThat(c.isCancelled()).isTrue();
        releaseA.countDown();
        awaitDone(a, b);
        assertThat(ranOn).containsOnlyKeys("A", "B");
        assertThat(status(manager, "policy").rejected()).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"virtual", "kernel"})
    void discardOldestDropsTheOldestQueuedTaskAndQueuesTheNewOne(String mode) throws Exception {
        ThreadPool pool = pool(mode, "DISCARDOLDEST", 1);
        Future<?> a = submitA(pool);
        Future<?> b = submit(pool, "B");
        Future<?> c = submit(pool, "C");
        assertThat(b.isCancelled()).isTrue();
        releaseA.countDown();
        awaitDone(a, c);
        assertThat(ranOn).containsOnlyKeys("A", "C");
        assertThat(status(manager, "policy").rejected()).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"virtual", "kernel"})
    void discardOldestWithoutQueueDropsTheNewTask(String mode) throws Exception {
        ThreadPool pool = pool(mode, "DISCARDOLDEST", 0);
        Future<?> a = submitA(pool);
        Future<?> c = submit(pool, "C");
        assertThat(c.isCancelled()).isTrue();
        releaseA.countDown();
        awaitDone(a);
        assertThat(ranOn).containsOnlyKeys("A");
    }

    @ParameterizedTest
    @ValueSource(strings = {"virtual", "kernel"})
    void runExecutesTheOverflowOnTheSubmittingThread(String mode) throws Exception {
        ThreadPool pool = pool(mode, "RUN", 1);
        Future<?> a = submitA(pool);
        Future<?> b = submit(pool, "B");
        Future<?> c = submit(pool, "C");
        // C ran inside submit(), before A was released.
        assertThat(c.isDone()).isTrue();
        assertThat(ranOn.get("C")).isSameAs(Thread.currentThread());
        releaseA.countDown();
        awaitDone(a, b);
        assertThat(ranOn.get("B").isVirtual()).isEqualTo(mode.equals("virtual"));
        assertThat(status(manager, "policy").rejected()).isZero();
        Fixture.awaitCondition("A, B and C counted", () -> status(manager, "policy").completed() == 3);
    }
}
