package io.github.slingvt.threads.internal;

import io.github.slingvt.threads.api.ThreadPoolMode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

import org.apache.sling.commons.threads.ThreadPoolConfig;
import org.apache.sling.commons.threads.ThreadPoolConfig.ThreadPoolPolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs every task on a new virtual thread; nothing is pooled. A permit (maxPoolSize of them) is taken before a thread
 * is created, so tasks running on pool threads never exceed maxPoolSize. Without a permit a task waits in a FIFO
 * queue bounded like Sling's (queueSize below 0 = unbounded, 0 = no waiting); when that is full the block policy
 * decides. A finishing thread passes its permit straight to the oldest waiting task, which starts on a fresh thread.
 */
final class VirtualExecutor implements PoolExecutor {

    private static final Logger LOG = LoggerFactory.getLogger(VirtualExecutor.class);

    private enum Admission { START, QUEUED, DISCARDED, RUN_ON_CALLER }

    /** A task with the context class loader of the thread that submitted it, which its thread will get. */
    private record Pending(Runnable task, ClassLoader loader) { }

    private final String poolName;
    private final ThreadPoolConfig config;
    private final PoolCounters counters;
    private final Consumer<PoolExecutor> onTerminated;
    private final ThreadFactory threadFactory;
    private final int permits;
    private final int queueCapacity;
    private final ThreadPoolPolicy policy;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition terminatedCondition = lock.newCondition();
    private final ArrayDeque<Pending> queue = new ArrayDeque<>();
    private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
    private final AtomicInteger running = new AtomicInteger();
    private int permitsInUse;
    private boolean retired;
    private boolean terminated;
    private volatile boolean stopping;

    VirtualExecutor(String poolName, ThreadPoolConfig effective, PoolCounters counters,
            Consumer<PoolExecutor> onTerminated) {
        this.poolName = poolName;
        this.config = effective;
        this.counters = counters;
        this.onTerminated = onTerminated;
        this.permits = effective.getMaxPoolSize();
        this.queueCapacity = effective.getQueueSize() < 0 ? Integer.MAX_VALUE : effective.getQueueSize();
        this.policy = effective.getBlockPolicy();
        // Daemon and priority are deliberately not applied: setDaemon(false) throws on a virtual thread and
        // priorities are ignored by the virtual thread scheduler. Inheritable thread locals are not copied: a queued
        // task's thread is created by the previous task's thread, whose values would leak into it. The context class
        // loader is set explicitly instead (see Pending).
        this.threadFactory = Thread.ofVirtual()
                .name(ThreadNames.virtualPrefix(poolName), 1)
                .inheritInheritableThreadLocals(false)
                .factory();
    }

    @Override
    public ThreadPoolMode mode() {
        return ThreadPoolMode.VIRTUAL;
    }

    @Override
    public ThreadPoolConfig configuration() {
        return config;
    }

    @Override
    public void execute(Runnable task) {
        Pending pending = new Pending(task, Thread.currentThread().getContextClassLoader());
        Pending discarded = null;
        Admission admission;
        lock.lock();
        try {
            if (retired) {
                throw new ExecutorRetiredException(poolName);
            }
            if (permitsInUse < permits) {
                permitsInUse++;
                admission = Admission.START;
            } else if (queue.size() < queueCapacity) {
                queue.addLast(pending);
                admission = Admission.QUEUED;
            } else {
                switch (policy) {
                    case ABORT -> {
                        counters.rejected();
                        throw new RejectedExecutionException("Thread pool " + poolName + " rejected a task: all "
                                + permits + " slots are busy and the queue (" + config.getQueueSize() + ") is full");
                    }
                    case DISCARD -> discarded = pending;
                    case DISCARDOLDEST -> {
                        discarded = queue.pollFirst();
                        if (discarded == null) {
                            // Without a queue there is nothing older to drop: the new task is the one to go.
                            discarded = pending;
                        } else {
                            queue.addLast(pending);
                        }
                    }
                }
                admission = discarded == null ? Admission.RUN_ON_CALLER : Admission.DISCARDED;
            }
        } finally {
            lock.unlock();
        }
        switch (admission) {
            case START -> startWithPermit(pending);
            case DISCARDED -> {
                counters.rejected();
                PoolExecutor.cancel(discarded.task());
            }
            case RUN_ON_CALLER -> {
                try {
                    task.run();
                } finally {
                    counters.completed();
                }
            }
        }
    }

    private void startWithPermit(Pending pending) {
        Throwable failure = tryStart(pending);
        if (failure != null) {
            handOff();
            counters.rejected();
            throw new RejectedExecutionException("Thread pool " + poolName + " cannot start a virtual thread", failure);
        }
    }

    /** @return null if the thread started (it now owns the permit), else why not (the caller still owns it) */
    private Throwable tryStart(Pending pending) {
        Thread thread = null;
        try {
            thread = threadFactory.newThread(() -> runThenHandOff(pending.task()));
            thread.setContextClassLoader(pending.loader());
            // Registered before start so that stopNow() cannot miss a thread that is just starting.
            threads.add(thread);
            thread.start();
            return null;
        } catch (RuntimeException | OutOfMemoryError e) {
            if (thread != null) {
                threads.remove(thread);
            }
            return e;
        }
    }

    private void runThenHandOff(Runnable task) {
        Thread self = Thread.currentThread();
        try {
            if (stopping) {
                self.interrupt();
            }
            running.incrementAndGet();
            try {
                task.run();
            } catch (RuntimeException | Error e) {
                LOG.error("A task of thread pool {} failed", poolName, e);
            } finally {
                running.decrementAndGet();
                counters.completed();
            }
        } finally {
            threads.remove(self);
            handOff();
        }
    }

    /** Passes the permit held by the caller to the oldest queued task, or gives it back. */
    private void handOff() {
        while (true) {
            Pending next;
            boolean nowTerminated = false;
            lock.lock();
            try {
                next = queue.pollFirst();
                if (next == null) {
                    permitsInUse--;
                    nowTerminated = checkTerminated();
                }
            } finally {
                lock.unlock();
            }
            if (next == null) {
                if (nowTerminated) {
                    onTerminated.accept(this);
                }
                return;
            }
            Throwable failure = tryStart(next);
            if (failure == null) {
                return;
            }
            LOG.error("Thread pool {} cannot start a virtual thread; a queued task is dropped", poolName, failure);
            counters.rejected();
            PoolExecutor.cancel(next.task());
        }
    }

    /** Must hold the lock. @return true exactly once, when the last task of a retired executor is done */
    private boolean checkTerminated() {
        if (retired && permitsInUse == 0 && !terminated) {
            terminated = true;
            terminatedCondition.signalAll();
            return true;
        }
        return false;
    }

    @Override
    public int running() {
        return running.get();
    }

    @Override
    public int queued() {
        lock.lock();
        try {
            return queue.size();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void retire() {
        boolean nowTerminated;
        lock.lock();
        try {
            retired = true;
            nowTerminated = checkTerminated();
        } finally {
            lock.unlock();
        }
        if (nowTerminated) {
            onTerminated.accept(this);
        }
    }

    @Override
    public void stopNow() {
        List<Pending> dropped;
        boolean nowTerminated;
        lock.lock();
        try {
            retired = true;
            stopping = true;
            dropped = new ArrayList<>(queue);
            queue.clear();
            nowTerminated = checkTerminated();
        } finally {
            lock.unlock();
        }
        dropped.forEach(p -> PoolExecutor.cancel(p.task()));
        threads.forEach(Thread::interrupt);
        if (nowTerminated) {
            onTerminated.accept(this);
        }
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        long nanos = unit.toNanos(timeout);
        lock.lock();
        try {
            while (!terminated) {
                if (nanos <= 0) {
                    return false;
                }
                nanos = terminatedCondition.awaitNanos(nanos);
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            lock.unlock();
        }
    }
}
