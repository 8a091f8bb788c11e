package io.github.slingvt.threads.internal;

import java.util.concurrent.atomic.AtomicLong;

/** Totals of one pool name; shared by its successive executors so that a kernel/virtual switch keeps the history. */
final class PoolCounters {

    private final AtomicLong completed = new AtomicLong();
    private final AtomicLong rejected = new AtomicLong();

    void completed() {
        completed.incrementAndGet();
    }

    void rejected() {
        rejected.incrementAndGet();
    }

    long completedCount() {
        return completed.get();
    }

    long rejectedCount() {
        return rejected.get();
    }
}
