package io.github.slingvt.threads.internal;

import io.github.slingvt.threads.api.ThreadPoolMode;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.apache.sling.commons.threads.ModifiableThreadPoolConfig;
import org.apache.sling.commons.threads.ThreadPoolConfig;
import org.apache.sling.commons.threads.ThreadPoolConfig.ThreadPoolPolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A pool of platform threads built the way Apache Sling Commons Threads 3.3.0 builds it: same queue choice, same
 * min/max correction for unbounded queues, same thread names, priority and daemon flag, same block policies.
 * The differences: a discarded task's future is cancelled rather than left pending forever, DISCARDOLDEST without
 * a queue drops the new task instead of recursing, and ThreadLocals are not scrubbed between tasks (Sling's scrubbing
 * needs --add-opens java.base/java.lang and falls back to this without it).
 */
final class KernelExecutor implements PoolExecutor {

    private static final Logger LOG = LoggerFactory.getLogger(KernelExecutor.class);

    private final String poolName;
    private final ThreadPoolConfig config;
    private final PoolCounters counters;
    private final CountingExecutor executor;

    KernelExecutor(String poolName, ThreadPoolConfig effective, PoolCounters counters,
            Consumer<PoolExecutor> onTerminated) {
        this.poolName = poolName;
        this.counters = counters;
        ModifiableThreadPoolConfig c = new ModifiableThreadPoolConfig(effective);
        BlockingQueue<Runnable> queue;
        if (c.getQueueSize() > 0) {
            queue = new ArrayBlockingQueue<>(c.getQueueSize());
        } else if (c.getQueueSize() < 0) {
            // As Sling (SLING-7407): with an unbounded queue a ThreadPoolExecutor never grows beyond its core size,
            // so the core size is raised to the max size to make maxPoolSize mean something.
            if (c.getMinPoolSize() < c.getMaxPoolSize()) {
                LOG.info("Thread pool {} has an unbounded queue; minPoolSize {} raised to maxPoolSize {}",
                        poolName, c.getMinPoolSize(), c.getMaxPoolSize());
                c.setMinPoolSize(c.getMaxPoolSize());
            }
            queue = new LinkedBlockingQueue<>();
        } else {
            queue = new SynchronousQueue<>();
        }
        this.config = c;
        this.executor = new CountingExecutor(c, queue, new KernelThreadFactory(poolName, c), this::reject, onTerminated);
    }

    @Override
    public ThreadPoolMode mode() {
        return ThreadPoolMode.KERNEL;
    }

    @Override
    public ThreadPoolConfig configuration() {
        return config;
    }

    @Override
    public void execute(Runnable task) {
        executor.execute(task);
    }

    private void reject(Runnable task, ThreadPoolExecutor tpe) {
        if (tpe.isShutdown()) {
            throw new ExecutorRetiredException(poolName);
        }
        ThreadPoolPolicy policy = config.getBlockPolicy();
        if (policy == ThreadPoolPolicy.RUN) {
            try {
                task.run();
            } finally {
                counters.completed();
            }
            return;
        }
        counters.rejected();
        if (policy == ThreadPoolPolicy.ABORT) {
            throw new RejectedExecutionException("Thread pool " + poolName + " rejected a task: all "
                    + config.getMaxPoolSize() + " threads are busy and the queue (" + config.getQueueSize()
                    + ") is full");
        }
        Runnable oldest = policy == ThreadPoolPolicy.DISCARDOLDEST ? tpe.getQueue().poll() : null;
        if (oldest == null) {
            PoolExecutor.cancel(task);
        } else {
            PoolExecutor.cancel(oldest);
            tpe.execute(task);
        }
    }

    @Override
    public int running() {
        return executor.getActiveCount();
    }

    @Override
    public int queued() {
        return executor.getQueue().size();
    }

    @Override
    public void retire() {
        executor.shutdown();
    }

    @Override
    public void stopNow() {
        executor.shutdownNow().forEach(PoolExecutor::cancel);
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        try {
            return executor.awaitTermination(timeout, unit);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private final class CountingExecutor extends ThreadPoolExecutor {

        private final Consumer<PoolExecutor> onTerminated;

        CountingExecutor(ThreadPoolConfig c, BlockingQueue<Runnable> queue, ThreadFactory factory,
                RejectedExecutionHandler handler, Consumer<PoolExecutor> onTerminated) {
            super(c.getMinPoolSize(), c.getMaxPoolSize(), c.getKeepAliveTime(), TimeUnit.MILLISECONDS, queue,
                    factory, handler);
            this.onTerminated = onTerminated;
        }

        @Override
        protected void afterExecute(Runnable task, Throwable failure) {
            counters.completed();
        }

        @Override
        protected void terminated() {
            onTerminated.accept(KernelExecutor.this);
        }
    }

    /** Sling's ExtendedThreadFactory behaviour: wraps the configured factory (or the JVM's) and names the threads. */
    private static final class KernelThreadFactory implements ThreadFactory {

        private final ThreadFactory delegate;
        private final String prefix;
        private final int priority;
        private final boolean daemon;
        private final AtomicInteger counter = new AtomicInteger(1);

        KernelThreadFactory(String poolName, ThreadPoolConfig config) {
            this.delegate = config.getFactory() != null ? config.getFactory() : Executors.defaultThreadFactory();
            this.prefix = ThreadNames.kernelPrefix(poolName);
            this.priority = switch (config.getPriority()) {
                case MIN -> Thread.MIN_PRIORITY;
                case MAX -> Thread.MAX_PRIORITY;
                default -> Thread.NORM_PRIORITY;
            };
            this.daemon = config.isDaemon();
        }

        @Override
        public Thread newThread(Runnable task) {
            Thread thread = delegate.newThread(task);
            thread.setName(prefix + counter.getAndIncrement());
            thread.setPriority(priority);
            // A caller-supplied factory may hand out virtual threads, on which setDaemon(false) throws.
            if (!thread.isVirtual()) {
                thread.setDaemon(daemon);
            }
            return thread;
        }
    }
}
