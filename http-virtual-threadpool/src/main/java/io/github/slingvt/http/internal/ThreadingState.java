package io.github.slingvt.http.internal;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import io.github.slingvt.http.api.HttpThreadsSnapshot;
import io.github.slingvt.http.internal.adaptive.AdaptiveAdmission;
import io.github.slingvt.http.internal.adaptive.AdaptiveLimit;

/** What the request path reads on every request: the settings in force, the counters and the admission gate. */
final class ThreadingState {

    private final RequestCounters counters = new RequestCounters();
    private final AdmissionGate gate;
    private final ScheduledExecutorService clock;
    private final AtomicLong refusedConfigurations = new AtomicLong();
    private final ThreadFactory virtualThreads = Thread.ofVirtual().name("slingvt-http-", 0).factory();
    private volatile ThreadingSettings settings = ThreadingSettings.DEFAULTS;
    private volatile String lastConfigurationError = "";
    /** The adaptive limit in force; {@code null} unless maxConcurrentRequests is auto. Written by apply only. */
    private volatile AdaptiveAdmission adaptive;

    /** Reads this JVM's carriers, or a test's stand-in. */
    private final BooleanSupplier saturation;

    /** @param clock runs the admission queue's timeouts and the adaptive limit's readings (a platform thread) */
    ThreadingState(ScheduledExecutorService clock) {
        this(clock, null);
    }

    /** @param saturation stands in for the carriers' saturation (tests); {@code null} reads this JVM's */
    ThreadingState(ScheduledExecutorService clock, BooleanSupplier saturation) {
        this.clock = clock;
        this.saturation = saturation;
        this.gate = new AdmissionGate(clock);
        apply(ThreadingSettings.DEFAULTS);
    }

    /**
     * Serialized by the caller (DS calls activate and modified one at a time). An adaptive limit survives a change of
     * other settings, so that what it learned is kept; a change of its bounds starts a new one.
     */
    void apply(ThreadingSettings next) {
        AdaptiveAdmission current = adaptive;
        boolean keep = current != null && next.adaptive() && current.min() == next.adaptiveMinLimit()
                && current.max() == next.adaptiveMaxLimit();
        if (current != null && !keep) {
            current.stop();
        }
        if (!next.adaptive()) {
            adaptive = null;
            gate.setLimits(next.maxConcurrentRequests(), next.maxQueuedRequests(), next.queueTimeoutMillis());
        } else if (keep) {
            gate.setLimits(current.limit(), next.maxQueuedRequests(), next.queueTimeoutMillis(), current);
        } else {
            AdaptiveAdmission started = saturation == null
                    ? AdaptiveAdmission.of(next.adaptiveMinLimit(), next.adaptiveMaxLimit(), gate::moveCap)
                    : new AdaptiveAdmission(new AdaptiveLimit(next.adaptiveMinLimit(), next.adaptiveMaxLimit(),
                            AdaptiveAdmission.INITIAL_LIMIT), saturation, "test", gate::moveCap);
            gate.setLimits(started.limit(), next.maxQueuedRequests(), next.queueTimeoutMillis(), started);
            adaptive = started;
            started.start(clock);
        }
        settings = next;
    }

    /** Stops reading the adaptive signal (the component is going away). */
    void close() {
        AdaptiveAdmission current = adaptive;
        if (current != null) {
            current.stop();
        }
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

    /** The adaptive limit in force, or {@code null}. */
    AdaptiveAdmission adaptive() {
        return adaptive;
    }

    /** What {@link io.github.slingvt.http.api.HttpThreads} answers: settings and counters read now. */
    HttpThreadsSnapshot snapshot() {
        ThreadingSettings now = settings;
        int cap = gate.maxRunning();
        return counters.snapshot(now, cap == Integer.MAX_VALUE ? 0 : cap, gate.queued(), refusedConfigurations.get(),
                lastConfigurationError);
    }
}
