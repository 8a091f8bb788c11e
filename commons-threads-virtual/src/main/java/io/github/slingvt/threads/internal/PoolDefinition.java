package io.github.slingvt.threads.internal;

import org.apache.sling.commons.threads.ModifiableThreadPoolConfig;
import org.apache.sling.commons.threads.ThreadPoolConfig;

/** One validated Apache Sling Thread Pool factory configuration. */
record PoolDefinition(String pid, String name, ThreadPoolConfig config) {

    PoolDefinition {
        // Never hand out the instance we keep: ModifiableThreadPoolConfig is mutable.
        config = new ModifiableThreadPoolConfig(config);
    }

    /** @throws IllegalArgumentException naming the property to fix */
    static PoolDefinition from(String pid, ThreadPoolFactoryConfig config) {
        String name = config.name() == null ? "" : config.name().trim();
        if (name.isEmpty()) {
            throw new IllegalArgumentException("property 'name' is missing or empty; set it to the pool name that "
                    + "consumers pass to ThreadPoolManager.get(name)");
        }
        return new PoolDefinition(pid, name, PoolConfigs.fromFactoryConfig(config));
    }

    @Override
    public ThreadPoolConfig config() {
        return new ModifiableThreadPoolConfig(config);
    }
}
