package io.github.slingvt.jdbc.internal;

import java.util.concurrent.atomic.LongAdder;

import io.github.slingvt.jdbc.RoundTrips;
import org.osgi.service.component.annotations.Component;

/**
 * The counts behind {@link RoundTrips}: one counter per thread (a thread-local, which a virtual request thread owns
 * alone) and one for all threads. Static, because every {@link CountingDataSource} of this bundle adds to the same
 * counts, and the service only reads them.
 */
@Component(service = RoundTrips.class)
public final class ThreadCounts implements RoundTrips {

    private static final ThreadLocal<long[]> PER_THREAD = ThreadLocal.withInitial(() -> new long[1]);
    private static final LongAdder TOTAL = new LongAdder();

    static void borrowed() {
        PER_THREAD.get()[0]++;
        TOTAL.increment();
    }

    @Override
    public long onThisThread() {
        return PER_THREAD.get()[0];
    }

    @Override
    public long total() {
        return TOTAL.sum();
    }
}
