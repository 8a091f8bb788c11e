package io.github.slingvt.threads.internal;

import io.github.slingvt.threads.api.ConfiguredPool;
import io.github.slingvt.threads.api.ThreadPools;
import io.github.slingvt.threads.api.ThreadPoolMode;
import io.github.slingvt.threads.api.ThreadPoolSnapshot;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import io.github.slingvt.config.ConfigGuard;
import org.apache.sling.commons.threads.ModifiableThreadPoolConfig;
import org.apache.sling.commons.threads.ThreadPool;
import org.apache.sling.commons.threads.ThreadPoolConfig;
import org.apache.sling.commons.threads.ThreadPoolManager;
import org.osgi.framework.Constants;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.Designate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sling's ThreadPoolManager contract (named pools shared and reference counted, anonymous pools from create(),
 * defaults for unknown names) with each pool running in virtual or kernel mode as {@link VirtualThreadPoolsConfig}
 * says. Registered as {@link ThreadPools} (read-only view, exported API) for the observability bundle and as
 * {@link PoolDefinitions} (this bundle only) for the {@link ThreadPoolDefinition}s.
 */
@Component(
        service = {ThreadPoolManager.class, ThreadPools.class, PoolDefinitions.class},
        configurationPid = VirtualThreadPoolsConfig.PID,
        // Immediate, like Sling's activator-registered manager: pools must not vanish when no consumer holds the
        // service for a moment, and configuration errors should be logged at startup.
        immediate = true,
        property = {
            Constants.SERVICE_DESCRIPTION + "=Sling VT Thread Pool Manager (virtual and kernel thread pools)",
            Constants.SERVICE_VENDOR + "=Sling VT"
        })
@Designate(ocd = VirtualThreadPoolsConfig.class)
public final class VirtualThreadPoolManager implements ThreadPoolManager, ThreadPools, PoolDefinitions {

    private static final Logger LOG = LoggerFactory.getLogger(VirtualThreadPoolManager.class);

    private final AtomicReference<PoolModeSettings> settings;
    private final Object lock = new Object();
    /** Guarded by lock. Pools in use, by name. */
    private final Map<String, PoolEntry> pools = new HashMap<>();
    /** Guarded by lock. Configured pools by their definition component, in arrival order (the last wins). */
    private final Map<Object, PoolDefinition> definitions = new LinkedHashMap<>();
    /** Guarded by lock. */
    private boolean deactivated;

    private final ConfigGuard guard;

    /**
     * Raw properties, read through the guard: DS would fail the activation on a value of the wrong type, and with it
     * every Sling pool. A refused configuration leaves the defaults in force at start, the previous settings later.
     */
    @Activate
    public VirtualThreadPoolManager(@Reference ConfigGuard guard, Map<String, Object> properties) {
        int feature = Runtime.version().feature();
        if (feature < 21) {
            throw new IllegalStateException("Sling VT thread pools need virtual threads, which this Java " + feature
                    + " does not have. Run this Sling instance on a JDK 21 or newer.");
        }
        this.guard = guard;
        PoolModeSettings initial = guard.read(VirtualThreadPoolsConfig.PID, properties, PoolModeSettings::read);
        this.settings = new AtomicReference<>(initial);
        LOG.info("Sling VT Thread Pool Manager started: {}", initial);
    }

    @Modified
    void modified(Map<String, Object> properties) {
        PoolModeSettings next = guard.read(VirtualThreadPoolsConfig.PID, properties, PoolModeSettings::read);
        if (!guard.problems(VirtualThreadPoolsConfig.PID).isEmpty()) {
            return;
        }
        synchronized (lock) {
            settings.set(next);
            for (PoolEntry entry : pools.values()) {
                entry.pool.reconfigure(modeOf(entry.pool), entry.pool.configured());
            }
        }
        LOG.info("Sling VT thread pool settings now in force: {}", next);
    }

    @Deactivate
    void deactivate() {
        List<PoolEntry> all;
        synchronized (lock) {
            deactivated = true;
            all = new ArrayList<>(pools.values());
            pools.clear();
        }
        all.forEach(entry -> entry.pool.shutdown());
        LOG.info("Sling VT Thread Pool Manager stopped");
    }

    @Override
    public ThreadPool get(String name) {
        String poolName = name == null ? DEFAULT_THREADPOOL_NAME : name;
        synchronized (lock) {
            requireActive();
            PoolEntry entry = pools.get(poolName);
            if (entry == null) {
                ThreadPoolConfig config = configFor(poolName);
                ThreadPoolMode mode = settings.get().modeFor(poolName, null);
                entry = new PoolEntry(new ManagedThreadPool(poolName, null, mode, config), true);
                pools.put(poolName, entry);
            }
            entry.usage++;
            return entry.pool;
        }
    }

    @Override
    public ThreadPool create(ThreadPoolConfig config) {
        return create(config, null);
    }

    @Override
    public ThreadPool create(ThreadPoolConfig config, String label) {
        if (config == null) {
            throw new IllegalArgumentException("Config must not be null.");
        }
        String poolLabel = label != null ? label : callerClassName();
        String poolName = "ThreadPool-" + UUID.randomUUID() + (poolLabel == null ? "" : " (" + poolLabel + ")");
        synchronized (lock) {
            requireActive();
            ThreadPoolMode mode = settings.get().modeFor(poolName, poolLabel);
            PoolEntry entry = new PoolEntry(new ManagedThreadPool(poolName, poolLabel, mode, config), false);
            entry.usage++;
            pools.put(poolName, entry);
            return entry.pool;
        }
    }

    @Override
    public void release(ThreadPool pool) {
        if (!(pool instanceof ManagedThreadPool managed)) {
            return;
        }
        synchronized (lock) {
            PoolEntry entry = pools.get(managed.getName());
            if (entry == null || entry.pool != managed || --entry.usage > 0) {
                return;
            }
            pools.remove(managed.getName());
        }
        // Outside the lock: a shutdown may wait up to shutdownWaitTime for running tasks.
        managed.shutdown();
    }

    @Override
    public void define(Object owner, PoolDefinition definition) {
        synchronized (lock) {
            PoolDefinition previous = definitions.remove(owner);
            definitions.put(owner, definition);
            if (previous != null && !previous.name().equals(definition.name())) {
                applyDefinition(previous.name());
            }
            long sameName = definitions.values().stream().filter(d -> d.name().equals(definition.name())).count();
            if (sameName > 1) {
                LOG.warn("{} configurations define thread pool {}; the last one ({}) is in force. Remove the others.",
                        sameName, definition.name(), definition.pid());
            }
            applyDefinition(definition.name());
        }
    }

    @Override
    public void undefine(Object owner, boolean revert) {
        synchronized (lock) {
            PoolDefinition previous = definitions.remove(owner);
            if (previous != null && revert) {
                applyDefinition(previous.name());
            }
        }
    }

    PoolModeSettings modeSettings() {
        return settings.get();
    }

    @Override
    public String settings() {
        return settings.get().toString();
    }

    @Override
    public List<ThreadPoolSnapshot> pools() {
        List<ManagedThreadPool> snapshot;
        synchronized (lock) {
            snapshot = pools.values().stream().map(e -> e.pool).toList();
        }
        return snapshot.stream().map(ManagedThreadPool::status).sorted(Comparator.comparing(ThreadPoolSnapshot::name))
                .toList();
    }

    @Override
    public List<ConfiguredPool> configuredPools() {
        List<PoolDefinition> snapshot;
        synchronized (lock) {
            snapshot = List.copyOf(definitions.values());
        }
        return snapshot.stream().map(d -> new ConfiguredPool(d.name(), d.pid(), d.config().getMaxPoolSize(),
                d.config().getQueueSize(), String.valueOf(d.config().getBlockPolicy()))).toList();
    }

    /** Must hold lock. A named pool in use follows its definition, or Sling's defaults once it has none. */
    private void applyDefinition(String poolName) {
        PoolEntry entry = pools.get(poolName);
        if (entry != null && entry.named) {
            entry.pool.reconfigure(modeOf(entry.pool), configFor(poolName));
        }
    }

    /** Must hold lock. */
    private ThreadPoolConfig configFor(String poolName) {
        ThreadPoolConfig found = null;
        for (PoolDefinition definition : definitions.values()) {
            if (definition.name().equals(poolName)) {
                found = definition.config();
            }
        }
        return found != null ? found : new ModifiableThreadPoolConfig();
    }

    private ThreadPoolMode modeOf(ManagedThreadPool pool) {
        return settings.get().modeFor(pool.getName(), pool.label());
    }

    /** Must hold lock. */
    private void requireActive() {
        if (deactivated) {
            throw new IllegalStateException("The Sling VT Thread Pool Manager has been deactivated");
        }
    }

    /** Sling labels an anonymous pool with the class that asked for it when no label is given. */
    private static String callerClassName() {
        return StackWalker.getInstance().walk(frames -> frames
                .map(StackWalker.StackFrame::getClassName)
                .filter(c -> !c.equals(VirtualThreadPoolManager.class.getName()))
                .findFirst()
                .orElse(null));
    }

    private static final class PoolEntry {

        private final ManagedThreadPool pool;
        /** false for anonymous pools from create(), which keep the settings they were created with. */
        private final boolean named;
        private int usage;

        PoolEntry(ManagedThreadPool pool, boolean named) {
            this.pool = pool;
            this.named = named;
        }
    }
}
