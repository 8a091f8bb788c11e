package io.github.slingvt.config.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.github.slingvt.config.ConfigGuard;
import io.github.slingvt.config.ConfigProblem;
import io.github.slingvt.config.ConfigReader;
import org.osgi.service.component.annotations.Component;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one {@link ConfigGuard} of the framework. What it keeps lives only as long as this bundle: at the next start
 * a refused configuration leaves the defaults in force, as the API says.
 */
@Component(service = ConfigGuard.class)
public final class ConfigGuardService implements ConfigGuard {

    private static final Logger LOG = LoggerFactory.getLogger(ConfigGuardService.class);

    private final Object lock = new Object();
    /** Guarded by lock. Only standard property types, never another bundle's classes. */
    private final Map<String, Map<String, Object>> accepted = new HashMap<>();
    /** Guarded by lock. In the order of the first refusal per PID. */
    private final Map<String, List<ConfigProblem>> refused = new LinkedHashMap<>();

    @Override
    public <T> T read(String pid, Map<String, ?> properties, Function<ConfigReader, T> settings) {
        ConfigReader reader = new PropertyReader(pid, properties);
        T candidate = apply(reader, settings);
        List<ConfigProblem> problems = reader.problems();
        if (problems.isEmpty()) {
            synchronized (lock) {
                accepted.put(pid, properties == null ? Map.of() : new HashMap<>(properties));
                refused.remove(pid);
            }
            return candidate;
        }
        Map<String, Object> last;
        synchronized (lock) {
            refused.put(pid, problems);
            last = accepted.get(pid);
        }
        T kept = apply(new PropertyReader(pid, last == null ? Map.of() : last), settings);
        LOG.error("Configuration {} refused: {}. The {} stay in force. Fix the value in the web console "
                + "(/system/console/configMgr/{}) or in the configuration file.", pid,
                problems.stream().map(ConfigGuardService::describe).collect(Collectors.joining("; ")),
                last == null ? "default settings" : "last accepted settings", pid);
        return kept;
    }

    @Override
    public ConfigReader reader(String pid, Map<String, ?> properties) {
        return new PropertyReader(pid, properties);
    }

    @Override
    public List<ConfigProblem> problems() {
        synchronized (lock) {
            List<ConfigProblem> all = new ArrayList<>();
            refused.values().forEach(all::addAll);
            return all;
        }
    }

    @Override
    public List<ConfigProblem> problems(String pid) {
        synchronized (lock) {
            return refused.getOrDefault(pid, List.of());
        }
    }

    @Override
    public void forget(String pid) {
        synchronized (lock) {
            accepted.remove(pid);
            refused.remove(pid);
        }
    }

    /** Runs the settings function, turning its own validation failure into a problem of the whole settings. */
    private static <T> T apply(ConfigReader reader, Function<ConfigReader, T> settings) {
        try {
            return settings.apply(reader);
        } catch (IllegalArgumentException e) {
            reader.refuse("*", e.getMessage());
            return null;
        }
    }

    private static String describe(ConfigProblem p) {
        return "property '" + p.property() + "' = '" + p.value() + "' (allowed: " + p.allowed() + ")";
    }
}
