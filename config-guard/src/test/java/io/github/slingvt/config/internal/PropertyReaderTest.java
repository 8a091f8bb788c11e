package io.github.slingvt.config.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.github.slingvt.config.ConfigProblem;
import io.github.slingvt.config.ConfigReader;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class PropertyReaderTest {

    private static final String PID = "test.Pid";

    private static ConfigReader reader(String name, Object value) {
        Map<String, Object> props = new HashMap<>();
        props.put(name, value);
        return new PropertyReader(PID, props);
    }

    @Test
    void acceptsNumbersOfAnyIntegralTypeAndTheirStrings() {
        assertThat(reader("n", 5).integer("n", 1, 0, 10)).isEqualTo(5);
        assertThat(reader("n", 5L).integer("n", 1, 0, 10)).isEqualTo(5);
        assertThat(reader("n", (short) 5).integer("n", 1, 0, 10)).isEqualTo(5);
        assertThat(reader("n", 5.0d).integer("n", 1, 0, 10)).isEqualTo(5);
        assertThat(reader("n", BigInteger.TEN).integer("n", 1, 0, 10)).isEqualTo(10);
        assertThat(reader("n", " 7 ").integer("n", 1, 0, 10)).isEqualTo(7);
        assertThat(reader("n", "-3").number("n", 1, -5, 10)).isEqualTo(-3);
        ConfigReader absent = new PropertyReader(PID, Map.of());
        assertThat(absent.integer("n", 4, 0, 10)).isEqualTo(4);
        assertThat(absent.problems()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"lots", "auto", "", "   ", "5.5", "-1", "11", "99999999999999999999", "0x5", "5 6"})
    void refusesBadNumbersWithTheDefaultAndAProblemNamingThem(String value) {
        ConfigReader r = reader("maxThings", value);

        assertThat(r.integer("maxThings", 4, 0, 10)).isEqualTo(4);
        assertThat(r.problems()).containsExactly(
                new ConfigProblem(PID, "maxThings", value, "a whole number from 0 to 10"));
        assertThat(r.problems().get(0).message())
                .isEqualTo("test.Pid: property 'maxThings' = '" + value + "' refused; allowed: a whole number from 0 to 10");
    }

    @Test
    void aKeywordInPlaceOfANumberIsNullAndNumbersStillCount() {
        assertThat(reader("n", "auto").integerOrKeyword("n", "auto", 1, 0, 10)).isNull();
        assertThat(reader("n", " AUTO ").integerOrKeyword("n", "auto", 1, 0, 10)).isNull();
        assertThat(reader("n", 7).integerOrKeyword("n", "auto", 1, 0, 10)).isEqualTo(7);
        assertThat(reader("n", "7").integerOrKeyword("n", "auto", 1, 0, 10)).isEqualTo(7);
        assertThat(reader("n", null).integerOrKeyword("n", "auto", 1, 0, 10)).isEqualTo(1);

        ConfigReader r = reader("n", "lots");
        assertThat(r.integerOrKeyword("n", "auto", 1, 0, 10)).isEqualTo(1);
        assertThat(r.problems()).singleElement().satisfies(p -> {
            assertThat(p.value()).isEqualTo("lots");
            assertThat(p.allowed()).isEqualTo("auto or a whole number from 0 to 10");
        });
        assertThat(reader("n", 11).integerOrKeyword("n", "auto", 1, 0, 10)).isEqualTo(1);
    }

    @Test
    void refusesNonIntegralAndOutOfRangeNumberObjects() {
        assertThat(reader("n", 5.5d).integer("n", 1, 0, 10)).isEqualTo(1);
        assertThat(reader("n", 1e30d).number("n", 1, 0, Long.MAX_VALUE)).isEqualTo(1);
        assertThat(reader("n", 11).integer("n", 1, 0, 10)).isEqualTo(1);
        assertThat(reader("n", true).integer("n", 1, 0, 10)).isEqualTo(1);
    }

    @Test
    void refusesAListWhereOneValueBelongs() {
        ConfigReader r = reader("n", new String[] {"1", "2"});

        assertThat(r.integer("n", 3, 0, 10)).isEqualTo(3);
        assertThat(r.problems()).singleElement().satisfies(p -> {
            assertThat(p.value()).isEqualTo("[1, 2]");
            assertThat(p.allowed()).isEqualTo("a single value, a whole number from 0 to 10");
        });
        assertThat(reader("b", List.of("true")).bool("b", false)).isFalse();
    }

    @Test
    void readsBooleansStrictly() {
        assertThat(reader("b", "TRUE").bool("b", false)).isTrue();
        assertThat(reader("b", Boolean.FALSE).bool("b", true)).isFalse();
        ConfigReader r = reader("b", "yes");
        assertThat(r.bool("b", true)).isTrue();
        assertThat(r.problems()).containsExactly(new ConfigProblem(PID, "b", "yes", "true or false"));
    }

    @Test
    void readsDecimalsAndRefusesNonFiniteOnes() {
        assertThat(reader("d", "2.5").decimal("d", 1, 0, 10)).isEqualTo(2.5);
        assertThat(reader("d", 3).decimal("d", 1, 0, 10)).isEqualTo(3.0);
        for (Object bad : new Object[] {"NaN", "Infinity", Double.NaN, "1,5", "-0.5", "1e400"}) {
            ConfigReader r = reader("d", bad);
            assertThat(r.decimal("d", 1, 0, 10)).as("%s", bad).isEqualTo(1.0);
            assertThat(r.problems()).as("%s", bad).hasSize(1);
        }
    }

    @Test
    void optionsMatchInAnyCaseAndAnswerTheListedSpelling() {
        assertThat(reader("mode", " Kernel ").option("mode", "virtual", "virtual", "kernel")).isEqualTo("kernel");
        ConfigReader r = reader("mode", "fast");
        assertThat(r.option("mode", "virtual", "virtual", "kernel")).isEqualTo("virtual");
        assertThat(r.problems()).containsExactly(new ConfigProblem(PID, "mode", "fast", "one of virtual, kernel"));
    }

    @Test
    void requiredTextIsAProblemWhenMissing() {
        ConfigReader r = new PropertyReader(PID, Map.of());
        assertThat(r.text("name", null)).isNull();
        assertThat(r.problems()).singleElement().extracting(ConfigProblem::allowed)
                .isEqualTo("a non-empty text (the property is required)");
        assertThat(reader("name", " x ").text("name", null)).isEqualTo("x");
    }

    @Test
    void textsAcceptOneStringArraysAndCollectionsOfStrings() {
        assertThat(reader("l", "a=b").texts("l", List.of())).containsExactly("a=b");
        assertThat(reader("l", new String[] {"a", ""}).texts("l", List.of())).containsExactly("a", "");
        assertThat(reader("l", List.of("x")).texts("l", List.of())).containsExactly("x");
        ConfigReader r = reader("l", new Object[] {"a", 5});
        assertThat(r.texts("l", List.of("d"))).containsExactly("d");
        assertThat(r.problems()).hasSize(1);
    }

    @Test
    void longValuesAreCutInMessages() {
        ConfigReader r = reader("n", "x".repeat(1000));
        r.integer("n", 1, 0, 10);
        assertThat(r.problems().get(0).value()).hasSize(PropertyReader.MAX_VALUE_LENGTH + 3).endsWith("...");
    }
}
