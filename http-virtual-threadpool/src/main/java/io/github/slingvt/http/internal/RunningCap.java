package io.github.slingvt.http.internal;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The requests running under the {@link AdmissionGate} and their cap, lock-free. A slot is taken only by
 * compare-and-set below the cap, wherever it is taken: the gate's fast path takes one without the gate's lock while
 * its queue takes them under it, and a read of the count followed by an increment would let both take the last slot.
 */
final class RunningCap {

    private final AtomicInteger running = new AtomicInteger();
    /** {@link Integer#MAX_VALUE} when unbounded; volatile, so that the fast path reads it without a lock. */
    private volatile int cap = Integer.MAX_VALUE;

    /** Takes a slot if one is free under the cap. */
    boolean take() {
        while (true) {
            int now = running.get();
            if (now >= cap) {
                return false;
            }
            if (running.compareAndSet(now, now + 1)) {
                return true;
            }
        }
    }

    /** Whether a slot is free now (it may be taken by the time the caller takes it). */
    boolean free() {
        return running.get() < cap;
    }

    /** Counts a request that runs whatever the cap (one already on its thread, an admin request). */
    void count() {
        running.incrementAndGet();
    }

    /** Gives back a slot taken or counted. */
    void giveBack() {
        running.decrementAndGet();
    }

    int running() {
        return running.get();
    }

    int cap() {
        return cap;
    }

    /** A lower cap is honoured as running requests give their slots back. */
    void cap(int cap) {
        this.cap = cap;
    }
}
