package io.github.slingvt.http.internal;

import io.github.slingvt.config.ConfigReader;
import io.github.slingvt.http.api.ThreadingMode;

/**
 * A validated, immutable view of {@link VirtualThreadsConfig}. Validation lives here so that a bad configuration
 * is refused as a whole and the settings in force stay untouched.
 */
public record ThreadingSettings(
        ThreadingMode mode,
        int maxConcurrentRequests,
        long queueTimeoutMillis,
        int maxQueuedRequests,
        int retryAfterSeconds,
        int kernelMaxThreads,
        int virtualModePlatformThreads) {

    /** {@code virtualModePlatformThreads} value that lets {@link ServerInstaller} size Jetty's pool. */
    public static final int AUTO = 0;

    public static final ThreadingSettings DEFAULTS =
            new ThreadingSettings(ThreadingMode.VIRTUAL, 0, 2000, 10000, 1, 200, AUTO);

    public ThreadingSettings {
        requireRange("maxConcurrentRequests", maxConcurrentRequests, 0, 1_000_000);
        requireRange("queueTimeout", queueTimeoutMillis, 1, 600_000);
        requireRange("maxQueuedRequests", maxQueuedRequests, 0, 1_000_000);
        requireRange("retryAfterSeconds", retryAfterSeconds, 1, 3600);
        requireRange("kernelMaxThreads", kernelMaxThreads, 8, 100_000);
        if (virtualModePlatformThreads != AUTO) {
            requireRange("virtualModePlatformThreads", virtualModePlatformThreads, 8, 100_000);
        }
        if (mode == null) {
            throw new IllegalArgumentException("mode is missing; set mode to 'virtual' or 'kernel'");
        }
    }

    /**
     * Reads {@link VirtualThreadsConfig}'s properties. Every value is checked here, by type and range, so that
     * {@link io.github.slingvt.config.ConfigGuard} can refuse a bad configuration as a whole with a message per value.
     */
    public static ThreadingSettings read(ConfigReader r) {
        ThreadingMode mode = ThreadingMode.parse(r.option("mode", DEFAULTS.mode.label(), "virtual", "kernel"));
        int platform = r.integer("virtualModePlatformThreads", AUTO, 0, 100_000);
        if (platform != AUTO && platform < 8) {
            r.refuse("virtualModePlatformThreads", "0 (automatic) or a whole number from 8 to 100000");
            platform = AUTO;
        }
        return new ThreadingSettings(mode,
                r.integer("maxConcurrentRequests", DEFAULTS.maxConcurrentRequests, 0, 1_000_000),
                r.number("queueTimeout", DEFAULTS.queueTimeoutMillis, 1, 600_000),
                r.integer("maxQueuedRequests", DEFAULTS.maxQueuedRequests, 0, 1_000_000),
                r.integer("retryAfterSeconds", DEFAULTS.retryAfterSeconds, 1, 3600),
                r.integer("kernelMaxThreads", DEFAULTS.kernelMaxThreads, 8, 100_000),
                platform);
    }

    /** The size Jetty's QueuedThreadPool should have in this mode; {@link #AUTO} lets the installer decide. */
    public int platformThreads() {
        return mode == ThreadingMode.KERNEL ? kernelMaxThreads : virtualModePlatformThreads;
    }

    public boolean bounded() {
        return maxConcurrentRequests > 0;
    }

    private static void requireRange(String name, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(
                    name + "=" + value + " is out of range; set " + name + " to a value from " + min + " to " + max);
        }
    }
}
