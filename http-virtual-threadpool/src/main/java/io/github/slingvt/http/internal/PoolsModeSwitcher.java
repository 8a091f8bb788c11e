package io.github.slingvt.http.internal;

import java.io.IOException;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.Locale;

import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Switches every Sling thread pool of commons-threads-virtual by setting {@code defaultMode} of its configuration.
 * This bundle knows that bundle only by PID and property names (configuration-only coupling, no shared code), so
 * the switch works whenever that bundle is installed, and is simply stored while it is not. {@code poolModes} and
 * every other property are kept, so per-pool overrides stay in force.
 */
final class PoolsModeSwitcher {

    static final String PID = "io.github.slingvt.threads.VirtualThreadPools";
    static final String PROPERTY = "defaultMode";
    static final String PARAMETER = "poolsMode";
    static final String CONFIG_MANAGER_PATH = "/configMgr/" + PID;

    private static final Logger LOG = LoggerFactory.getLogger(PoolsModeSwitcher.class);

    private final ConfigurationAdmin configurationAdmin;

    PoolsModeSwitcher(ConfigurationAdmin configurationAdmin) {
        this.configurationAdmin = configurationAdmin;
    }

    /**
     * @return {@code virtual} or {@code kernel}
     * @throws IllegalArgumentException naming the parameter and the allowed values
     */
    static String parse(String value) {
        String normalized = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        if (normalized.equals("virtual") || normalized.equals("kernel")) {
            return normalized;
        }
        throw new IllegalArgumentException(PARAMETER + "='" + value + "' is not supported; set " + PARAMETER
                + " to 'virtual' or 'kernel'");
    }

    /**
     * Stores the mode; Configuration Admin hands it to commons-threads-virtual asynchronously, and each pool then
     * switches as that bundle documents (running tasks finish where they are).
     */
    void switchTo(String mode) throws IOException {
        Configuration configuration = configurationAdmin.getConfiguration(PID, null);
        Dictionary<String, Object> properties = configuration.getProperties();
        if (properties == null) {
            properties = new Hashtable<>();
        }
        properties.put(PROPERTY, mode);
        configuration.update(properties);
        LOG.info("Sling thread pools: {} of {} set to {} from the web console", PROPERTY, PID, mode);
    }
}
