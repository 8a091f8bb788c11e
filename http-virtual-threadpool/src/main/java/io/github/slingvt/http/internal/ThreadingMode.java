package io.github.slingvt.http.internal;

import java.util.Locale;

/** Where request handling runs. */
public enum ThreadingMode {
    VIRTUAL,
    KERNEL;

    static ThreadingMode parse(String value) {
        String normalized = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        return switch (normalized) {
            case "virtual" -> VIRTUAL;
            case "kernel" -> KERNEL;
            default -> throw new IllegalArgumentException(
                    "mode='" + value + "' is not supported; set mode to 'virtual' or 'kernel'");
        };
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
