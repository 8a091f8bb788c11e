package io.github.slingvt.threads.internal;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.slingvt.config.ConfigReader;

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

    /** Reads {@link VirtualThreadPoolsConfig}; each bad value is refused on the reader, naming its property. */
    static PoolModeSettings read(ConfigReader r) {
        PoolMode defaultMode = PoolMode.parse(r.option("defaultMode", "virtual", "virtual", "kernel"), "defaultMode");
        Map<String, PoolMode> overrides = new LinkedHashMap<>();
        for (String entry : r.texts("poolModes", List.of())) {
            // The web console submits an empty field for an empty list row; that is not an error.
            if (entry.isBlank()) {
                continue;
            }
            // Split at the last '=' because labels of anonymous pools are free text.
            int eq = entry.lastIndexOf('=');
            String name = eq < 0 ? "" : entry.substring(0, eq).trim();
            String mode = eq < 0 ? "" : entry.substring(eq + 1).trim();
            if (name.isEmpty() || !(mode.equalsIgnoreCase("virtual") || mode.equalsIgnoreCase("kernel"))) {
                r.refuse("poolModes", "entries of the form name=virtual or name=kernel (entry '" + entry
                        + "' is not)");
            } else if (overrides.put(name, PoolMode.parse(mode, "poolModes")) != null) {
                r.refuse("poolModes", "each pool name once (pool '" + name + "' appears more than once)");
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
