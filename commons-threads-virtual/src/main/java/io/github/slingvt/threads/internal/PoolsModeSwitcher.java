package io.github.slingvt.threads.internal;

import java.io.IOException;

import io.github.slingvt.config.ConfigUpdates;
import io.github.slingvt.threads.api.ThreadPoolMode;
import io.github.slingvt.threads.api.ThreadPoolsModeSwitch;

import org.osgi.service.cm.ConfigurationAdmin;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stores {@code defaultMode} in this bundle's own configuration; {@link VirtualThreadPoolManager} picks it up
 * through Configuration Admin like any other change, so {@code poolModes} overrides stay in force.
 */
@Component(service = ThreadPoolsModeSwitch.class)
public final class PoolsModeSwitcher implements ThreadPoolsModeSwitch {

    private static final Logger LOG = LoggerFactory.getLogger(PoolsModeSwitcher.class);

    private final ConfigurationAdmin configurationAdmin;

    @Activate
    public PoolsModeSwitcher(@Reference ConfigurationAdmin configurationAdmin) {
        this.configurationAdmin = configurationAdmin;
    }

    @Override
    public void switchDefaultMode(ThreadPoolMode mode) throws IOException {
        ConfigUpdates.setProperty(configurationAdmin, VirtualThreadPoolsConfig.PID, "defaultMode", mode.label());
        LOG.info("Sling thread pools: defaultMode of {} set to {}", VirtualThreadPoolsConfig.PID, mode.label());
    }
}
