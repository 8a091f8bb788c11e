package io.github.slingvt.config;

import java.io.IOException;
import java.util.Dictionary;
import java.util.Hashtable;

import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;

/**
 * Changes one property of a configuration and keeps every other one. A bundle uses it on its own PID only (a live
 * switch); the web console's configuration form would instead reset the properties it does not list.
 */
public final class ConfigUpdates {

    private ConfigUpdates() {
    }

    /**
     * Stores {@code name=value} in the configuration {@code pid}, creating it if there is none. Configuration Admin
     * hands the result to the component asynchronously.
     */
    public static void setProperty(ConfigurationAdmin configurationAdmin, String pid, String name, Object value)
            throws IOException {
        Configuration configuration = configurationAdmin.getConfiguration(pid, null);
        Dictionary<String, Object> properties = configuration.getProperties();
        if (properties == null) {
            properties = new Hashtable<>();
        }
        properties.put(name, value);
        configuration.update(properties);
    }
}
