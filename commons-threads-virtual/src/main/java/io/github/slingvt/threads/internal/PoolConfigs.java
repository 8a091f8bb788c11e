package io.github.slingvt.threads.internal;

import java.util.Locale;

import org.apache.sling.commons.threads.ModifiableThreadPoolConfig;
import org.apache.sling.commons.threads.ThreadPoolConfig;
import org.apache.sling.commons.threads.ThreadPoolConfig.ThreadPoolPolicy;
import org.apache.sling.commons.threads.ThreadPoolConfig.ThreadPriority;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Reads and corrects thread pool settings the way Apache Sling Commons Threads 3.3.0 does. */
final class PoolConfigs {

    private static final Logger LOG = LoggerFactory.getLogger(PoolConfigs.class);

    private PoolConfigs() {
    }

    /**
     * The settings a pool actually runs with. Sling applies these corrections too (and reports them through
     * getConfiguration()); the ones Sling would crash on (maxPoolSize 0, min above max, no policy) are corrected
     * here instead, so that a bad configuration cannot leave a consumer such as Quartz without a pool.
     */
    static ModifiableThreadPoolConfig effective(String poolName, ThreadPoolConfig configured) {
        ModifiableThreadPoolConfig c = new ModifiableThreadPoolConfig(configured);
        if (c.getBlockPolicy() == null) {
            c.setBlockPolicy(ThreadPoolPolicy.RUN);
        }
        if (c.getPriority() == null) {
            c.setPriority(ThreadPriority.NORM);
        }
        if (c.getMinPoolSize() < 0) {
            LOG.warn("minPoolSize {} < 0 for thread pool {}; using 1", c.getMinPoolSize(), poolName);
            c.setMinPoolSize(1);
        }
        if (c.getMaxPoolSize() < 0) {
            c.setMaxPoolSize(Integer.MAX_VALUE);
        } else if (c.getMaxPoolSize() == 0) {
            LOG.warn("maxPoolSize 0 for thread pool {} would never run a task; using 1. Set maxPoolSize to 1 or more "
                    + "(or -1 for unlimited)", poolName);
            c.setMaxPoolSize(1);
        }
        if (c.getMinPoolSize() > c.getMaxPoolSize()) {
            LOG.warn("minPoolSize {} > maxPoolSize {} for thread pool {}; using {}",
                    c.getMinPoolSize(), c.getMaxPoolSize(), poolName, c.getMaxPoolSize());
            c.setMinPoolSize(c.getMaxPoolSize());
        }
        if (c.getKeepAliveTime() < 0) {
            LOG.warn("keepAliveTime {} < 0 for thread pool {}; using 1000", c.getKeepAliveTime(), poolName);
            c.setKeepAliveTime(1000);
        }
        return c;
    }

    /** Same comparison Sling uses to decide whether a configuration update needs a new executor. */
    static boolean sameSettings(ThreadPoolConfig a, ThreadPoolConfig b) {
        return effective("", a).equals(effective("", b)) && a.getFactory() == b.getFactory();
    }

    /** @throws IllegalArgumentException naming the property to fix */
    static ModifiableThreadPoolConfig fromFactoryConfig(ThreadPoolFactoryConfig config) {
        ModifiableThreadPoolConfig c = new ModifiableThreadPoolConfig();
        c.setMinPoolSize(config.minPoolSize());
        c.setMaxPoolSize(config.maxPoolSize());
        c.setQueueSize(config.queueSize());
        c.setKeepAliveTime(config.keepAliveTime());
        c.setBlockPolicy(parse(ThreadPoolPolicy.class, "blockPolicy", config.blockPolicy()));
        c.setShutdownGraceful(config.shutdownGraceful());
        c.setDaemon(config.daemon());
        c.setShutdownWaitTimeMs(config.shutdownWaitTime());
        c.setPriority(parse(ThreadPriority.class, "priority", config.priority()));
        return c;
    }

    static <E extends Enum<E>> E parse(Class<E> type, String property, String value) {
        String normalized = value == null ? "" : value.trim().toUpperCase(Locale.ROOT);
        for (E constant : type.getEnumConstants()) {
            if (constant.name().equals(normalized)) {
                return constant;
            }
        }
        StringBuilder allowed = new StringBuilder();
        for (E constant : type.getEnumConstants()) {
            allowed.append(allowed.length() == 0 ? "" : ", ").append(constant.name());
        }
        throw new IllegalArgumentException(property + " '" + value + "' is invalid; use one of " + allowed);
    }
}
