package io.github.slingvt.http.internal.adaptive.sim;

import java.lang.reflect.Proxy;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.github.slingvt.http.internal.adaptive.AdaptiveAdmission;
import io.github.slingvt.http.internal.adaptive.CarrierLimit;
import io.github.slingvt.http.internal.adaptive.CarrierReading;

/**
 * The law that ships, through its own classes: an {@link AdaptiveAdmission} over a {@link CarrierLimit} with the
 * default bounds, started on a clock whose periodic task the model runs once per reading. Each reading becomes the
 * {@link CarrierReading} that {@code CarrierSaturation} builds on JDK 24+ (parallelism, mounted, queued and the CPU
 * load of the period; in the model the carriers are the whole machine), and the gate's running and waiting requests;
 * the limit out is what {@code AdaptiveAdmission} hands to the gate's cap.
 */
final class CurrentLaw implements AdmissionLaw {

    /** {@code adaptiveMinLimit}'s default (ThreadingSettings.DEFAULT_ADAPTIVE_MIN). */
    static final int DEFAULT_MIN = 20;
    /** {@code adaptiveMaxLimit}'s default (ThreadingSettings.DEFAULT_ADAPTIVE_MAX). */
    static final int DEFAULT_MAX = 1_000_000;

    private final AdaptiveAdmission admission;
    private Runnable tick;
    private Reading now;
    private int cap;

    CurrentLaw() {
        admission = new AdaptiveAdmission(new CarrierLimit(DEFAULT_MIN, DEFAULT_MAX, AdaptiveAdmission.INITIAL_LIMIT),
                () -> CarrierReading.ofCounts(now.carriers(), now.mounted(), now.queued(), now.cpuLoad()),
                "simulated carriers", () -> now.running(), () -> now.waiting(), (source, limit) -> cap = limit);
        admission.start(clockThatHandsOverItsTask());
    }

    @Override
    public int initialLimit() {
        return cap;
    }

    @Override
    public int read(Reading reading) {
        now = reading;
        tick.run();
        return cap;
    }

    /** A clock that never runs anything itself: it keeps the periodic task for {@link #read}. */
    private ScheduledExecutorService clockThatHandsOverItsTask() {
        return (ScheduledExecutorService) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {ScheduledExecutorService.class}, (proxy, method, args) -> {
                    if (!method.getName().equals("scheduleAtFixedRate")) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    long period = ((TimeUnit) args[3]).toMillis((Long) args[2]);
                    if (period != (long) PERIOD_MILLIS) {
                        throw new IllegalStateException("the law reads every " + period + " ms, the model every "
                                + PERIOD_MILLIS);
                    }
                    tick = (Runnable) args[0];
                    return null;
                });
    }
}
