package io.github.slingvt.http.internal;

import java.util.concurrent.ScheduledExecutorService;

/** What the request path reads on every request: the settings in force, the counters and the admission gate. */
final class ThreadingState {

    private final RequestCounters counters = new RequestCounters();
    private final AdmissionGate gate;
    private volatile ThreadingSettings settings = ThreadingSettings.DEFAULTS;

    ThreadingState(ScheduledExecutorService timeouts) {
        this.gate = new AdmissionGate(timeouts);
        apply(ThreadingSettings.DEFAULTS);
    }

    void apply(ThreadingSettings next) {
        gate.setLimits(next.maxConcurrentRequests(), next.maxQueuedRequests(), next.queueTimeoutMillis());
        settings = next;
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

    RequestCounters.Snapshot snapshot() {
        return counters.snapshot(settings.mode(), gate.queued());
    }
}
