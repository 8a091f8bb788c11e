package io.github.slingvt.it.e2e;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Stops of instances whose test is over, run while the next instance starts. A graceful stop spends most of its time
 * idle: Oak's repository shutdown waits up to 5 s for the session-statistics task of any session opened in the last
 * minute and still open (docs/UPSTREAM.md), time in which the next instance's start can use both cores. Each stop is
 * still {@link SlingInstance#stop()} (SIGTERM to the PID, up to 30 s, then SIGKILL); the next
 * {@link SlingInstanceBuilder#start()} waits for every pending stop once its own instance is ready and fails if one
 * of them left a process behind, and an instance's JVM shutdown hook waits for its stop in any case.
 * <p>
 * Only for instances that nothing else needs afterwards: a restart on the same home, or an instance on a database that
 * the test stops next, must stop in the foreground ({@link SlingInstance#stop()}).
 */
final class BackgroundStops {

    private static final List<CompletableFuture<Void>> PENDING = new ArrayList<>();

    private BackgroundStops() {
    }

    /** Starts the stop of {@code sling} on a thread of its own and returns at once. */
    static void stop(SlingInstance sling) {
        CompletableFuture<Void> stop = new CompletableFuture<>();
        synchronized (PENDING) {
            PENDING.add(stop);
        }
        Thread.ofVirtual().name("stop-sling-" + sling.name()).start(() -> {
            try {
                sling.stop();
                stop.complete(null);
            } catch (RuntimeException e) {
                stop.completeExceptionally(e);
            }
        });
    }

    /** Waits for every stop started so far; fails with the first one that did not end its process. */
    static void awaitAll() {
        List<CompletableFuture<Void>> stops;
        synchronized (PENDING) {
            stops = new ArrayList<>(PENDING);
            PENDING.clear();
        }
        IllegalStateException failure = null;
        for (CompletableFuture<Void> stop : stops) {
            try {
                stop.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for the stop of an earlier instance", e);
            } catch (ExecutionException e) {
                if (failure == null) {
                    failure = new IllegalStateException("An earlier instance did not stop: "
                            + e.getCause().getMessage(), e.getCause());
                } else {
                    failure.addSuppressed(e.getCause());
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
