package io.github.slingvt.http.internal.adaptive;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.ObjIntConsumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs an {@link AdaptiveLimit}: every {@link #PERIOD_MILLIS} ms a platform thread reads whether the carriers are
 * saturated, and two saturated readings in a row (so that a burst shorter than a period does not count) lower the
 * limit; finished requests raise it, by a step that depends on the last reading ({@link AdaptiveLimit}). Every change
 * of the limit goes to the admission gate's cap.
 */
public final class AdaptiveAdmission {

    public static final long PERIOD_MILLIS = 100;
    /** Where the limit starts: the size of Jetty's own thread pool, the cap a Jetty user had before. */
    public static final int INITIAL_LIMIT = 200;

    private static final Logger LOG = LoggerFactory.getLogger(AdaptiveAdmission.class);

    private final AdaptiveLimit limit;
    private final BooleanSupplier saturated;
    private final String signal;
    private final ObjIntConsumer<AdaptiveAdmission> cap;
    /** The last reading; written by the clock's thread, read by finishing requests. */
    private volatile boolean lastSaturated;
    private volatile ScheduledFuture<?> ticker;

    /**
     * @param saturated whether the carriers are saturated now ({@link CarrierSaturation#saturatedNow()})
     * @param signal what {@code saturated} reads, for the status views
     * @param cap receives every new limit, with this admission as its source
     */
    public AdaptiveAdmission(AdaptiveLimit limit, BooleanSupplier saturated, String signal,
            ObjIntConsumer<AdaptiveAdmission> cap) {
        this.limit = limit;
        this.saturated = saturated;
        this.signal = signal;
        this.cap = cap;
    }

    /** Reads this JVM's carriers ({@link CarrierSaturation}). */
    public static AdaptiveAdmission of(int min, int max, ObjIntConsumer<AdaptiveAdmission> cap) {
        CarrierSaturation carriers = new CarrierSaturation();
        return new AdaptiveAdmission(new AdaptiveLimit(min, max, INITIAL_LIMIT), carriers::saturatedNow,
                carriers.signal(), cap);
    }

    /** Hands the initial limit to the cap and starts reading the signal. */
    public void start(ScheduledExecutorService clock) {
        cap.accept(this, limit.limit());
        ticker = clock.scheduleAtFixedRate(this::tick, PERIOD_MILLIS, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
    }

    public void stop() {
        ScheduledFuture<?> t = ticker;
        if (t != null) {
            t.cancel(false);
        }
    }

    /** See {@link AdaptiveLimit#completed(long, int, boolean)}, with the last reading of the signal. */
    public void completed(long latencyNanos, int inFlight) {
        int before = limit.limit();
        limit.completed(latencyNanos, inFlight, lastSaturated);
        int after = limit.limit();
        if (after != before) {
            cap.accept(this, after);
        }
    }

    public int limit() {
        return limit.limit();
    }

    public int min() {
        return limit.min();
    }

    public int max() {
        return limit.max();
    }

    public String signal() {
        return signal;
    }

    /** One reading of the signal; package-private so that tests can drive the clock. */
    void tick() {
        try {
            boolean now = saturated.getAsBoolean();
            if (now && lastSaturated) {
                limit.saturated();
                cap.accept(this, limit.limit());
            }
            lastSaturated = now;
        } catch (RuntimeException e) {
            // A periodic task that throws is never run again: log and keep the limit where it is.
            LOG.warn("Adaptive admission could not read its signal", e);
        }
    }
}
