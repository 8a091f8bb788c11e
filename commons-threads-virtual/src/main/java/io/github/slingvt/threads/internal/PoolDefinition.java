package io.github.slingvt.threads.internal;

import io.github.slingvt.config.ConfigReader;
import org.apache.sling.commons.threads.ModifiableThreadPoolConfig;
import org.apache.sling.commons.threads.ThreadPoolConfig;

/** One validated Apache Sling Thread Pool factory configuration. */
record PoolDefinition(String pid, String name, ThreadPoolConfig config) {

    PoolDefinition {
        // Never hand out the instance we keep: ModifiableThreadPoolConfig is mutable.
        config = new ModifiableThreadPoolConfig(config);
    }

    /**
     * Reads one factory configuration; {@code null} when it names no pool (refused on the reader, so that the guard
     * keeps what this PID had).
     */
    static PoolDefinition read(String pid, ConfigReader r) {
        String name = r.text("name", null);
        ModifiableThreadPoolConfig config = PoolConfigs.fromProperties(r);
        return name == null ? null : new PoolDefinition(pid, name, config);
    }

    @Override
    public ThreadPoolConfig config() {
        return new ModifiableThreadPoolConfig(config);
    }
}
