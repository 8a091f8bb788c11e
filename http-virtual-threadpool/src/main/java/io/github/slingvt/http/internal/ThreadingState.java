package io.github.slingvt.http.internal;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import io.github.slingvt.http.api.HttpThreadsSnapshot;
import io.github.slingvt.http.internal.adaptive.AdaptiveAdmission;
import io.github.slingvt.http.internal.adaptive.CarrierLimit;
import io.github.slingvt.http.internal.adaptive.CarrierReading;
import io.github.slingvt.http.api.ThreadingMode;

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

    /** A test's stand-in for this JVM's carriers; {@code null} reads them. */
    private final Supplier<CarrierReading> carriers;

    /** @param clock runs the admission queue's timeouts and the adaptive limit's readings (a platform thread) */
    ThreadingState(ScheduledExecutorService clock) {
        this(clock, null);
    }

    /** @param carriers stands in for the carriers (tests); {@code null} reads this JVM's */
    ThreadingState(ScheduledExecutorService clock, Supplier<CarrierReading> carriers) {
        this.clock = clock;
        this.carriers = carriers;
        this.gate = new AdmissionGate(clock);
        apply(ThreadingSettings.DEFAULTS);
    }

    /**
     * Serialized by the caller (DS calls activate and modified one at a time). An adaptive limit survives a change of
     * other settings of virtual mode, so that what it learned is kept; a change of its bounds or kernel mode ends it.
     * Kernel mode admits up to {@code kernelMaxThreads} requests: Jetty's pool keeps threads above a lowered maximum
     * until they are idle, and the cap puts the new size in force for new requests at once.
     */
    void apply(ThreadingSettings next) {
        AdaptiveAdmission current = adaptive;
        boolean virtualAuto = next.mode() == ThreadingMode.VIRTUAL && next.adaptive();
        boolean keep = current != null && virtualAuto && current.min() == next.adaptiveMinLimit()
                && current.max() == next.adaptiveMaxLimit();
        if (current != null && !keep) {
            current.stop();
            adaptive = null;
        }
        if (next.mode() == ThreadingMode.KERNEL) {
            gate.setLimits(next.kernelMaxThreads(), next.maxQueuedRequests(), next.clientTimeoutMillis());
        } else if (!virtualAuto) {
            gate.setLimits(next.maxConcurrentRequests(), next.maxQueuedRequests(), next.queueTimeoutMillis());
        } else if (keep) {
            gate.setLimits(current.limit(), next.maxQueuedRequests(), next.clientTimeoutMillis(), current);
        } else {
            AdaptiveAdmission started = carriers == null
                    ? AdaptiveAdmission.of(next.adaptiveMinLimit(), next.adaptiveMaxLimit(), gate::running,
                            gate::queued, gate::moveCap)
                    : new AdaptiveAdmission(new CarrierLimit(next.adaptiveMinLimit(), next.adaptiveMaxLimit(),
                            AdaptiveAdmission.INITIAL_LIMIT), carriers, "test", gate::running, gate::queued,
                            gate::moveCap);
            gate.setLimits(started.limit(), next.maxQueuedRequests(), next.clientTimeoutMillis(), started);
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
        return counters.snapshot(now, cap == Integer.MAX_VALUE ? 0 : cap, gate.queued(), gate.newestFirst(),
                refusedConfigurations.get(), lastConfigurationError);
    }
}
