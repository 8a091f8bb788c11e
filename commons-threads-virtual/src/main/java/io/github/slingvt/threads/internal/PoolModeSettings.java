package io.github.slingvt.threads.internal;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A validated, immutable view of {@link VirtualThreadPoolsConfig}. Validation happens here, as a whole, so that a bad
 * configuration can be refused without touching the settings in force.
 */
record PoolModeSettings(PoolMode defaultMode, Map<String, PoolMode> overrides) {

    static final PoolModeSettings DEFAULTS = new PoolModeSettings(PoolMode.VIRTUAL, Map.of());

    PoolModeSettings {
        if (defaultMode == null) {
            throw new IllegalArgumentException("defaultMode is missing; set it to 'virtual' or 'kernel'");
        }
        overrides = Collections.unmodifiableMap(new LinkedHashMap<>(overrides));
    }

    /** @throws IllegalArgumentException with a message that says which value to fix and how */
    static PoolModeSettings from(VirtualThreadPoolsConfig config) {
        PoolMode defaultMode = PoolMode.parse(config.defaultMode(), "defaultMode");
        Map<String, PoolMode> overrides = new LinkedHashMap<>();
        String[] entries = config.poolModes() == null ? new String[0] : config.poolModes();
        for (String entry : entries) {
            // The web console submits an empty field for an empty list row; that is not an error.
            if (entry == null || entry.isBlank()) {
                continue;
            }
            // Split at the last '=' because labels of anonymous pools are free text.
            int eq = entry.lastIndexOf('=');
            String name = eq < 0 ? "" : entry.substring(0, eq).trim();
            if (name.isEmpty()) {
                throw new IllegalArgumentException("poolModes entry '" + entry
                        + "' is not of the form name=virtual or name=kernel");
            }
            PoolMode mode = PoolMode.parse(entry.substring(eq + 1), "poolModes entry '" + entry + "'");
            if (overrides.put(name, mode) != null) {
                throw new IllegalArgumentException("poolModes names pool '" + name
                        + "' more than once; keep one entry per pool");
            }
        }
        return new PoolModeSettings(defaultMode, overrides);
    }

    /** @param label the label of an anonymous pool, or {@code null} for a named pool */
    PoolMode modeFor(String poolName, String label) {
        PoolMode mode = overrides.get(poolName);
        if (mode == null && label != null) {
            mode = overrides.get(label);
        }
        return mode == null ? defaultMode : mode;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("defaultMode=").append(defaultMode.label()).append(", poolModes=[");
        String sep = "";
        for (Map.Entry<String, PoolMode> e : overrides.entrySet()) {
            sb.append(sep).append(e.getKey()).append('=').append(e.getValue().label());
            sep = ", ";
        }
        return sb.append(']').toString();
    }
}
