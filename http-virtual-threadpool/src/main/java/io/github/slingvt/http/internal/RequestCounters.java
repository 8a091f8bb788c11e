package io.github.slingvt.http.internal;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import io.github.slingvt.http.api.HttpThreadsSnapshot;

/** Request accounting. Invariant once idle: admitted + rejected + abandoned = requests seen, completed = admitted. */
final class RequestCounters {

    private final AtomicLong inFlight = new AtomicLong();
    private final AtomicLong peakInFlight = new AtomicLong();
    private final LongAdder admitted = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final LongAdder abandoned = new LongAdder();
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

    void abandoned() {
        abandoned.increment();
    }

    HttpThreadsSnapshot snapshot(ThreadingSettings settings, int concurrencyLimit, int queued,
            long refusedConfigurations, String lastConfigurationError) {
        return new HttpThreadsSnapshot(settings.mode(), settings.maxConcurrentRequests(), settings.kernelMaxThreads(),
                inFlight.get(), peakInFlight.get(), queued, admitted.sum(), rejected.sum(), completed.sum(),
                virtualDispatched.sum(), refusedConfigurations, lastConfigurationError, settings.adaptive(),
                concurrencyLimit, abandoned.sum());
    }
}
