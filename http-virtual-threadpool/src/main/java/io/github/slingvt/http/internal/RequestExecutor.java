package io.github.slingvt.http.internal;

import java.util.concurrent.Executor;

import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Jetty's "virtual threads executor" of Felix's QueuedThreadPool. Jetty's selectors hand it the blocking tasks
 * (parsing and handling a request); in unbounded virtual mode each task gets a new virtual thread, exactly the
 * shape Jetty recommends. In kernel and bounded modes the task goes to the platform pool, where
 * {@link DispatchHandler} decides (bounded mode must admit a request before any virtual thread exists).
 */
final class RequestExecutor implements Executor {

    private static final Logger LOG = LoggerFactory.getLogger(RequestExecutor.class);

    private final QueuedThreadPool platform;
    private final ThreadingState state;
    private volatile boolean detached;

    RequestExecutor(QueuedThreadPool platform, ThreadingState state) {
        this.platform = platform;
        this.state = state;
    }

    /** After uninstall Jetty may still call us (its selectors keep the reference): behave like no executor. */
    void detach() {
        detached = true;
    }

    @Override
    public void execute(Runnable task) {
        ThreadingSettings settings = state.settings();
        if (detached || settings.mode() == ThreadingMode.KERNEL || settings.bounded()) {
            platform.execute(task);
            return;
        }
        try {
            state.virtualThreads().newThread(task).start();
        } catch (RuntimeException | OutOfMemoryError e) {
            LOG.warn("Could not start a virtual thread ({}); running the task on Jetty's platform pool", e.toString());
            platform.execute(task);
        }
    }
}
