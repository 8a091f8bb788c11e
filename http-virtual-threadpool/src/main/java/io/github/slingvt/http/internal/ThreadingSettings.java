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
        int virtualModePlatformThreads,
        boolean adaptive,
        int adaptiveMinLimit,
        int adaptiveMaxLimit,
        long clientTimeoutMillis,
        int connectionHeaderCache) {

    /** {@code virtualModePlatformThreads} value that lets {@link ServerInstaller} size Jetty's pool. */
    public static final int AUTO = 0;

    /** {@code maxConcurrentRequests} value for adaptive admission. */
    public static final String ADAPTIVE = "auto";
    /** {@code maxConcurrentRequests} value for no admission control, the same as 0. */
    public static final String UNBOUNDED = "unbounded";
    /** How long clients wait for an answer by default: a load balancer's usual timeout. */
    static final long DEFAULT_CLIENT_TIMEOUT_MILLIS = 60_000;
    static final int DEFAULT_ADAPTIVE_MIN = 20;
    static final int DEFAULT_ADAPTIVE_MAX = 1_000_000;
    /** {@code connectionHeaderCache} value that keeps the size Felix configured (Jetty's default, 1,024). */
    public static final int FELIX_HEADER_CACHE = -1;
    /** No header cache per connection: it costs heap per waiting connection and buys nothing measurable (0029). */
    static final int DEFAULT_HEADER_CACHE = 0;

    /** Virtual mode with admission by the carriers ({@value #ADAPTIVE}), decision 0023. */
    public static final ThreadingSettings DEFAULTS = new ThreadingSettings(ThreadingMode.VIRTUAL, 0, 2000, 10000, 1,
            200, AUTO, true, DEFAULT_ADAPTIVE_MIN, DEFAULT_ADAPTIVE_MAX);
    /** What {@code integerOrKeyword} answers when maxConcurrentRequests is absent (or refused): the default, auto. */
    private static final int CAP_ABSENT = -1;

    /** A fixed cap (or none): no adaptive admission. */
    public ThreadingSettings(ThreadingMode mode, int maxConcurrentRequests, long queueTimeoutMillis,
            int maxQueuedRequests, int retryAfterSeconds, int kernelMaxThreads, int virtualModePlatformThreads) {
        this(mode, maxConcurrentRequests, queueTimeoutMillis, maxQueuedRequests, retryAfterSeconds, kernelMaxThreads,
                virtualModePlatformThreads, false, DEFAULT_ADAPTIVE_MIN, DEFAULT_ADAPTIVE_MAX,
                DEFAULT_CLIENT_TIMEOUT_MILLIS, DEFAULT_HEADER_CACHE);
    }

    /** Adaptive admission or not, with the default client timeout. */
    public ThreadingSettings(ThreadingMode mode, int maxConcurrentRequests, long queueTimeoutMillis,
            int maxQueuedRequests, int retryAfterSeconds, int kernelMaxThreads, int virtualModePlatformThreads,
            boolean adaptive, int adaptiveMinLimit, int adaptiveMaxLimit) {
        this(mode, maxConcurrentRequests, queueTimeoutMillis, maxQueuedRequests, retryAfterSeconds, kernelMaxThreads,
                virtualModePlatformThreads, adaptive, adaptiveMinLimit, adaptiveMaxLimit, DEFAULT_CLIENT_TIMEOUT_MILLIS,
                DEFAULT_HEADER_CACHE);
    }

    public ThreadingSettings {
        requireRange("maxConcurrentRequests", maxConcurrentRequests, 0, 1_000_000);
        requireRange("queueTimeout", queueTimeoutMillis, 1, 600_000);
        requireRange("maxQueuedRequests", maxQueuedRequests, 0, 1_000_000);
        requireRange("retryAfterSeconds", retryAfterSeconds, 1, 3600);
        requireRange("kernelMaxThreads", kernelMaxThreads, 8, 100_000);
        if (virtualModePlatformThreads != AUTO) {
            requireRange("virtualModePlatformThreads", virtualModePlatformThreads, 8, 100_000);
        }
        requireRange("adaptiveMinLimit", adaptiveMinLimit, 1, 1_000_000);
        requireRange("adaptiveMaxLimit", adaptiveMaxLimit, adaptiveMinLimit, 1_000_000);
        requireRange("clientTimeout", clientTimeoutMillis / 1000, 1, 3600);
        requireRange("connectionHeaderCache", connectionHeaderCache, FELIX_HEADER_CACHE, 100_000);
        if (adaptive && maxConcurrentRequests != 0) {
            throw new IllegalArgumentException("maxConcurrentRequests is 'auto' or a number, not both");
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
        Integer cap = r.isKeyword("maxConcurrentRequests", UNBOUNDED) ? Integer.valueOf(0)
                : r.integerOrKeyword("maxConcurrentRequests", ADAPTIVE, CAP_ABSENT, 0, 1_000_000);
        if (cap != null && cap == CAP_ABSENT) {
            cap = null; // absent: the default, admission by the carriers (a refused value changes nothing anyway)
        }
        int min = r.integer("adaptiveMinLimit", DEFAULT_ADAPTIVE_MIN, 1, 1_000_000);
        int max = r.integer("adaptiveMaxLimit", DEFAULT_ADAPTIVE_MAX, 1, 1_000_000);
        if (max < min) {
            r.refuse("adaptiveMaxLimit", "a whole number from adaptiveMinLimit (" + min + ") to 1000000");
            max = min;
        }
        return new ThreadingSettings(mode, cap == null ? 0 : cap,
                r.number("queueTimeout", DEFAULTS.queueTimeoutMillis, 1, 600_000),
                r.integer("maxQueuedRequests", DEFAULTS.maxQueuedRequests, 0, 1_000_000),
                r.integer("retryAfterSeconds", DEFAULTS.retryAfterSeconds, 1, 3600),
                r.integer("kernelMaxThreads", DEFAULTS.kernelMaxThreads, 8, 100_000),
                platform, cap == null, min, max,
                1000L * r.integer("clientTimeout", (int) (DEFAULT_CLIENT_TIMEOUT_MILLIS / 1000), 1, 3600),
                r.integer("connectionHeaderCache", DEFAULT_HEADER_CACHE, FELIX_HEADER_CACHE, 100_000));
    }

    /**
     * Kernel mode: the requests that run at once (Jetty's pool gets the connectors' and spare threads beside them,
     * ServerInstaller.platformThreads). Virtual mode: the size of Jetty's pool; {@link #AUTO} lets the installer decide.
     */
    public int platformThreads() {
        return mode == ThreadingMode.KERNEL ? kernelMaxThreads : virtualModePlatformThreads;
    }

    /** Admission control in force: a fixed cap, or the adaptive one. */
    public boolean bounded() {
        return maxConcurrentRequests > 0 || adaptive;
    }

    /** The cap as configured: a number, {@value #ADAPTIVE}, or 0 (unbounded). */
    public String capLabel() {
        return adaptive ? ADAPTIVE : Integer.toString(maxConcurrentRequests);
    }

    private static void requireRange(String name, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(
                    name + "=" + value + " is out of range; set " + name + " to a value from " + min + " to " + max);
        }
    }
}
