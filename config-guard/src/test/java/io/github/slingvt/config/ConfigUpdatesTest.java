package io.github.slingvt.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;

class ConfigUpdatesTest {

    private static final String PID = "io.github.slingvt.threads.VirtualThreadPools";

    @Test
    void setsThePropertyAndKeepsTheOthers() throws Exception {
        Hashtable<String, Object> existing = new Hashtable<>();
        existing.put("defaultMode", "virtual");
        existing.put("poolModes", new String[] {"oak=virtual"});
        existing.put("service.pid", PID);
        FakeConfigurationAdmin admin = new FakeConfigurationAdmin(existing);

        ConfigUpdates.setProperty(admin.proxy(), PID, "defaultMode", "kernel");

        assertThat(admin.requestedPid.get()).isEqualTo(PID);
        Dictionary<String, Object> stored = admin.stored.get();
        assertThat(stored.get("defaultMode")).isEqualTo("kernel");
        assertThat((String[]) stored.get("poolModes")).containsExactly("oak=virtual");
        assertThat(stored.get("service.pid")).isEqualTo(PID);
    }

    @Test
    void createsTheConfigurationWhenThereIsNone() throws Exception {
        FakeConfigurationAdmin admin = new FakeConfigurationAdmin(null);

        ConfigUpdates.setProperty(admin.proxy(), PID, "defaultMode", "virtual");

        assertThat(admin.stored.get().size()).isEqualTo(1);
        assertThat(admin.stored.get().get("defaultMode")).isEqualTo("virtual");
    }

    /** Configuration Admin reduced to what ConfigUpdates calls: getConfiguration, getProperties, update. */
    private static final class FakeConfigurationAdmin {
        final AtomicReference<String> requestedPid = new AtomicReference<>();
        final AtomicReference<Dictionary<String, Object>> stored = new AtomicReference<>();
        private final Dictionary<String, Object> properties;

        FakeConfigurationAdmin(Dictionary<String, Object> properties) {
            this.properties = properties;
        }

        @SuppressWarnings("unchecked")
        ConfigurationAdmin proxy() {
            Configuration configuration = (Configuration) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {Configuration.class}, (p, method, args) -> switch (method.getName()) {
                        case "getProperties" -> properties == null ? null : copy(properties);
                        case "update" -> {
                            stored.set((Dictionary<String, Object>) args[0]);
                            yield null;
                        }
                        default -> throw new UnsupportedOperationException(method.getName());
                    });
            return (ConfigurationAdmin) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {ConfigurationAdmin.class}, (p, method, args) -> {
                        if (method.getName().equals("getConfiguration") && args.length == 2 && args[1] == null) {
                            requestedPid.set((String) args[0]);
                            return configuration;
                        }
                        throw new UnsupportedOperationException(method.getName());
                    });
        }

        private static Dictionary<String, Object> copy(Dictionary<String, Object> source) {
            Hashtable<String, Object> copy = new Hashtable<>();
            source.keys().asIterator().forEachRemaining(k -> copy.put(k, source.get(k)));
            return copy;
        }
    }
}
