package io.github.slingvt.config.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import io.github.slingvt.config.ConfigProblem;
import io.github.slingvt.config.ConfigReader;
import org.junit.jupiter.api.Test;

class ConfigGuardServiceTest {

    private record Settings(String mode, int max) {
        Settings {
            if (max == 7) {
                throw new IllegalArgumentException("max 7 is unlucky; use any other number");
            }
        }

        static Settings read(ConfigReader r) {
            return new Settings(r.option("mode", "virtual", "virtual", "kernel"), r.integer("max", 0, 0, 100));
        }
    }

    private final ConfigGuardService guard = new ConfigGuardService();

    @Test
    void refusedValuesLeaveTheDefaultsAtFirstAndTheLastAcceptedSettingsLater() {
        assertThat(guard.read("p", Map.of("max", "lots"), Settings::read)).isEqualTo(new Settings("virtual", 0));
        assertThat(guard.problems()).containsExactly(new ConfigProblem("p", "max", "lots", "a whole number from 0 to 100"));

        assertThat(guard.read("p", Map.of("mode", "kernel", "max", 5), Settings::read))
                .isEqualTo(new Settings("kernel", 5));
        assertThat(guard.problems()).isEmpty();

        assertThat(guard.read("p", Map.of("mode", "virtual", "max", "-1"), Settings::read))
                .as("a refused configuration is refused whole: mode stays kernel too")
                .isEqualTo(new Settings("kernel", 5));
        assertThat(guard.problems()).extracting(ConfigProblem::property).containsExactly("max");
    }

    @Test
    void aValidationFailureOfTheSettingsIsAProblemOfTheWholeConfiguration() {
        assertThat(guard.read("p", Map.of("max", 7), Settings::read)).isEqualTo(new Settings("virtual", 0));
        assertThat(guard.problems()).containsExactly(
                new ConfigProblem("p", "*", "", "max 7 is unlucky; use any other number"));
    }

    @Test
    void problemsAreKeptPerPidUntilAcceptedOrForgotten() {
        guard.read("a", Map.of("max", "x"), Settings::read);
        guard.read("b", Map.of("mode", "y"), Settings::read);
        assertThat(guard.problems()).extracting(ConfigProblem::pid).containsExactly("a", "b");

        guard.read("a", Map.of(), Settings::read);
        guard.forget("b");
        assertThat(guard.problems()).isEmpty();
    }

    @Test
    void aReaderOnlyCollectsProblemsAndLeavesTheGuardAsItWas() {
        guard.read("p", Map.of("max", 5), Settings::read);
        ConfigReader reader = guard.reader("p", Map.of("max", "lots"));
        assertThat(reader.integer("max", 3, 0, 100)).isEqualTo(3);
        assertThat(reader.problems()).containsExactly(new ConfigProblem("p", "max", "lots", "a whole number from 0 to 100"));
        assertThat(guard.problems()).as("nothing recorded by the guard").isEmpty();
        assertThat(guard.read("p", Map.of("max", "x"), Settings::read))
                .as("the last accepted settings are still those read before the reader").isEqualTo(new Settings("virtual", 5));
    }
}
