package io.github.slingvt.config;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.osgi.annotation.versioning.ProviderType;

/**
 * Reads configurations so that no value can switch a component off: a component passes its raw property map and a
 * function that turns a {@link ConfigReader} into its settings. When every value is accepted, those settings are
 * returned and remembered as the PID's last accepted properties. When any value is refused (wrong type, empty, out
 * of range, unknown option, a list where one value belongs, or an {@link IllegalArgumentException} from the
 * function), the guard logs one ERROR naming the PID, each property, its value and what is allowed, records the
 * problems, and returns the settings read from the last accepted properties of that PID in this JVM, or from no
 * properties at all (the component's defaults) when there were none.
 */
@ProviderType
public interface ConfigGuard {

    /**
     * @param pid the PID named in messages and under which problems and accepted properties are kept
     * @param properties the component's configuration properties as Declarative Services passes them
     * @param settings reads the settings; it must not have side effects, since it may run twice
     * @return the settings in force after this call, never {@code null} unless {@code settings} returns it
     */
    <T> T read(String pid, Map<String, ?> properties, Function<ConfigReader, T> settings);

    /**
     * A reader of {@code properties} that only collects problems: nothing is logged, recorded or remembered. For
     * checking values before they are stored (a form, a live switch) and for tests of a settings function.
     *
     * @since 2.0
     */
    ConfigReader reader(String pid, Map<String, ?> properties);

    /** The refused values now on record, by PID in the order they were refused. */
    List<ConfigProblem> problems();

    /** The refused values of one PID now on record: empty after its configuration was last accepted. */
    List<ConfigProblem> problems(String pid);

    /** Drops what is kept for a configuration that was deleted (a factory configuration that is gone). */
    void forget(String pid);
}
