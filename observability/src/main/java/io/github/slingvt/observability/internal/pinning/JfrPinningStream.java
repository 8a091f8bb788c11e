package io.github.slingvt.observability.internal.pinning;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingStream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The only class that touches {@code jdk.jfr}: a JFR stream of the JVM's own {@code jdk.VirtualThreadPinned}
 * events above a threshold, with stack traces. {@link PinningDetector} loads it inside a try block, so a framework
 * that does not expose {@code jdk.jfr} to the bundle costs a log line, not the bundle.
 * <p>
 * Cost when nothing pins: the JVM records nothing (the event is only written when a pin lasts longer than the
 * threshold) and the stream's own thread wakes once a second to look for new data, as every JFR stream does.
 */
final class JfrPinningStream implements PinningDetector.Stream {

    static final String EVENT = "jdk.VirtualThreadPinned";
    private static final Logger LOG = LoggerFactory.getLogger(JfrPinningStream.class);
    /** Bounds the stream's on-disk repository; the events are consumed within about a second anyway. */
    private static final Duration MAX_AGE = Duration.ofMinutes(2);
    private static final long MAX_SIZE_BYTES = 16L * 1024 * 1024;

    private final RecordingStream stream;

    private JfrPinningStream(RecordingStream stream) {
        this.stream = stream;
    }

    /** Starts streaming; each event reaches {@code sink} with at most {@code maxDepth} frames. */
    static JfrPinningStream start(Duration threshold, int maxDepth, Consumer<PinnedEvent> sink) {
        RecordingStream stream = new RecordingStream();
        try {
            stream.enable(EVENT).withThreshold(threshold).withStackTrace();
            stream.setMaxAge(MAX_AGE);
            stream.setMaxSize(MAX_SIZE_BYTES);
            stream.setReuse(true);
            stream.onEvent(EVENT, e -> sink.accept(convert(e, maxDepth)));
            stream.onError(t -> LOG.warn("JFR stream of {} failed: {}", EVENT, t.toString()));
            stream.startAsync();
            return new JfrPinningStream(stream);
        } catch (RuntimeException e) {
            stream.close();
            throw e;
        }
    }

    static PinnedEvent convert(RecordedEvent event, int maxDepth) {
        RecordedThread thread = event.getThread();
        String name = thread == null ? "" : thread.getJavaName();
        String reason = event.hasField("pinnedReason") ? event.getString("pinnedReason") : "";
        return new PinnedEvent(event.getDuration().toNanos(), name, reason, frames(event.getStackTrace(), maxDepth));
    }

    private static List<String> frames(RecordedStackTrace trace, int maxDepth) {
        List<String> frames = new ArrayList<>();
        if (trace == null) {
            frames.add("<no stack trace recorded>");
            return frames;
        }
        for (RecordedFrame frame : trace.getFrames()) {
            if (frames.size() == maxDepth) {
                frames.add("...");
                return frames;
            }
            String method = frame.getMethod() == null ? "<unknown>"
                    : frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
            frames.add(method + (frame.isJavaFrame() ? "(line " + frame.getLineNumber() + ")" : "(native)"));
        }
        if (trace.isTruncated()) {
            frames.add("...");
        }
        return frames;
    }

    @Override
    public boolean close(Duration wait) {
        stream.close();
        try {
            // close() already stopped it; this only bounds the wait for the stream's thread to finish.
            stream.awaitTermination(wait);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
