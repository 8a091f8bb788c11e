package io.github.slingvt.http.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Proxy;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;

class PoolsModeSwitcherTest {

    @Test
    void setsDefaultModeAndKeepsPoolModesAndOtherProperties() throws Exception {
        Hashtable<String, Object> existing = new Hashtable<>();
        existing.put("defaultMode", "virtual");
        existing.put("poolModes", new String[] {"oak=virtual"});
        existing.put("service.pid", PoolsModeSwitcher.PID);
        FakeConfigurationAdmin admin = new FakeConfigurationAdmin(existing);

        new PoolsModeSwitcher(admin.proxy()).switchTo("kernel");

        assertThat(admin.requestedPid.get()).isEqualTo("io.github.slingvt.threads.VirtualThreadPools");
        Dictionary<String, Object> stored = admin.stored.get();
        assertThat(stored.get("defaultMode")).isEqualTo("kernel");
        assertThat((String[]) stored.get("poolModes")).containsExactly("oak=virtual");
        assertThat(stored.get("service.pid")).isEqualTo(PoolsModeSwitcher.PID);
    }

    @Test
    void createsTheConfigurationWhenThereIsNone() throws Exception {
        FakeConfigurationAdmin admin = new FakeConfigurationAdmin(null);

        new PoolsModeSwitcher(admin.proxy()).switchTo("virtual");

        assertThat(admin.stored.get().size()).isEqualTo(1);
        assertThat(admin.stored.get().get("defaultMode")).isEqualTo("virtual");
    }

    @Test
    void parsesTheTwoModesAndNamesTheParameterOtherwise() {
        assertThat(PoolsModeSwitcher.parse("virtual")).isEqualTo("virtual");
        assertThat(PoolsModeSwitcher.parse(" Kernel ")).isEqualTo("kernel");
        for (String bad : new String[] {"bogus", "", null}) {
            assertThatThrownBy(() -> PoolsModeSwitcher.parse(bad)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("poolsMode='" + bad + "' is not supported; set poolsMode to 'virtual' or 'kernel'");
        }
    }

    /** Configuration Admin reduced to what the switcher calls: getConfiguration, getProperties, update. */
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
