package io.github.slingvt.http.internal.adaptive;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.function.ObjIntConsumer;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a {@link CarrierLimit}: every {@link #PERIOD_MILLIS} ms a platform thread reads the carriers and the admission
 * gate's running and waiting requests, moves the limit and hands every change to the gate's cap.
 */
public final class AdaptiveAdmission {

    public static final long PERIOD_MILLIS = 100;
    /** Where the limit starts: the size of Jetty's own thread pool, the cap a Jetty user had before. */
    public static final int INITIAL_LIMIT = 200;
    /**
     * The lowest limit where the process's CPU time stands in for the carriers (JDK 21 to 23): without the scheduler's
     * counts the requests that wait off the carriers are unknown, so a step-down could cut them; there the limit never
     * falls below the requests Jetty's default pool would run at once.
     */
    public static final int CPU_SIGNAL_FLOOR = INITIAL_LIMIT;

    private static final Logger LOG = LoggerFactory.getLogger(AdaptiveAdmission.class);

    private final CarrierLimit limit;
    private final Supplier<CarrierReading> carriers;
    private final String signal;
    private final IntSupplier running;
    private final IntSupplier waiting;
    private final ObjIntConsumer<AdaptiveAdmission> cap;
    /** adaptiveMinLimit as configured; the limit's own floor may be higher ({@link #CPU_SIGNAL_FLOOR}). */
    private final int configuredMin;
    /** Written by the clock's thread, read by the status views. */
    private volatile int current;
    private volatile ScheduledFuture<?> ticker;

    /**
     * @param carriers reads the carriers now ({@link CarrierSaturation#read()}); {@code null} when it cannot
     * @param signal what {@code carriers} reads, for the status views
     * @param running requests admitted and running now
     * @param waiting requests waiting for admission now
     * @param cap receives every new limit, with this admission as its source
     */
    public AdaptiveAdmission(CarrierLimit limit, Supplier<CarrierReading> carriers, String signal, IntSupplier running,
            IntSupplier waiting, ObjIntConsumer<AdaptiveAdmission> cap) {
        this(limit, carriers, signal, running, waiting, cap, limit.min());
    }

    private AdaptiveAdmission(CarrierLimit limit, Supplier<CarrierReading> carriers, String signal,
            IntSupplier running, IntSupplier waiting, ObjIntConsumer<AdaptiveAdmission> cap, int configuredMin) {
        this.configuredMin = configuredMin;
        this.limit = limit;
        this.carriers = carriers;
        this.signal = signal;
        this.running = running;
        this.waiting = waiting;
        this.cap = cap;
        this.current = limit.limit();
    }

    /** Reads this JVM's carriers ({@link CarrierSaturation}). */
    public static AdaptiveAdmission of(int min, int max, IntSupplier running, IntSupplier waiting,
            ObjIntConsumer<AdaptiveAdmission> cap) {
        CarrierSaturation carriers = new CarrierSaturation();
        return new AdaptiveAdmission(new CarrierLimit(floor(min, max, carriers.counts()), max, INITIAL_LIMIT),
                carriers::read, carriers.signal(), running, waiting, cap, min);
    }

    /** The limit's floor: adaptiveMinLimit, raised to {@link #CPU_SIGNAL_FLOOR} (at most max) without counts. */
    static int floor(int min, int max, boolean counts) {
        return counts ? min : Math.min(max, Math.max(min, CPU_SIGNAL_FLOOR));
    }

    /** Hands the initial limit to the cap and starts reading the carriers. */
    public void start(ScheduledExecutorService clock) {
        cap.accept(this, current);
        ticker = clock.scheduleAtFixedRate(this::tick, PERIOD_MILLIS, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
    }

    public void stop() {
        ScheduledFuture<?> t = ticker;
        if (t != null) {
            t.cancel(false);
        }
    }

    public int limit() {
        return current;
    }

    /** adaptiveMinLimit as configured. */
    public int min() {
        return configuredMin;
    }

    /** The lowest the limit goes: {@link #min()}, or {@link #CPU_SIGNAL_FLOOR} where the CPU load stands in. */
    public int floor() {
        return limit.min();
    }

    public int max() {
        return limit.max();
    }

    public String signal() {
        return signal;
    }

    /** One reading; package-private so that tests can drive the clock. */
    void tick() {
        try {
            int before = current;
            int after = limit.update(carriers.get(), running.getAsInt(), waiting.getAsInt());
            if (after != before) {
                current = after;
                cap.accept(this, after);
            }
        } catch (RuntimeException e) {
            // A periodic task that throws is never run again: log and keep the limit where it is.
            LOG.warn("Adaptive admission could not read the carriers", e);
        }
    }
}
