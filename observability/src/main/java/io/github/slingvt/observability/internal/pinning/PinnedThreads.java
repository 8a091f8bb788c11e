package io.github.slingvt.observability.internal.pinning;

import java.util.List;
import java.util.function.LongConsumer;

/**
 * What the pinning detector has seen, for the console page, the status printer, JMX and the health check of this
 * bundle. A service inside this bundle (not exported): the detector's component owns the figures and restarts
 * with its configuration, and the readers bind to whichever detector is active.
 */
public interface PinnedThreads {

    /** Pinned events counted since the detector started. */
    long count();

    /** The kept stacks, most frequent first. */
    List<PinningStats.StackCount> topStacks();

    /** What the detector does ("streaming ...", "disabled ...", "unavailable ..."). */
    String detectorState();

    /** Tells {@code durationNanos} of every pinned event counted from now on, on the detector's thread (metrics). */
    void addListener(LongConsumer durationNanos);

    void removeListener(LongConsumer durationNanos);
}
