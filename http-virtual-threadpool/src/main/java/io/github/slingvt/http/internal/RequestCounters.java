package io.github.slingvt.http.internal;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/** Request accounting. Invariant once idle: admitted + rejected = requests seen, completed = admitted. */
public final class RequestCounters {

    private final AtomicLong inFlight = new AtomicLong();
    private final AtomicLong peakInFlight = new AtomicLong();
    private final LongAdder admitted = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final LongAdder completed = new LongAdder();
    private final LongAdder virtualDispatched = new LongAdder();

    void admitted(boolean onVirtualThread) {
        admitted.increment();
        if (onVirtualThread) {
            virtualDispatched.increment();
        }
        long now = inFlight.incrementAndGet();
        peakInFlight.accumulateAndGet(now, Math::max);
    }

    void completed() {
        inFlight.decrementAndGet();
        completed.increment();
    }

    void rejected() {
        rejected.increment();
    }

    /** {@code pinnedEvents} comes from the pinning detector, which counts for the whole JVM, not per request. */
    public Snapshot snapshot(ThreadingMode mode, int queued, long pinnedEvents) {
        return new Snapshot(mode.label(), inFlight.get(), peakInFlight.get(), admitted.sum(), rejected.sum(),
                completed.sum(), virtualDispatched.sum(), queued, pinnedEvents);
    }

    /** Counter values at one moment; {@code mode} is the mode in force when they were read. */
    public record Snapshot(String mode, long inFlight, long peakInFlight, long admitted, long rejected,
            long completed, long virtualThreadsStarted, int queued, long pinnedEvents) {

        public String toJson() {
            return members() + "}";
        }

        /** The same object with one more member whose value is JSON already (the scheduler figures). */
        public String toJson(String name, String jsonValue) {
            return members() + "," + JsonText.quote(name) + ":" + jsonValue + "}";
        }

        private String members() {
            return "{\"mode\":\"" + mode + "\",\"inFlight\":" + inFlight + ",\"peakInFlight\":" + peakInFlight
                    + ",\"admitted\":" + admitted + ",\"rejected\":" + rejected + ",\"completed\":" + completed
                    + ",\"virtualThreadsStarted\":" + virtualThreadsStarted + ",\"queued\":" + queued
                    + ",\"pinnedEvents\":" + pinnedEvents;
        }
    }
}
