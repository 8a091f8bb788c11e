package io.github.slingvt.demoapp.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import io.github.slingvt.demoapp.internal.PageParameters.InvalidPageParameterException;

class PageParametersTest {

    @Test
    void absentParametersAreZero() {
        assertThat(PageParameters.parse(Map.<String, String>of()::get)).isEqualTo(new PageParameters(0, 0));
    }

    @Test
    void wholeNumbersInRangeAreTaken() {
        assertThat(PageParameters.parse(Map.of("reads", "10000", "delay", "0")::get))
                .isEqualTo(new PageParameters(10_000, 0));
        assertThat(PageParameters.parse(Map.of("reads", "0", "delay", "10000")::get))
                .isEqualTo(new PageParameters(0, 10_000));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "lots", "-1", "+5", " 5", "5 ", "1.5", "10001", "99999", "123456", "0x10"})
    void anythingElseIsRefusedNamingTheParameterAndItsRange(String value) {
        assertThatThrownBy(() -> PageParameters.parse(Map.of("reads", value)::get))
                .isInstanceOfSatisfying(InvalidPageParameterException.class,
                        e -> assertThat(e.parameter()).isEqualTo("reads"))
                .hasMessageContaining("reads=" + value)
                .hasMessageContaining("from 0 to 10000");
    }

    @Test
    void readsIsCheckedBeforeDelay() {
        assertThatThrownBy(() -> PageParameters.parse(Map.of("reads", "x", "delay", "y")::get))
                .isInstanceOfSatisfying(InvalidPageParameterException.class,
                        e -> assertThat(e.parameter()).isEqualTo("reads"));
        assertThatThrownBy(() -> PageParameters.parse(Map.of("reads", "1", "delay", "y")::get))
                .isInstanceOfSatisfying(InvalidPageParameterException.class,
                        e -> assertThat(e.parameter()).isEqualTo("delay"));
    }

    @Test
    void aLongValueIsCutInTheMessage() {
        String huge = "9".repeat(5_000);
        assertThatThrownBy(() -> PageParameters.parse(Map.of("delay", huge)::get))
                .hasMessageContaining("delay=" + "9".repeat(32) + "...")
                .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(150));
    }
}
