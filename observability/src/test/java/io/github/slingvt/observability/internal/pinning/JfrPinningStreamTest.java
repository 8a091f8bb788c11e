package io.github.slingvt.observability.internal.pinning;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

/**
 * Real JFR: a virtual thread that sleeps inside a class initializer stays pinned on JDK 21 and on JDK 24+ alike
 * (JEP 491 unpinned {@code synchronized}, but {@code <clinit>} runs under a native VM frame), so it reliably
 * produces a {@code jdk.VirtualThreadPinned} event.
 */
class JfrPinningStreamTest {

    static final class SlowInit {
        static {
            try {
                Thread.sleep(60);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        static void touch() {
            // Triggers the initializer.
        }
    }

    @Test
    void streamsAPinnedVirtualThreadWithItsStack() throws Exception {
        List<PinnedEvent> events = new CopyOnWriteArrayList<>();
        PinningDetector.Stream stream = JfrPinningStream.start(Duration.ofMillis(20), PinningDetector.MAX_DEPTH,
                events::add);
        try {
            Thread.ofVirtual().name("pin-me").start(SlowInit::touch).join();
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (events.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
        } finally {
            assertThat(stream.close(Duration.ofSeconds(5))).isTrue();
        }
        assertThat(events).isNotEmpty();
        PinnedEvent event = events.get(0);
        assertThat(event.threadName()).isEqualTo("pin-me");
        assertThat(event.durationNanos()).isGreaterThanOrEqualTo(20_000_000);
        assertThat(event.frames()).hasSizeLessThanOrEqualTo(PinningDetector.MAX_DEPTH + 1)
                .anyMatch(f -> f.contains("SlowInit.<clinit>"));
    }

    /**
     * A 30 ms pin and a 600 ms pin in one stream whose threshold is 250 ms: only the long one is reported. The long
     * one is the positive control: without it a stream that records nothing at all would pass.
     */
    @Test
    void shortPinsStayBelowTheThreshold() throws Exception {
        List<PinnedEvent> events = new CopyOnWriteArrayList<>();
        PinningDetector.Stream stream = JfrPinningStream.start(Duration.ofMillis(250), PinningDetector.MAX_DEPTH,
                events::add);
        try {
            Thread.ofVirtual().name("short-pin").start(FastInit::touch).join();
            Thread.ofVirtual().name("long-pin").start(LongInit::touch).join();
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (events.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            // Events arrive in order of their end; give a short pin reported by mistake time to arrive as well.
            Thread.sleep(500);
        } finally {
            stream.close(Duration.ofSeconds(5));
        }
        assertThat(events).extracting(PinnedEvent::threadName).as("only the pin above the threshold")
                .containsExactly("long-pin");
        assertThat(events.get(0).durationNanos()).isGreaterThanOrEqualTo(250_000_000L);
    }

    static final class LongInit {
        static {
            try {
                Thread.sleep(600);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        static void touch() {
            // Triggers the initializer.
        }
    }

    static final class FastInit {
        static {
            try {
                Thread.sleep(30);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        static void touch() {
            // Triggers the initializer.
        }
    }
}
