package io.github.slingvt.observability.internal.pinning;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts pinned virtual threads and keeps the most frequent distinct stacks, bounded in memory whatever the
 * workload: at most {@code maxStacks} stacks with counts, and a bounded memory of stacks already logged, so the
 * WARN with the full stack appears once per distinct stack rather than once per event.
 * <p>
 * Events arrive on one JFR thread and are rare; readers (console, JMX, health check) may read at any time, so
 * the stack table is guarded by this object's monitor and the total count is lock-free.
 */
public final class PinningStats implements PinnedThreads {

    static final int DEFAULT_MAX_STACKS = 20;
    /** Stacks remembered as "already logged"; beyond this the oldest may be logged again, which is harmless. */
    static final int MAX_LOGGED_STACKS = 1000;
    private static final Logger LOG = LoggerFactory.getLogger(PinningStats.class);

    private final AtomicLong count = new AtomicLong();
    private final List<LongConsumer> listeners = new CopyOnWriteArrayList<>();
    private final Map<List<String>, StackCount> stacks = new HashMap<>();
    private final Map<List<String>, Boolean> logged = new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<List<String>, Boolean> eldest) {
            return size() > MAX_LOGGED_STACKS;
        }
    };
    private int maxStacks = DEFAULT_MAX_STACKS;
    private volatile String detectorState = "not running";

    /** Counts the event; logs its stack at WARN the first time that stack is seen. Answers whether it logged. */
    public boolean record(PinnedEvent event) {
        count.incrementAndGet();
        listeners.forEach(l -> l.accept(event.durationNanos()));
        boolean first;
        synchronized (this) {
            StackCount known = stacks.get(event.frames());
            if (known != null) {
                stacks.put(event.frames(), known.plus(event));
            } else {
                evictIfFull();
                stacks.put(event.frames(), StackCount.first(event));
            }
            first = logged.put(event.frames(), Boolean.TRUE) == null;
        }
        if (first) {
            LOG.warn("Virtual thread {} was pinned to its carrier for {} ms{} (logged once per distinct stack; "
                    + "counts on the Virtual Threads console page):\n\tat {}", event.threadName(),
                    event.durationNanos() / 1_000_000, event.reason().isEmpty() ? "" : ", reason: " + event.reason(),
                    String.join("\n\tat ", event.frames()));
        }
        return first;
    }

    @Override
    public void addListener(LongConsumer durationNanos) {
        listeners.add(durationNanos);
    }

    @Override
    public void removeListener(LongConsumer durationNanos) {
        listeners.remove(durationNanos);
    }

    @Override
    public long count() {
        return count.get();
    }

    @Override
    public synchronized List<StackCount> topStacks() {
        List<StackCount> top = new ArrayList<>(stacks.values());
        top.sort(Comparator.comparingLong(StackCount::count).reversed());
        return top;
    }

    /** Changes the bound; the least frequent stacks go if there are now too many. */
    public synchronized void setMaxStacks(int max) {
        maxStacks = Math.max(1, max);
        while (stacks.size() > maxStacks) {
            evictLeastFrequent();
        }
    }

    @Override
    public String detectorState() {
        return detectorState;
    }

    void detectorState(String state) {
        detectorState = state;
    }

    private void evictIfFull() {
        if (stacks.size() >= maxStacks) {
            evictLeastFrequent();
        }
    }

    // A linear scan over at most maxStacks entries, on an already rare event: cheaper than keeping a heap in order.
    private void evictLeastFrequent() {
        stacks.values().stream().min(Comparator.comparingLong(StackCount::count))
                .ifPresent(least -> stacks.remove(least.frames()));
    }

    /**
     * One distinct stack: how often it pinned, the longest pin, and the reason and thread name of its first event
     * (the thread name says which pool, and so which configuration line moves it to platform threads).
     */
    public record StackCount(List<String> frames, String reason, long count, long maxDurationNanos, String thread) {

        static StackCount first(PinnedEvent event) {
            return new StackCount(event.frames(), event.reason(), 1, event.durationNanos(), event.threadName());
        }

        StackCount plus(PinnedEvent event) {
            return new StackCount(frames, reason, count + 1, Math.max(maxDurationNanos, event.durationNanos()), thread);
        }
    }
}
