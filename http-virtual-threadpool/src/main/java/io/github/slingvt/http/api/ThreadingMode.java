package io.github.slingvt.http.api;

import java.util.Locale;

/** Where request handling runs. */
public enum ThreadingMode {
    /** Each request on a new virtual thread. */
    VIRTUAL,
    /** Requests on Jetty's platform thread pool, as without Sling VT. */
    KERNEL;

    /**
     * @param value {@code virtual} or {@code kernel}, any case, surrounding blanks ignored
     * @throws IllegalArgumentException naming the property {@code mode} and the allowed values
     */
    public static ThreadingMode parse(String value) {
        String normalized = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        return switch (normalized) {
            case "virtual" -> VIRTUAL;
            case "kernel" -> KERNEL;
            default -> throw new IllegalArgumentException(
                    "mode='" + value + "' is not supported; set mode to 'virtual' or 'kernel'");
        };
    }

    /** The configuration value: {@code virtual} or {@code kernel}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
