package io.github.slingvt.threads.internal;

import java.util.Map;

import org.osgi.framework.Constants;
import org.osgi.service.component.ComponentConstants;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.Designate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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

    private static final Logger LOG = LoggerFactory.getLogger(ThreadPoolDefinition.class);

    private final VirtualThreadPoolManager manager;
    private final String pid;

    @Activate
    public ThreadPoolDefinition(@Reference VirtualThreadPoolManager manager, ThreadPoolFactoryConfig config,
            Map<String, Object> properties) {
        this.manager = manager;
        this.pid = String.valueOf(properties.get(Constants.SERVICE_PID));
        apply(config);
    }

    @Modified
    void modified(ThreadPoolFactoryConfig config) {
        apply(config);
    }

    @Deactivate
    void deactivate(int reason) {
        // When the bundle stops, the manager is about to shut the pools down with their configured shutdown
        // settings; reverting them to defaults first would lose shutdownGraceful/shutdownWaitTime.
        boolean goingAway = reason == ComponentConstants.DEACTIVATION_REASON_BUNDLE_STOPPED
                || reason == ComponentConstants.DEACTIVATION_REASON_DISPOSED
                || reason == ComponentConstants.DEACTIVATION_REASON_REFERENCE;
        manager.undefine(this, !goingAway);
    }

    private void apply(ThreadPoolFactoryConfig config) {
        try {
            manager.define(this, PoolDefinition.from(pid, config));
        } catch (IllegalArgumentException e) {
            LOG.error("Refusing thread pool configuration {}: {}. Until it is fixed the pool keeps the settings it "
                    + "had (Sling's defaults if it never had a valid configuration).", pid, e.getMessage());
        }
    }
}
