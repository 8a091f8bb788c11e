package io.github.slingvt.threads.internal;

import io.github.slingvt.threads.api.ThreadPoolSnapshot;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import io.github.slingvt.config.ConfigGuard;
import io.github.slingvt.config.internal.ConfigGuardService;
import org.apache.sling.testing.mock.osgi.MockOsgi;
import org.apache.sling.testing.mock.osgi.junit5.OsgiContext;

/** Starts the components the way DS would, through osgi-mock, and offers bounded waits. */
final class Fixture {

    static final long TIMEOUT_SECONDS = 30;

    private final OsgiContext context;

    private final ConfigGuardService guard = new ConfigGuardService();

    Fixture(OsgiContext context) {
        this.context = context;
        context.registerService(ConfigGuard.class, guard);
    }

    /** The guard the components read their configurations through. */
    ConfigGuardService guard() {
        return guard;
    }

    VirtualThreadPoolManager manager(String defaultMode, String... poolModes) {
        return context.registerInjectActivateService(VirtualThreadPoolManager.class, managerProps(defaultMode,
                poolModes));
    }

    static Map<String, Object> managerProps(String defaultMode, String... poolModes) {
        Map<String, Object> props = new HashMap<>();
        props.put("defaultMode", defaultMode);
        props.put("poolModes", poolModes);
        return props;
    }

    void reconfigure(VirtualThreadPoolManager manager, String defaultMode, String... poolModes) {
        MockOsgi.modified(manager, context.bundleContext(), managerProps(defaultMode, poolModes));
    }

    /** A factory configuration of PID org.apache.sling.commons.threads.impl.DefaultThreadPool.factory. */
    ThreadPoolDefinition define(String name, Object... keyValues) {
        return context.registerInjectActivateService(ThreadPoolDefinition.class, definitionProps(name, keyValues));
    }

    void redefine(ThreadPoolDefinition definition, String name, Object... keyValues) {
        MockOsgi.modified(definition, context.bundleContext(), definitionProps(name, keyValues));
    }

    void delete(ThreadPoolDefinition definition) {
        MockOsgi.deactivate(definition, context.bundleContext());
    }

    void deactivate(VirtualThreadPoolManager manager) {
        MockOsgi.deactivate(manager, context.bundleContext());
    }

    private static Map<String, Object> definitionProps(String name, Object... keyValues) {
        Map<String, Object> props = new HashMap<>();
        props.put("service.pid", ThreadPoolFactoryConfig.FACTORY_PID + "~" + name);
        props.put("name", name);
        for (int i = 0; i < keyValues.length; i += 2) {
            props.put((String) keyValues[i], keyValues[i + 1]);
        }
        return props;
    }

    static void await(CountDownLatch latch) throws InterruptedException {
        assertThat(latch.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("latch reached in time").isTrue();
    }

    /** Waits for a state another thread is about to reach; the assertion is on the state, not on the time. */
    static void awaitCondition(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as(what).isNegative();
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    static ThreadPoolSnapshot status(VirtualThreadPoolManager manager, String poolName) {
        return manager.pools().stream().filter(s -> s.name().equals(poolName)).findFirst().orElseThrow();
    }
}
