package io.github.slingvt.observability.internal.pinning;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

import io.github.slingvt.config.ConfigGuard;
import io.github.slingvt.config.ConfigReader;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.Designate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Detects virtual threads pinned to their carrier: streams JFR {@code jdk.VirtualThreadPinned} events of this JVM
 * (every virtual thread, not only HTTP requests) into {@link PinningStats}, which the status JSON
 * ({@code pinnedEvents}), JMX, the console page and the health check read as {@link PinnedThreads}. A configuration
 * change restarts the stream with the new settings in place ({@code @Modified}) and keeps the counts: the service
 * stays registered, so the components that read it (the console page and the status printers among them) are not
 * restarted with it, and the health check's rates see no count fall back to zero.
 */
@Component(service = PinnedThreads.class, immediate = true, configurationPid = PinningDetectorConfig.PID,
        configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = PinningDetectorConfig.class)
public final class PinningDetector implements PinnedThreads {

    /**
     * JFR's own default depth: deep enough to reach the monitor owner below the JDK's park frames, a JDBC driver and a
     * pool's proxies (40 stopped short of Oak's document cache in a PostgreSQL read), small enough to read in a log.
     */
    static final int MAX_DEPTH = 64;
    static final Duration STOP_WAIT = Duration.ofSeconds(5);
    private static final Logger LOG = LoggerFactory.getLogger(PinningDetector.class);

    private final ConfigGuard guard;
    private final PinningStats stats = new PinningStats();
    /** The running stream, or {@code null}; guarded by {@code this} (DS calls activate, modified, deactivate in turn). */
    private Stream stream;

    /** Raw properties, read through the guard: a value of the wrong type must not leave the detector unregistered. */
    @Activate
    public PinningDetector(@Reference ConfigGuard guard, Map<String, Object> properties) {
        this.guard = guard;
        apply(properties);
    }

    @Modified
    synchronized void modified(Map<String, Object> properties) {
        stop();
        apply(properties);
    }

    @Deactivate
    synchronized void deactivate() {
        stop();
        stats.detectorState("not running");
    }

    private synchronized void apply(Map<String, Object> properties) {
        Settings settings = guard.read(PinningDetectorConfig.PID, properties, Settings::read);
        stats.setMaxStacks(settings.maxStacks());
        if (settings.enabled()) {
            stream = start(settings.thresholdMillis());
        } else {
            stats.detectorState("disabled by configuration " + PinningDetectorConfig.PID);
        }
    }

    private void stop() {
        if (stream != null && !stream.close(STOP_WAIT)) {
            LOG.warn("The JFR stream of {} did not stop within {} s", JfrPinningStream.EVENT, STOP_WAIT.toSeconds());
        }
        stream = null;
    }

    @Override
    public void addListener(LongConsumer durationNanos) {
        stats.addListener(durationNanos);
    }

    @Override
    public void removeListener(LongConsumer durationNanos) {
        stats.removeListener(durationNanos);
    }

    @Override
    public long count() {
        return stats.count();
    }

    @Override
    public List<PinningStats.StackCount> topStacks() {
        return stats.topStacks();
    }

    @Override
    public String detectorState() {
        return stats.detectorState();
    }

    private Stream start(long thresholdMillis) {
        try {
            Stream started = JfrPinningStream.start(Duration.ofMillis(thresholdMillis), MAX_DEPTH, stats::record);
            String state = "streaming " + JfrPinningStream.EVENT + " >= " + thresholdMillis + " ms";
            stats.detectorState(state);
            LOG.info("Pinning detector {}", state);
            return started;
        } catch (LinkageError e) {
            // The framework does not wire jdk.jfr to this bundle (its import is optional).
            String state = "unavailable: package jdk.jfr.consumer is not visible to this bundle (" + e + "); export it "
                    + "from the system bundle (org.osgi.framework.system.packages.extra) or add jdk.jfr.* to "
                    + "org.osgi.framework.bootdelegation";
            stats.detectorState(state);
            LOG.warn("Pinning detector {}", state);
            return null;
        } catch (RuntimeException e) {
            // JFR itself may be off in this JVM (-XX:-FlightRecorder) or refuse a recording.
            String state = "unavailable: JFR refused the stream (" + e + ")";
            stats.detectorState(state);
            LOG.warn("Pinning detector {}", state);
            return null;
        }
    }

    /** A running event stream; an interface so that this class never names a jdk.jfr type. */
    interface Stream {
        /** Stops the stream, waiting at most {@code wait} for its thread; answers whether it ended in time. */
        boolean close(Duration wait);
    }

    /** The validated {@link PinningDetectorConfig}. */
    record Settings(boolean enabled, long thresholdMillis, int maxStacks) {
        static Settings read(ConfigReader r) {
            return new Settings(r.bool("enabled", true), r.number("thresholdMillis", 20, 1, 60_000),
                    r.integer("maxStacks", 20, 1, 1000));
        }
    }
}
