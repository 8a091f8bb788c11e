package io.github.slingvt.http.internal;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import io.github.slingvt.http.api.HttpThreadsSnapshot;
import io.github.slingvt.http.api.RequestListener;
import io.github.slingvt.http.api.ThreadingMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Request accounting, and the {@link RequestListener}s told of the same events. Invariant once idle: admitted +
 * rejected + abandoned = requests seen, completed = admitted.
 */
final class RequestCounters {

    private static final Logger LOG = LoggerFactory.getLogger(RequestCounters.class);
    private static final RequestListener[] NONE = {};

    private final AtomicLong inFlight = new AtomicLong();
    private final AtomicLong peakInFlight = new AtomicLong();
    private final LongAdder admitted = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final LongAdder abandoned = new LongAdder();
    private final LongAdder completed = new LongAdder();
    private final LongAdder virtualDispatched = new LongAdder();
    /** Copy on write: the request path reads one volatile field and walks an array, usually empty or of one. */
    private volatile RequestListener[] listeners = NONE;

    void admitted(boolean onVirtualThread) {
        admitted.increment();
        if (onVirtualThread) {
            virtualDispatched.increment();
        }
        long now = inFlight.incrementAndGet();
        peakInFlight.accumulateAndGet(now, Math::max);
        ThreadingMode kind = kind(onVirtualThread);
        for (RequestListener l : listeners) {
            try {
                l.admitted(kind);
            } catch (RuntimeException e) {
                failed(l, e);
            }
        }
    }

    /** @param nanos from the request's arrival at the handler to its end */
    void completed(boolean onVirtualThread, long nanos) {
        inFlight.decrementAndGet();
        completed.increment();
        for (RequestListener l : listeners) {
            try {
                l.completed(kind(onVirtualThread), nanos);
            } catch (RuntimeException e) {
                failed(l, e);
            }
        }
    }

    void rejected() {
        rejected.increment();
        for (RequestListener l : listeners) {
            try {
                l.rejected();
            } catch (RuntimeException e) {
                failed(l, e);
            }
        }
    }

    void abandoned() {
        abandoned.increment();
        for (RequestListener l : listeners) {
            try {
                l.abandoned();
            } catch (RuntimeException e) {
                failed(l, e);
            }
        }
    }

    synchronized void addListener(RequestListener listener) {
        RequestListener[] next = Arrays.copyOf(listeners, listeners.length + 1);
        next[next.length - 1] = listener;
        listeners = next;
    }

    synchronized void removeListener(RequestListener listener) {
        listeners = Arrays.stream(listeners).filter(l -> l != listener).toArray(RequestListener[]::new);
    }

    private static ThreadingMode kind(boolean onVirtualThread) {
        return onVirtualThread ? ThreadingMode.VIRTUAL : ThreadingMode.KERNEL;
    }

    /** A listener's bug must not fail the request it was told of. */
    private static void failed(RequestListener listener, RuntimeException e) {
        LOG.warn("Request listener {} failed; the request is not affected", listener.getClass().getName(), e);
    }

    HttpThreadsSnapshot snapshot(ThreadingSettings settings, int concurrencyLimit, int queued,
            boolean newestFirst, long refusedConfigurations, String lastConfigurationError) {
        return new HttpThreadsSnapshot(settings.mode(), settings.maxConcurrentRequests(), settings.kernelMaxThreads(),
                inFlight.get(), peakInFlight.get(), queued, admitted.sum(), rejected.sum(), completed.sum(),
                virtualDispatched.sum(), refusedConfigurations, lastConfigurationError, settings.adaptive(),
                concurrencyLimit, abandoned.sum(), 0, newestFirst);
    }
}
