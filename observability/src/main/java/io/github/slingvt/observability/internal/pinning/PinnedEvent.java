package io.github.slingvt.observability.internal.pinning;

import java.util.List;

/**
 * One {@code jdk.VirtualThreadPinned} event reduced to what the statistics need. It is the seam between JFR and
 * {@link PinningStats}: tests feed synthetic events, {@link JfrPinningStream} converts recorded ones.
 *
 * @param durationNanos how long the virtual thread was pinned
 * @param threadName name of the pinned virtual thread (may be empty)
 * @param reason why it was pinned, as JFR reports it on JDK 24+ ({@code pinnedReason}); empty if unknown
 * @param frames the stack, top first, already truncated
 */
public record PinnedEvent(long durationNanos, String threadName, String reason, List<String> frames) {

    public PinnedEvent {
        threadName = threadName == null ? "" : threadName;
        reason = reason == null ? "" : reason;
        frames = List.copyOf(frames);
    }
}
