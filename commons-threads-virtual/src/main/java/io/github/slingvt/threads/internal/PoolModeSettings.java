package io.github.slingvt.threads.internal;

import io.github.slingvt.threads.api.ThreadPoolMode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.github.slingvt.config.ConfigReader;

/**
 * A validated, immutable view of {@link VirtualThreadPoolsConfig}. Validation happens here, as a whole, so that a bad
 * configuration can be refused without touching the settings in force.
 */
record PoolModeSettings(ThreadPoolMode defaultMode, Map<String, ThreadPoolMode> overrides,
        Set<String> kernelUnlessNamed) {

    /**
     * Pools whose work blocks inside {@code synchronized}, which pins the carrier before JDK 24 (JEP 491). Measured on
     * a Temurin 21 runtime with all pools virtual: Oak's AsyncIndexUpdate (pool {@code oak}) pinned one of the two
     * carriers for 993 ms. On such a JDK they run on platform threads unless {@code poolModes} names them.
     */
    static final Set<String> PINNING_BEFORE_JDK_24 = Set.of("oak");
    static final int JEP_491_JDK = 24;

    static final PoolModeSettings DEFAULTS = new PoolModeSettings(ThreadPoolMode.VIRTUAL, Map.of(),
            kernelUnlessNamed(Runtime.version().feature()));

    PoolModeSettings {
        if (defaultMode == null) {
            throw new IllegalArgumentException("defaultMode is missing; set it to 'virtual' or 'kernel'");
        }
        overrides = Collections.unmodifiableMap(new LinkedHashMap<>(overrides));
        kernelUnlessNamed = Set.copyOf(kernelUnlessNamed);
    }

    /** The pools that default to kernel on a JDK of this feature version. */
    static Set<String> kernelUnlessNamed(int jdkFeature) {
        return jdkFeature < JEP_491_JDK ? PINNING_BEFORE_JDK_24 : Set.of();
    }

    /** Reads {@link VirtualThreadPoolsConfig}; each bad value is refused on the reader, naming its property. */
    static PoolModeSettings read(ConfigReader r) {
        return read(r, Runtime.version().feature());
    }

    static PoolModeSettings read(ConfigReader r, int jdkFeature) {
        ThreadPoolMode defaultMode =
                ThreadPoolMode.parse(r.option("defaultMode", "virtual", "virtual", "kernel"), "defaultMode");
        Map<String, ThreadPoolMode> overrides = new LinkedHashMap<>();
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
            } else if (overrides.put(name, ThreadPoolMode.parse(mode, "poolModes")) != null) {
                r.refuse("poolModes", "each pool name once (pool '" + name + "' appears more than once)");
            }
        }
        return new PoolModeSettings(defaultMode, overrides, kernelUnlessNamed(jdkFeature));
    }

    /** @param label the label of an anonymous pool, or {@code null} for a named pool */
    ThreadPoolMode modeFor(String poolName, String label) {
        ThreadPoolMode mode = overrides.get(poolName);
        if (mode == null && label != null) {
            mode = overrides.get(label);
        }
        if (mode == null && kernelUnlessNamed.contains(poolName)) {
            return ThreadPoolMode.KERNEL;
        }
        return mode == null ? defaultMode : mode;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("defaultMode=").append(defaultMode.label()).append(", poolModes=[");
        String sep = "";
        for (Map.Entry<String, ThreadPoolMode> e : overrides.entrySet()) {
            sb.append(sep).append(e.getKey()).append('=').append(e.getValue().label());
            sep = ", ";
        }
        sb.append(']');
        if (!kernelUnlessNamed.isEmpty()) {
            sb.append(", kernel on this JDK unless named in poolModes (they pin before JDK 24): ")
                    .append(kernelUnlessNamed.stream().sorted().toList());
        }
        return sb.toString();
    }
}
