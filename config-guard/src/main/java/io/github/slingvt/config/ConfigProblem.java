package io.github.slingvt.config;

import java.util.Objects;

/**
 * One refused value of a configuration.
 *
 * @param pid the configuration's PID (for a factory configuration its full {@code factory~name} PID)
 * @param property the property name, or {@code *} when the settings as a whole were refused
 * @param value the value as it was given, {@code [a, b]} for a list
 * @param allowed what the property accepts, written for the operator who fixes it
 */
public record ConfigProblem(String pid, String property, String value, String allowed) {

    public ConfigProblem {
        Objects.requireNonNull(pid, "pid");
        Objects.requireNonNull(property, "property");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(allowed, "allowed");
    }

    /** {@code PID: property 'name' = 'value' refused; allowed: ...}. */
    public String message() {
        return pid + ": property '" + property + "' = '" + value + "' refused; allowed: " + allowed;
    }
}
