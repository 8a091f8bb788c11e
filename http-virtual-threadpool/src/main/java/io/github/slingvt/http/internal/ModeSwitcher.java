package io.github.slingvt.http.internal;

import java.io.IOException;
import java.time.Duration;
import java.util.Dictionary;
import java.util.Hashtable;

import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;

/**
 * Switches the mode through Configuration Admin, keeping every other property of the configuration (the web
 * console's configuration form would reset unlisted properties to their defaults), then waits until it applies.
 */
final class ModeSwitcher {

    private final ConfigurationAdmin configurationAdmin;
    private final ThreadingState state;

    ModeSwitcher(ConfigurationAdmin configurationAdmin, ThreadingState state) {
        this.configurationAdmin = configurationAdmin;
        this.state = state;
    }

    /** @return whether the mode is in force within {@code wait}. */
    boolean switchTo(ThreadingMode mode, Duration wait) throws IOException, InterruptedException {
        Configuration configuration = configurationAdmin.getConfiguration(VirtualThreadsConfig.PID, null);
        Dictionary<String, Object> properties = configuration.getProperties();
        if (properties == null) {
            properties = new Hashtable<>();
        }
        properties.put("mode", mode.label());
        configuration.update(properties);
        long deadline = System.nanoTime() + wait.toNanos();
        while (state.settings().mode() != mode) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(10);
        }
        return true;
    }
}
