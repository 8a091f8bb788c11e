package io.github.slingvt.threads.internal;

import io.github.slingvt.config.ConfigReader;

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

    /**
     * The properties of a factory configuration, as Sling's ModifiableThreadPoolConfig(Map) reads them, with the
     * defaults a Sling pool gets when one is absent. Ranges are those Sling can run with: a negative value means
     * unlimited (maxPoolSize, queueSize) or no waiting (shutdownWaitTime) and is written -1.
     */
    static ModifiableThreadPoolConfig fromProperties(ConfigReader r) {
        int max = Integer.MAX_VALUE;
        ModifiableThreadPoolConfig c = new ModifiableThreadPoolConfig();
        c.setMinPoolSize(r.integer("minPoolSize", 5, 0, max));
        c.setMaxPoolSize(r.integer("maxPoolSize", 5, -1, max));
        c.setQueueSize(r.integer("queueSize", -1, -1, max));
        c.setKeepAliveTime(r.number("keepAliveTime", 60_000L, 0, Long.MAX_VALUE));
        c.setBlockPolicy(ThreadPoolPolicy.valueOf(r.option("blockPolicy", "RUN", names(ThreadPoolPolicy.class))));
        c.setShutdownGraceful(r.bool("shutdownGraceful", true));
        c.setDaemon(r.bool("daemon", false));
        c.setShutdownWaitTimeMs(r.integer("shutdownWaitTime", -1, -1, max));
        c.setPriority(ThreadPriority.valueOf(r.option("priority", "NORM", names(ThreadPriority.class))));
        return c;
    }

    private static String[] names(Class<? extends Enum<?>> type) {
        Enum<?>[] constants = type.getEnumConstants();
        String[] names = new String[constants.length];
        for (int i = 0; i < constants.length; i++) {
            names[i] = constants[i].name();
        }
        return names;
    }
}
