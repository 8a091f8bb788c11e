package io.github.slingvt.http.internal.adaptive;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a {@link CarrierLimit}: every {@link #PERIOD_MILLIS} ms a platform thread reads the carriers and the admission
 * gate's running and waiting requests, moves the limit and hands every change to the gate's cap. Every
 * {@link #GROWTH_PERIODS} readings it also hands the gate the bound of its queue that {@link QueueGrowth} finds.
 */
public final class AdaptiveAdmission {

    /** What the limit reads from the admission gate and hands to it. */
    public interface Gate {
        /** Requests admitted and running now. */
        int running();

        /** Requests waiting for admission now. */
        int queued();

        /** Requests finished since the gate was made. */
        long finished();

        /** The most requests that may run at once, from {@code source}. */
        void moveCap(Object source, int cap);

        /** The most requests that may wait at once, from {@code source}; {@link Integer#MAX_VALUE}: no bound. */
        void boundQueue(Object source, int max);
    }

    public static final long PERIOD_MILLIS = 100;
    /** Readings per reading of the queue's growth: one second. */
    static final int GROWTH_PERIODS = 10;
    /** Where the limit starts: the size of Jetty's own thread pool, the cap a Jetty user had before. */
    public static final int INITIAL_LIMIT = 200;
    /**
     * The lowest limit where the machine's CPU load stands in for the carriers (JDK 21 to 23): that load counts other
     * processes too, so a load that mostly waits could read as saturated; there the limit never falls below the
     * requests Jetty's default pool would run at once.
     */
    public static final int CPU_SIGNAL_FLOOR = INITIAL_LIMIT;

    private static final Logger LOG = LoggerFactory.getLogger(AdaptiveAdmission.class);

    private final CarrierLimit limit;
    private final Supplier<CarrierReading> carriers;
    private final String signal;
    private final Gate gate;
    private final QueueGrowth growth = new QueueGrowth();
    /** adaptiveMinLimit as configured; the limit's own floor may be higher ({@link #CPU_SIGNAL_FLOOR}). */
    private final int configuredMin;
    /** Written by the clock's thread, read by the status views. */
    private volatile int current;
    /** The queue's bound in force, {@link QueueGrowth#UNBOUNDED} without one; as {@link #current}. */
    private volatile int queueBound = QueueGrowth.UNBOUNDED;
    /** Readings since the queue's growth was last read; the clock's thread only. */
    private int periods;
    private volatile ScheduledFuture<?> ticker;

    /**
     * @param carriers reads the carriers now ({@link CarrierSaturation#read()}); {@code null} when it cannot
     * @param signal what {@code carriers} reads, for the status views
     * @param gate what is read and receives every new limit and queue bound, with this admission as their source
     */
    public AdaptiveAdmission(CarrierLimit limit, Supplier<CarrierReading> carriers, String signal, Gate gate) {
        this(limit, carriers, signal, gate, limit.min());
    }

    private AdaptiveAdmission(CarrierLimit limit, Supplier<CarrierReading> carriers, String signal, Gate gate,
            int configuredMin) {
        this.configuredMin = configuredMin;
        this.limit = limit;
        this.carriers = carriers;
        this.signal = signal;
        this.gate = gate;
        this.current = limit.limit();
    }

    /** Reads this JVM's carriers ({@link CarrierSaturation}). */
    public static AdaptiveAdmission of(int min, int max, Gate gate) {
        CarrierSaturation carriers = new CarrierSaturation();
        return new AdaptiveAdmission(new CarrierLimit(floor(min, max, carriers.counts()), max, INITIAL_LIMIT),
                carriers::read, carriers.signal(), gate, min);
    }

    /** The limit's floor: adaptiveMinLimit, raised to {@link #CPU_SIGNAL_FLOOR} (at most max) without counts. */
    static int floor(int min, int max, boolean counts) {
        return counts ? min : Math.min(max, Math.max(min, CPU_SIGNAL_FLOOR));
    }

    /** Hands the initial limit to the cap and starts reading the carriers. */
    public void start(ScheduledExecutorService clock) {
        gate.moveCap(this, current);
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

    /** The most requests that may wait now; {@link Integer#MAX_VALUE} while the queue has no bound of its own. */
    public int queueBound() {
        return queueBound;
    }

    /** One reading; package-private so that tests can drive the clock. */
    void tick() {
        if (++periods >= GROWTH_PERIODS) {
            periods = 0;
            readGrowth();
        }
        try {
            int before = current;
            int after = limit.update(carriers.get(), gate.running(), gate.queued());
            if (after != before) {
                current = after;
                gate.moveCap(this, after);
            }
        } catch (RuntimeException e) {
            // A periodic task that throws is never run again: log and keep the limit where it is.
            LOG.warn("Adaptive admission could not read the carriers", e);
        }
    }

    private void readGrowth() {
        int before = queueBound;
        int queued = gate.queued();
        int after = growth.update(queued, gate.finished());
        if (after == before) {
            return;
        }
        queueBound = after;
        gate.boundQueue(this, after);
        if (before == QueueGrowth.UNBOUNDED) {
            LOG.info("The admission queue grew for {} s in a row ({} waiting): from now on at most {} wait, one "
                    + "second of what finishes, and further requests are answered 503", QueueGrowth.GROWING_WINDOWS,
                    queued, after);
        } else if (after == QueueGrowth.UNBOUNDED) {
            LOG.info("The admission queue's bound is lifted ({} waiting)", queued);
        }
    }
}
