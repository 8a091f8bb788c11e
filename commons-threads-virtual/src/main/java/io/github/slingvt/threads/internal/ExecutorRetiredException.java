package io.github.slingvt.threads.internal;

import java.util.concurrent.RejectedExecutionException;

/**
 * Thrown by an executor that has been replaced (kernel/virtual switch or new settings) or shut down. The pool facade
 * catches it and hands the task to the executor now in charge, so that no task submitted during a switch is lost.
 */
final class ExecutorRetiredException extends RejectedExecutionException {

    ExecutorRetiredException(String poolName) {
        super("Executor of thread pool " + poolName + " no longer accepts tasks");
    }
}
