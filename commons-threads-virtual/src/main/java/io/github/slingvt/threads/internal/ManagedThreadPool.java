package io.github.slingvt.threads.internal;

import io.github.slingvt.threads.api.ThreadPoolMode;
import io.github.slingvt.threads.api.ThreadPoolSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.sling.commons.threads.ModifiableThreadPoolConfig;
import org.apache.sling.commons.threads.ThreadPool;
import org.apache.sling.commons.threads.ThreadPoolConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ThreadPool object consumers hold for the whole life of a pool. The executor behind it is replaced when the
 * pool switches between kernel and virtual or gets new settings; the old one finishes its running and queued tasks
 * in the background, and a task that reaches it after it stopped accepting is handed to the new one.
 */
final class ManagedThreadPool implements ThreadPool {

    private static final Logger LOG = LoggerFactory.getLogger(ManagedThreadPool.class);

    private final String name;
    private final String label;
    private final PoolCounters counters = new PoolCounters();
    private final Set<PoolExecutor> retiring = ConcurrentHashMap.newKeySet();
    private final Object switchLock = new Object();
    private volatile PoolExecutor current;
    private volatile ThreadPoolConfig configured;
    private volatile boolean closed;

    /** @param label the label of an anonymous pool (ThreadPoolManager.create), null for a named pool */
    ManagedThreadPool(String name, String label, ThreadPoolMode mode, ThreadPoolConfig configured) {
        this.name = name;
        this.label = label;
        this.configured = new ModifiableThreadPoolConfig(configured);
        this.current = newExecutor(mode, this.configured);
        LOG.info("Thread pool [{}] started in {} mode (maxPoolSize {}, queueSize {}, blockPolicy {})", name,
                mode.label(), current.configuration().getMaxPoolSize(), current.configuration().getQueueSize(),
                current.configuration().getBlockPolicy());
    }

    private PoolExecutor newExecutor(ThreadPoolMode mode, ThreadPoolConfig config) {
        ThreadPoolConfig effective = PoolConfigs.effective(name, config);
        return mode == ThreadPoolMode.VIRTUAL
                ? new VirtualExecutor(name, effective, counters, retiring::remove)
                : new KernelExecutor(name, effective, counters, retiring::remove);
    }

    @Override
    public String getName() {
        return name;
    }

    String label() {
        return label;
    }

    /** The settings as given (configuration or create() argument), before corrections. */
    ThreadPoolConfig configured() {
        return new ModifiableThreadPoolConfig(configured);
    }

    /** A copy of the settings in force, so that consumers cannot change them behind the pool's back. */
    @Override
    public ThreadPoolConfig getConfiguration() {
        return new ModifiableThreadPoolConfig(current.configuration());
    }

    @Override
    public void execute(Runnable runnable) {
        // Sling ignores a null runnable here (but not in submit).
        if (runnable != null) {
            dispatch(runnable);
        }
    }

    @Override
    public <T> Future<T> submit(Callable<T> callable) {
        FutureTask<T> task = new FutureTask<>(callable);
        dispatch(task);
        return task;
    }

    @Override
    public Future<?> submit(Runnable runnable) {
        FutureTask<Void> task = new FutureTask<>(runnable, null);
        dispatch(task);
        return task;
    }

    private void dispatch(Runnable task) {
        while (true) {
            if (closed) {
                throw new RejectedExecutionException("Thread pool " + name + " is already shutdown.");
            }
            PoolExecutor executor = current;
            try {
                executor.execute(task);
                return;
            } catch (ExecutorRetiredException e) {
                // The executor was replaced between our read and the call: the new one is already in place
                // (it is published before the old one retires), so the next round reaches it.
                Thread.onSpinWait();
            }
        }
    }

    /**
     * Puts a new executor behind this pool if the mode or the settings differ. Never blocks on running tasks.
     *
     * @return true if the executor was replaced
     */
    boolean reconfigure(ThreadPoolMode mode, ThreadPoolConfig newConfig) {
        synchronized (switchLock) {
            PoolExecutor old = current;
            if (closed || (old.mode() == mode && PoolConfigs.sameSettings(configured, newConfig))) {
                return false;
            }
            PoolExecutor next = newExecutor(mode, newConfig);
            configured = new ModifiableThreadPoolConfig(newConfig);
            retiring.add(old);
            current = next;
            old.retire();
            LOG.info("Thread pool [{}] now runs new tasks in {} mode (maxPoolSize {}); the {} executor finishes its "
                    + "{} running and {} queued tasks", name, mode.label(), next.configuration().getMaxPoolSize(),
                    old.mode().label(), old.running(), old.queued());
            return true;
        }
    }

    /**
     * Sling's shutdown: graceful lets queued and running tasks finish, otherwise queued tasks are dropped and running
     * ones interrupted; with a positive shutdownWaitTime the caller waits that long, then interrupts what is left.
     */
    void shutdown() {
        List<PoolExecutor> executors = new ArrayList<>();
        synchronized (switchLock) {
            if (closed) {
                return;
            }
            closed = true;
            executors.add(current);
            executors.addAll(retiring);
        }
        ThreadPoolConfig config = current.configuration();
        LOG.info("Shutting down thread pool [{}] ...", name);
        for (PoolExecutor executor : executors) {
            if (config.isShutdownGraceful()) {
                executor.retire();
            } else {
                executor.stopNow();
            }
        }
        int waitMs = config.getShutdownWaitTimeMs();
        if (waitMs > 0) {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
            boolean allDone = true;
            for (PoolExecutor executor : executors) {
                allDone &= executor.awaitTermination(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            }
            if (!allDone) {
                LOG.warn("Tasks of thread pool [{}] did not finish within {} ms; interrupting them", name, waitMs);
                executors.forEach(PoolExecutor::stopNow);
            }
        }
        LOG.info("Thread pool [{}] is shut down.", name);
    }

    boolean isShutdown() {
        return closed;
    }

    ThreadPoolSnapshot status() {
        PoolExecutor executor = current;
        int running = executor.running();
        int queued = executor.queued();
        for (PoolExecutor old : retiring) {
            running += old.running();
            queued += old.queued();
        }
        return new ThreadPoolSnapshot(name, executor.mode(), running, queued, counters.completedCount(),
                counters.rejectedCount(), executor.configuration().getMaxPoolSize(), retiring.size());
    }
}
