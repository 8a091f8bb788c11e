package io.github.slingvt.observability.internal.health;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Per-minute rates of two ever-growing counters (rejected requests, pinned events) over roughly the last
 * {@code interval}, from samples taken whenever the health check runs: no timer of its own. The baseline is the
 * newest sample at least one interval old, or the oldest one if none is that old yet; the delta is divided by
 * the elapsed time but never by less than the interval, so a single event right after start does not look like a
 * burst. At most one sample per {@link #MIN_SPACING_NANOS} is kept, which bounds memory however often the check
 * runs.
 */
final class RateWindow {

    static final long MIN_SPACING_NANOS = 1_000_000_000L;
    private static final double NANOS_PER_MINUTE = 60e9;

    private final long intervalNanos;
    private final Deque<Sample> samples = new ArrayDeque<>();

    /** {@code first} is the baseline at activation, so the first check already covers the time since then. */
    RateWindow(long intervalNanos, long nowNanos, long rejected, long pinned) {
        this.intervalNanos = intervalNanos;
        samples.add(new Sample(nowNanos, rejected, pinned));
    }

    /** Records the current counters and answers the rates over the window ending now. */
    synchronized Rates sample(long nowNanos, long rejected, long pinned) {
        while (samples.size() > 1 && nowNanos - secondOldest().nanos() >= intervalNanos) {
            samples.removeFirst();
        }
        Sample base = samples.peekFirst();
        if (nowNanos - samples.peekLast().nanos() >= MIN_SPACING_NANOS) {
            samples.addLast(new Sample(nowNanos, rejected, pinned));
        }
        double minutes = Math.max(nowNanos - base.nanos(), intervalNanos) / NANOS_PER_MINUTE;
        // A counter only grows; a smaller value means it restarted, and then everything counted is new.
        long rejectedDelta = rejected >= base.rejected() ? rejected - base.rejected() : rejected;
        long pinnedDelta = pinned >= base.pinned() ? pinned - base.pinned() : pinned;
        return new Rates(rejectedDelta / minutes, pinnedDelta / minutes, rejectedDelta, pinnedDelta,
                (nowNanos - base.nanos()) / 1_000_000_000L);
    }

    synchronized int size() {
        return samples.size();
    }

    private Sample secondOldest() {
        var it = samples.iterator();
        it.next();
        return it.next();
    }

    private record Sample(long nanos, long rejected, long pinned) {
    }

    /** Rates per minute, the raw deltas and the seconds they cover. */
    record Rates(double rejectedPerMinute, double pinnedPerMinute, long rejected, long pinned, long seconds) {
    }
}
