package io.github.slingvt.it.paxexam.threads;

import java.io.InputStream;
import java.io.ObjectInputStream;
import java.net.URL;
import java.util.Dictionary;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;
import org.osgi.util.tracker.ServiceTracker;

/**
 * Activator of the small bundle that {@link FeatureProvisioning} builds (in the failsafe JVM) from this class and the
 * feature's configurations. The bundle starts at start level 2, after the feature's start-order 1 bundles (Config
 * Admin among them) and before every other feature bundle, and puts each configuration into Config Admin before it
 * returns, so the Sling bundles find their configurations at activation, as with the Feature Launcher.
 * Not a test: it runs only inside that bundle.
 */
public final class FeatureConfigurationsActivator implements BundleActivator {

    /** The serialized {@code Map<String, Dictionary<String, Object>>} (PID or {@code factoryPid~name}). */
    static final String ENTRY = "feature-configurations.ser";

    private static final long CONFIG_ADMIN_WAIT_SECONDS = 30;

    @Override
    public void start(BundleContext context) throws Exception {
        final Map<String, Dictionary<String, Object>> configurations = read(context.getBundle().getEntry(ENTRY));
        final ServiceTracker<ConfigurationAdmin, ConfigurationAdmin> tracker =
                new ServiceTracker<>(context, ConfigurationAdmin.class, null);
        tracker.open();
        try {
            final ConfigurationAdmin admin = tracker.waitForService(TimeUnit.SECONDS.toMillis(CONFIG_ADMIN_WAIT_SECONDS));
            if (admin == null) {
                throw new IllegalStateException("No ConfigurationAdmin within " + CONFIG_ADMIN_WAIT_SECONDS + " s");
            }
            for (Map.Entry<String, Dictionary<String, Object>> entry : configurations.entrySet()) {
                final String pid = entry.getKey();
                final int tilde = pid.indexOf('~');
                final Configuration configuration = tilde < 0 ? admin.getConfiguration(pid, "?")
                        : admin.getFactoryConfiguration(pid.substring(0, tilde), pid.substring(tilde + 1), "?");
                configuration.update(entry.getValue());
            }
        } finally {
            tracker.close();
        }
    }

    @Override
    public void stop(BundleContext context) {
        // the configurations stay
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Dictionary<String, Object>> read(URL entry) throws Exception {
        if (entry == null) {
            throw new IllegalStateException(ENTRY + " is missing from the configuration bundle");
        }
        try (InputStream in = entry.openStream(); ObjectInputStream objects = new ObjectInputStream(in)) {
            return (Map<String, Dictionary<String, Object>>) objects.readObject();
        }
    }
}
