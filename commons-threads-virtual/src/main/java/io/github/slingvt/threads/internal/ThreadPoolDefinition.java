package io.github.slingvt.threads.internal;

import java.util.Map;

import io.github.slingvt.config.ConfigGuard;
import org.osgi.framework.Constants;
import org.osgi.service.component.ComponentConstants;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.Designate;

/**
 * One instance per Apache Sling Thread Pool factory configuration (the PID Sling's own implementation reads), which
 * it hands to the manager. DS does the per-configuration bookkeeping that Sling does with a ManagedServiceFactory.
 */
@Component(
        service = {},
        configurationPid = ThreadPoolFactoryConfig.FACTORY_PID,
        configurationPolicy = ConfigurationPolicy.REQUIRE)
@Designate(ocd = ThreadPoolFactoryConfig.class, factory = true)
public final class ThreadPoolDefinition {

    private final PoolDefinitions manager;
    private final ConfigGuard guard;
    private final String pid;

    /** Raw properties through the guard, so that a value of the wrong type is refused, not a failed activation. */
    @Activate
    public ThreadPoolDefinition(@Reference PoolDefinitions manager, @Reference ConfigGuard guard,
            Map<String, Object> properties) {
        this.manager = manager;
        this.guard = guard;
        this.pid = String.valueOf(properties.get(Constants.SERVICE_PID));
        apply(properties);
    }

    @Modified
    void modified(Map<String, Object> properties) {
        apply(properties);
    }

    @Deactivate
    void deactivate(int reason) {
        // When the bundle stops, the manager is about to shut the pools down with their configured shutdown
        // settings; reverting them to defaults first would lose shutdownGraceful/shutdownWaitTime.
        boolean goingAway = reason == ComponentConstants.DEACTIVATION_REASON_BUNDLE_STOPPED
                || reason == ComponentConstants.DEACTIVATION_REASON_DISPOSED
                || reason == ComponentConstants.DEACTIVATION_REASON_REFERENCE;
        manager.undefine(this, !goingAway);
        // Changes arrive through modified(), so a deactivation means this configuration is gone (deleted, or its
        // bundle stopped): a refusal of it is no longer news.
        guard.forget(pid);
    }

    private void apply(Map<String, Object> properties) {
        PoolDefinition definition = guard.read(pid, properties, r -> PoolDefinition.read(pid, r));
        // null: refused and never accepted, the pool keeps Sling's defaults. Refused after an accepted one: the
        // guard answered that one, which the manager has already.
        if (definition != null && guard.problems(pid).isEmpty()) {
            manager.define(this, definition);
        }
    }
}
