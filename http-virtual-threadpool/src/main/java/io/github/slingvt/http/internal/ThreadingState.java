package io.github.slingvt.http.internal;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;

import io.github.slingvt.http.api.HttpThreadsSnapshot;

/** What the request path reads on every request: the settings in force, the counters and the admission gate. */
final class ThreadingState {

    private final RequestCounters counters = new RequestCounters();
    private final AdmissionGate gate;
    private final AtomicLong refusedConfigurations = new AtomicLong();
    private final ThreadFactory virtualThreads = Thread.ofVirtual().name("slingvt-http-", 0).factory();
    private volatile ThreadingSettings settings = ThreadingSettings.DEFAULTS;
    private volatile String lastConfigurationError = "";

    ThreadingState(ScheduledExecutorService timeouts) {
        this.gate = new AdmissionGate(timeouts);
        apply(ThreadingSettings.DEFAULTS);
    }

    void apply(ThreadingSettings next) {
        gate.setLimits(next.maxConcurrentRequests(), next.maxQueuedRequests(), next.queueTimeoutMillis());
        settings = next;
    }

    void refused(String reason) {
        lastConfigurationError = reason;
        refusedConfigurations.incrementAndGet();
    }

    long refusedConfigurations() {
        return refusedConfigurations.get();
    }

    String lastConfigurationError() {
        return lastConfigurationError;
    }

    /** Request threads are named slingvt-http-N, whichever path created them. */
    ThreadFactory virtualThreads() {
        return virtualThreads;
    }

    ThreadingSettings settings() {
        return settings;
    }

    RequestCounters counters() {
        return counters;
    }

    AdmissionGate gate() {
        return gate;
    }

    /** What {@link io.github.slingvt.http.api.HttpThreads} answers: settings and counters read now. */
    HttpThreadsSnapshot snapshot() {
        ThreadingSettings now = settings;
        return counters.snapshot(now.mode(), now.maxConcurrentRequests(), now.kernelMaxThreads(), gate.queued(),
                refusedConfigurations.get(), lastConfigurationError);
    }
}
