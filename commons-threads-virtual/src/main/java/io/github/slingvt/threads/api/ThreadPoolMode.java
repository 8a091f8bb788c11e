package io.github.slingvt.threads.api;

import java.util.Locale;

/** How the tasks of a thread pool are run. */
public enum ThreadPoolMode {

    /** Every task on a new virtual thread, admission capped by maxPoolSize. */
    VIRTUAL,

    /** A ThreadPoolExecutor of platform threads, as Sling's own implementation does. */
    KERNEL;

    /** The configuration value: {@code virtual} or {@code kernel}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param where names the setting in the error message, so that the log or the HTTP answer says what to fix
     * @throws IllegalArgumentException if the value is neither {@code virtual} nor {@code kernel} (any case)
     */
    public static ThreadPoolMode parse(String value, String where) {
        String normalized = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        for (ThreadPoolMode mode : values()) {
            if (mode.label().equals(normalized)) {
                return mode;
            }
        }
        throw new IllegalArgumentException(
                where + " has the invalid mode '" + value + "'; use 'virtual' or 'kernel'");
    }
}
