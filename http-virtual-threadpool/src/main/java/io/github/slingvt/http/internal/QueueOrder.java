package io.github.slingvt.http.internal;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The order in which the {@link AdmissionGate} takes its waiters: first in, first out, as a pool does, unless the
 * oldest waits outlast their clients; then the newest first (adaptive LIFO, Facebook's "Fail at Scale"), because the
 * newest still have their clients and the oldest are about to lose theirs whatever the order. Three signs tell it:
 * <ul>
 * <li>the oldest waiter has waited more than {@link #GROWING_AGE_NANOS} while the queue grows ({@link QueueGrowth}) or
 * while waiting clients keep leaving ({@link Patience#leavingSteadily}): requests arrive faster than the server
 * answers, so that first in, first out would answer every newcomer later than the one before until the waits reach the
 * clients' patience; the newest first answer most within a second and leave the oldest to the clients that are about to
 * go. Without this, an overload was served first in, first out until its oldest waiter reached half the patience, and
 * the p99 of the answers was that half (5.3-5.5 s at repo200 130 % and 200 % in a full benchmark on the 2-core lab
 * host). Once the oldest of an overload leave, the queue stops growing and stands at thousands; served first in, first
 * out until half the patience, the p99 of the answers was that half again (5.1 s at page 130 %, where a pool of 200
 * answered its own in 1.0 s, in a full benchmark). Clients that keep leaving say the same as a growing queue: the
 * oldest waits outlast them. A closed loop keeps its queue level once its clients are connected, and none of them
 * leaves;</li>
 * <li>the oldest waiter has waited more than half of the clients' patience: of the queue timeout, or of the age at
 * which clients keep leaving while others arrive once that is known ({@link Patience}, learned over three seconds);
 * </li>
 * <li>a waiter taken off the queue was found gone at its last look within the last {@link #GONE_AT_ADMISSION_NANOS}:
 * taken first in, first out, it was among the oldest, so the oldest waits already outlast their clients. Without this,
 * the first overload of an instance served its oldest waiters first until the patience was learned, and every answer of
 * those seconds came after its client had left (two seconds without one answer in time, measured at repo200 130 % in a
 * full benchmark). The sign lasts a second and is renewed by every such find, so that a crowd of clients that all leave
 * together (the end of a load) leaves no lasting order behind, as the patience does not either. Why each sign exists:
 * docs/design/admission.md, "Newest first".</li>
 * </ul>
 * Not thread-safe: the gate calls it under its lock.
 */
final class QueueOrder {

    /** How long one waiter found gone as it was taken off the queue makes the newest go first. */
    static final long GONE_AT_ADMISSION_NANOS = TimeUnit.SECONDS.toNanos(1);

    /**
     * How long the oldest waiter must have waited before a growing queue serves the newest first: shorter queues are
     * the bursts of a load below capacity, where the order a pool keeps gives the shorter tail.
     */
    static final long GROWING_AGE_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final Patience patience = new Patience();
    private final QueueGrowth growth = new QueueGrowth();
    private boolean goneAtAdmission;
    private long goneAtAdmissionAt;

    /**
     * A request began to wait at {@code now} (nanoseconds of the gate's clock).
     *
     * @param waitingBefore the requests that waited before it joined
     */
    void arrived(long now, int waitingBefore) {
        patience.arrived(now);
        growth.arrived(now, waitingBefore);
    }

    /** A waiting request's client was found gone by a look while it waited, {@code ageNanos} after it arrived. */
    void departed(long ageNanos, long now) {
        patience.departed(ageNanos, now);
    }

    /** A waiter just taken off the queue was found gone at its last look: a departure, and the newest go first. */
    void goneAtAdmission(long ageNanos, long now) {
        patience.departed(ageNanos, now);
        goneAtAdmission = true;
        goneAtAdmissionAt = now;
    }

    /**
     * Whether the newest waiter goes first now.
     *
     * @param oldestAgeNanos how long the oldest waiter has waited
     * @param timeoutMillis the queue timeout, the clients' patience while none is learned
     * @param clock the gate's clock, read only when the oldest waited more than a second in a queue that does not
     *     grow, or once a waiter was found gone as it was admitted: this runs under the gate's lock whenever a slot
     *     frees while requests wait
     */
    boolean newestFirst(long oldestAgeNanos, long timeoutMillis, LongSupplier clock) {
        if (patience.pastHalf(oldestAgeNanos, timeoutMillis)) {
            return true;
        }
        if (oldestAgeNanos > GROWING_AGE_NANOS
                && (growth.growing() || patience.leavingSteadily(clock.getAsLong()))) {
            return true;
        }
        if (!goneAtAdmission) {
            return false;
        }
        if (clock.getAsLong() - goneAtAdmissionAt < GONE_AT_ADMISSION_NANOS) {
            return true;
        }
        // The second is over: the clock is not read again until the next such find.
        goneAtAdmission = false;
        return false;
    }

    /** The clients' patience, nanoseconds, once known ({@link Patience#nanos()}); 0 before. */
    double patienceNanos() {
        return patience.nanos();
    }

    /** The clients' patience as learned so far, known or not; 0 before any departure. */
    double patienceSeenNanos() {
        return patience.seenNanos();
    }
}
