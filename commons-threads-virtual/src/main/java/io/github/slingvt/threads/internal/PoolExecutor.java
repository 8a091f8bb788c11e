package io.github.slingvt.threads.internal;

import io.github.slingvt.threads.api.ThreadPoolMode;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.sling.commons.threads.ThreadPoolConfig;

/** One generation of the executor behind a {@link ManagedThreadPool}: either virtual or kernel. */
interface PoolExecutor {

    ThreadPoolMode mode();

    /** The settings in force, after the same corrections Sling applies (e.g. maxPoolSize below 0 = unlimited). */
    ThreadPoolConfig configuration();

    /**
     * Runs the task according to the pool's size, queue and block policy.
     *
     * @throws ExecutorRetiredException once {@link #retire()} or {@link #stopNow()} was called
     * @throws java.util.concurrent.RejectedExecutionException when the ABORT policy refuses the task
     */
    void execute(Runnable task);

    /** Tasks running on pool threads now. */
    int running();

    /** Tasks waiting for a slot now. */
    int queued();

    /** Stops accepting tasks; running and queued tasks still complete. Does not block. */
    void retire();

    /** Stops accepting tasks, drops queued tasks (cancelling their futures) and interrupts running ones. */
    void stopNow();

    /** @return true if all tasks finished within the time; false on timeout or interruption (flag restored) */
    boolean awaitTermination(long timeout, TimeUnit unit);

    /** Waiters on a dropped task's future get a CancellationException instead of waiting forever. */
    static void cancel(Runnable task) {
        if (task instanceof Future<?> future) {
            future.cancel(false);
        }
    }
}
