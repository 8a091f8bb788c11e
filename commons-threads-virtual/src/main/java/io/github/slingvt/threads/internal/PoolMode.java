package io.github.slingvt.threads.internal;

import java.util.Locale;

/** How the tasks of a thread pool are run. */
enum PoolMode {

    /** Every task on a new virtual thread, admission capped by maxPoolSize. */
    VIRTUAL("virtual"),

    /** A ThreadPoolExecutor of platform threads, as Sling's own implementation does. */
    KERNEL("kernel");

    private final String label;

    PoolMode(String label) {
        this.label = label;
    }

    String label() {
        return label;
    }

    /**
     * @param where names the setting in the error message, so that the log says what to fix
     * @throws IllegalArgumentException if the value is neither {@code virtual} nor {@code kernel}
     */
    static PoolMode parse(String value, String where) {
        String normalized = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        for (PoolMode mode : values()) {
            if (mode.label.equals(normalized)) {
                return mode;
            }
        }
        throw new IllegalArgumentException(
                where + " has the invalid mode '" + value + "'; use 'virtual' or 'kernel'");
    }
}
